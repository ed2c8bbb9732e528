/// What a menu tells its owner, in order: the app acts on these and logs them.
public enum MenuEvent: Hashable, Sendable {
    /// The menu came to rest after moving (or after its selection changed) with this content
    /// index selected. Reported exactly once per motion, and once when a menu is first shown.
    case selected(Int)
    /// The selected item was chosen (select key, knob press, or a tap that chooses).
    case activated(Int)
    /// A tap landed on this content index.
    case tapped(Int)
    case back
    /// A drag was let go at `velocity` (scroller units per second) and will move the menu
    /// `moved` units from where the finger came down.
    case released(velocity: Double, moved: Int)
}
