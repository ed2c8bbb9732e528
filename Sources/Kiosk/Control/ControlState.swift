import KioskConfiguration

/// What the kiosk shows, as one value for a caller (`GetState`, `kiosk ctl state`): built from
/// the owners of each part when asked, never kept.
public struct ControlState: Equatable, Sendable {
    /// The screen on top (a keypad's name while one is shown).
    public var screen: String
    /// The item the screen last settled on; nil on a keypad (it would tell a digit).
    public var selection: Int?
    public var selectedLabel: String?
    /// Whether the panel is lit (on or dimmed); false when blanked.
    public var displayOn: Bool
    public var values: [Value]
    /// The running config's generation (1 at start, one more per applied reload).
    public var generation: Int

    /// One value or toggle: what its label shows and how it stands.
    public struct Value: Equatable, Sendable {
        public var id: String
        /// What the label shows beside its text ("21.5 °C", "● On").
        public var text: String
        public var health: ValueHealth
        public var isToggle: Bool
    }

    public init(screen: String, selection: Int?, selectedLabel: String?, displayOn: Bool, values: [Value], generation: Int) {
        self.screen = screen
        self.selection = selection
        self.selectedLabel = selectedLabel
        self.displayOn = displayOn
        self.values = values
        self.generation = generation
    }
}
