import Geometry
import LayoutCore
import Raster
import Text

/// The kiosk's configuration as decoded from one TOML file (DESIGN.md §3): typed values with every
/// default filled in and every relative path already resolved against the file's directory.
/// `ConfigReader` builds it (through `ConfigDecoder`), `ConfigValidator` checks what decoding cannot (files, ranges, references).
public struct KioskConfig: Sendable, Equatable {
    public var display: DisplayConfig
    public var background: BackgroundConfig
    public var theme: ThemeConfig
    public var input: InputConfig
    /// The screen shown first, and the one an idle kiosk returns to.
    public var home: String
    /// In the order the file names them first.
    public var screens: [ScreenConfig]
    /// Seconds without input after which the kiosk returns to `home`; nil means never.
    public var idleTimeout: Double?
    /// How screens give way to one another (`transition`): navigation, so beside `home`, not a look of `[theme]`.
    public var transition: TransitionStyle
    /// JSON status for monitoring, rewritten atomically on every change.
    public var statusFile: String
    /// Prometheus metrics (node_exporter's textfile collector), rewritten atomically at most once a
    /// second; nil: none.
    public var metricsFile: String?
    /// Where a screenshot request writes its PNG.
    public var screenshotFile: String
    /// `[power]`: dimming and blanking the panel after idle.
    public var power: PowerConfig
    /// `[lock]`: how PIN-locked screens (`pin_hash`) count wrong PINs and relock.
    public var lock: LockConfig
    /// `[speech]`: the focused item and opened screens spoken aloud.
    public var speech: SpeechConfig
    /// `[mqtt]`: a broker for Home Assistant and fleets; nil: none.
    public var mqtt: MQTTConfig?
    /// `[control]`: the control API (D-Bus) and what its notifications may do.
    public var control: ControlConfig

    public init(display: DisplayConfig = DisplayConfig(), background: BackgroundConfig = BackgroundConfig(),
                theme: ThemeConfig = ThemeConfig(), input: InputConfig = InputConfig(), home: String,
                screens: [ScreenConfig], idleTimeout: Double? = nil,
                statusFile: String = KioskConfig.defaultStatusFile, metricsFile: String? = nil,
                screenshotFile: String = KioskConfig.defaultScreenshotFile, power: PowerConfig = PowerConfig(),
                lock: LockConfig = LockConfig(), transition: TransitionStyle = .slide, speech: SpeechConfig = SpeechConfig(),
                control: ControlConfig = ControlConfig(), mqtt: MQTTConfig? = nil) {
        self.display = display
        self.background = background
        self.theme = theme
        self.input = input
        self.home = home
        self.screens = screens
        self.idleTimeout = idleTimeout
        self.transition = transition
        self.statusFile = statusFile
        self.metricsFile = metricsFile
        self.screenshotFile = screenshotFile
        self.power = power
        self.lock = lock
        self.speech = speech
        self.mqtt = mqtt
        self.control = control
    }

    public static let defaultPath = "/etc/kiosk/kiosk.toml"
    public static let defaultStatusFile = "/run/kiosk/status.json"
    public static let defaultScreenshotFile = "/run/kiosk/screenshot.png"

    public func screen(named name: String) -> ScreenConfig? { screens.first { $0.name == name } }
}

// MARK: - Display

/// `[display]`: which output to take and how the logical screen is turned on it.
public struct DisplayConfig: Sendable, Equatable {
    public var card: String?
    public var connector: String?
    public var mode: ModeRequest?
    public var rotation: DisplayRotation

    public init(card: String? = nil, connector: String? = nil, mode: ModeRequest? = nil, rotation: DisplayRotation = .none) {
        self.card = card
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
    }

    /// What `DisplayChoice.find` takes.
    public var request: DisplayRequest { DisplayRequest(card: card, connector: connector, mode: mode) }
}

// MARK: - Power

/// `[power]`: the panel dims after `dimAfter` seconds without input and is turned off after
/// `blankAfter`; nil means never. Off by default: a kiosk that blanks surprises whoever did not
/// ask for it.
public struct PowerConfig: Sendable, Equatable {
    public var dimAfter: Double?
    /// The dimmed brightness as a fraction of the brightness in force when the kiosk started.
    public var dimLevel: Double
    public var blankAfter: Double?
    public var backlight: BacklightChoice

    public init(dimAfter: Double? = nil, dimLevel: Double = 0.3, blankAfter: Double? = nil, backlight: BacklightChoice = .auto) {
        self.dimAfter = dimAfter
        self.dimLevel = dimLevel
        self.blankAfter = blankAfter
        self.backlight = backlight
    }

    /// True when anything ever happens to the panel.
    public var isActive: Bool { dimAfter != nil || blankAfter != nil }
}

/// `[control]`: software on the device driving the menu (`kiosk ctl`, `busctl`).
public struct ControlConfig: Sendable, Equatable {
    /// Offer the API on the system bus; false: no bus connection at all.
    public var dbus: Bool
    /// A notification lights a blanked or dimmed panel; false: it waits on the dark panel and
    /// is seen if someone wakes it before it ends.
    public var notifyWakes: Bool
    /// A disk image device: where updates are offered (`UpdateSource`: a USB stick's folder, a
    /// synced folder, a web server's URL); the version there is the one Home Assistant offers,
    /// and an install without a source named (MQTT's, D-Bus with "") takes it. Nil: none offered.
    public var updateSource: String?
    /// Restart into an update once it is installed when the request does not say (MQTT's install).
    public var updateReboot: Bool

    public init(dbus: Bool = true, notifyWakes: Bool = false, updateSource: String? = nil, updateReboot: Bool = true) {
        self.dbus = dbus
        self.notifyWakes = notifyWakes
        self.updateSource = updateSource
        self.updateReboot = updateReboot
    }
}

/// `[lock]`: the keypad in front of screens with a `pin_hash`.
public struct LockConfig: Sendable, Equatable {
    /// Wrong PINs in a row before the keypad locks out.
    public var attempts: Int
    /// Seconds of the first lockout; each further one doubles.
    public var lockout: Double
    /// Seconds without input after which an unlocked screen locks again; 0: only when left.
    public var relockAfter: Double

    public init(attempts: Int = 5, lockout: Double = 60, relockAfter: Double = 60) {
        self.attempts = attempts
        self.lockout = lockout
        self.relockAfter = relockAfter
    }
}

/// Which `/sys/class/backlight` device dims and blanks with the panel.
public enum BacklightChoice: Sendable, Equatable, CustomStringConvertible {
    /// The first device in the class directory, by name; none is fine (DPMS alone then).
    case auto
    /// This device.
    case named(String)
    /// Leave the backlight alone.
    case none

    public init(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        default: self = .named(text)
        }
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .none: return "none"
        case .named(let n): return n
        }
    }
}

// MARK: - Background

/// The background pattern kinds of DESIGN.md §1.
public enum BackgroundPattern: String, CaseIterable, Sendable, Equatable {
    case checker, cross, circles, solid, image
}

/// `[background]` (and a screen's `background` override): a pattern tiled from one cell.
public struct BackgroundConfig: Sendable, Equatable {
    public var pattern: BackgroundPattern
    /// Cell size in pixels on a 1080-line screen; scaled by height/1080 (DESIGN.md §5).
    public var cell: Int
    public var foreground: Color
    public var background: Color
    /// The cross pattern's diagonals.
    public var line: Color
    /// Stroke width of the cross diagonals and circles, in pixels at 1080 lines.
    public var lineWidth: Double
    /// Absolute path of the PNG tile for `pattern = "image"`.
    public var image: String?

    /// What `preset` gives, with any value passed here instead.
    public init(preset: ThemePreset = .standard, pattern: BackgroundPattern? = nil, cell: Int = 32, foreground: Color? = nil,
                background: Color? = nil, line: Color? = nil, lineWidth: Double = 1, image: String? = nil) {
        let own = preset.background
        self.pattern = pattern ?? own.pattern
        self.cell = cell
        self.foreground = foreground ?? own.foreground
        self.background = background ?? own.background
        self.line = line ?? own.line
        self.lineWidth = lineWidth
        self.image = image
    }

    /// The cell size on a screen `height` lines high: rounded, at least 2 pixels.
    public func cellSize(forHeight height: Int) -> Int {
        max(2, Int((Double(cell) * Double(height) / 1080).rounded()))
    }

    /// The tile for a screen `height` lines high. `image` is the decoded PNG for `pattern = "image"`
    /// (the caller loads and caches it); without one, an image background falls back to solid.
    public func makeTile(forHeight height: Int, image decoded: PixelBuffer? = nil) throws(RasterError) -> PatternTile {
        let size = cellSize(forHeight: height)
        let width = max(0.5, lineWidth * Double(height) / 1080)
        switch pattern {
        case .checker: return try .checker(cell: size, foreground: foreground, background: background)
        case .cross: return try .cross(cell: size, foreground: foreground, lineColor: line, background: background, lineWidth: width)
        case .circles: return try .circles(cell: size, foreground: foreground, background: background, lineWidth: width)
        case .solid: return try .solid(background)
        case .image:
            guard let decoded else { return try .solid(background) }
            return try .image(decoded, cellWidth: size, cellHeight: size, background: background)
        }
    }
}

// MARK: - Theme

/// `theme.preset`: a set of colours that belong together. Every colour of `ThemeConfig` and the
/// default background come from it (here and nowhere else); the config's own keys override any one.
/// Each preset keeps every label at a WCAG contrast of at least 4.5:1 (`ThemeContrast`).
public enum ThemePreset: String, CaseIterable, Sendable, Equatable {
    /// Light grey ground, white plates, dark text, a deep blue selection.
    case light
    /// Near-black ground, slate plates, light text, a blue selection with a light outline.
    case dark
    /// Black ground, white text, a yellow selection with black text, wider outlines.
    case highContrast = "high-contrast"

    /// What a config without `theme.preset` gets: dark plates with light text, as before presets.
    public static let standard = ThemePreset.dark

    /// The colours and the outline width the preset gives a theme.
    public var palette: ThemePalette {
        switch self {
        case .light:
            return ThemePalette(row: Color(rgb: 0xFFFFFF), rowOpacity: 0.92, text: Color(rgb: 0x1B2430),
                                selectedRow: Color(rgb: 0x1F5FBF), selectedText: .white, pressedRow: Color(rgb: 0xC9D8EE),
                                highlight: Color(rgb: 0x1F5FBF), highlightWidth: 2, title: Color(rgb: 0x1B2430),
                                banner: Color(rgb: 0xB3261E), bannerText: .white)
        case .dark:
            return ThemePalette(row: Color(rgb: 0x262D38), rowOpacity: 0.92, text: Color(rgb: 0xF1F4F8),
                                selectedRow: Color(rgb: 0x2563C9), selectedText: .white, pressedRow: Color(rgb: 0x44526A),
                                highlight: Color(rgb: 0x8AB4F8), highlightWidth: 2, title: Color(rgb: 0xE8ECF2),
                                banner: Color(rgb: 0xB3261E), bannerText: .white)
        case .highContrast:
            return ThemePalette(row: Color(rgb: 0x1F1F1F), rowOpacity: 1, text: .white,
                                selectedRow: Color(rgb: 0xFFD60A), selectedText: .black, pressedRow: Color(rgb: 0x5C5C5C),
                                highlight: Color(rgb: 0xFFD60A), highlightWidth: 3, title: .white,
                                banner: .white, bannerText: .black)
        }
    }

    /// The default background: one calm colour, the pattern colours a quiet variation of it
    /// (for a config that picks a pattern but no colours).
    public var background: (pattern: BackgroundPattern, foreground: Color, background: Color, line: Color) {
        switch self {
        case .light: return (.solid, Color(rgb: 0xE1E6EC), Color(rgb: 0xECEFF3), Color(rgb: 0xD5DCE5))
        case .dark: return (.solid, Color(rgb: 0x1B2029), Color(rgb: 0x14181F), Color(rgb: 0x232A35))
        case .highContrast: return (.solid, Color(rgb: 0x141414), .black, Color(rgb: 0x2A2A2A))
        }
    }
}

/// The colours (and the two numbers that go with them) a preset gives a theme; each is a
/// `[theme]` key of the same name in snake case.
public struct ThemePalette: Sendable, Equatable {
    /// A plate's fill, drawn at `rowOpacity` over the background.
    public var row: Color
    public var rowOpacity: Double
    /// Labels on `row` and on `pressedRow`.
    public var text: Color
    /// The selected plate's fill (opaque) and its label: the selection reads from across a room.
    public var selectedRow: Color
    public var selectedText: Color
    /// The fill of the plate under a finger, until it lifts or drags.
    public var pressedRow: Color
    /// Outline of the selected plate, the dial's hub rim and pointer.
    public var highlight: Color
    public var highlightWidth: Double
    public var title: Color
    /// The error banner's fill and text.
    public var banner: Color
    public var bannerText: Color
}

/// `[theme]`: font, sizes and colours shared by every screen. The colours are read and written as
/// if they were its own (`theme.row`): they live in `palette`, which the preset fills.
@dynamicMemberLookup
public struct ThemeConfig: Sendable, Equatable {
    /// Where the colours came from before any key overrode them.
    public var preset: ThemePreset
    /// The preset's colours with the config's overrides.
    public var palette: ThemePalette
    /// Absolute path of a TrueType/OpenType font file, or a family name that fontconfig resolves
    /// ("Noto Sans"). Characters it lacks come from fontconfig's fallbacks either way.
    public var font: String
    /// Label size as a fraction of the row height.
    public var textSize: Double
    /// Title size as a fraction of the screen height.
    public var titleSize: Double
    /// Every text's size is multiplied by it (large text: 1.5); the layouts refit around it.
    public var textScale: Double
    /// What `text_scale` may be: half the designed size is the smallest that is still legible at
    /// the designed layouts' sizes, three times the largest a 800x480 panel lays out at all.
    public static let textScales: ClosedRange<Double> = 0.5...3
    /// Corner radius as a fraction of the row height.
    public var cornerRadius: Double
    /// The back button's word ("Zurück", "رجوع"); the arrow before it turns with the screen's direction.
    public var backLabel: String
    /// The words a toggle shows for its states unless its own `on_label`/`off_label` say otherwise
    /// (`toggle_on_label = "Aan"`): a symbol (●/○) stands before them, so the state is seen in any language.
    public var toggleOnLabel = "On"
    public var toggleOffLabel = "Off"
    /// The freedesktop icon theme icon names are looked up in first (then what it inherits, then hicolor).
    public var iconTheme: String = "Adwaita"
    /// What colour SVG icons are drawn in.
    public var iconColor: IconColor = .text

    public init(preset: ThemePreset = .standard, font: String = Font.dejaVuSansPath, textSize: Double = 0.4,
                titleSize: Double = 0.06, textScale: Double = 1, cornerRadius: Double = 0.25, backLabel: String = "Back") {
        self.preset = preset
        self.palette = preset.palette
        self.font = font
        self.textSize = textSize
        self.titleSize = titleSize
        self.textScale = textScale
        self.cornerRadius = cornerRadius
        self.backLabel = backLabel
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ThemePalette, Value>) -> Value {
        get { palette[keyPath: keyPath] }
        set { palette[keyPath: keyPath] = newValue }
    }
}

/// `theme.icon_color`: the colour SVG icons (files and icon names) are drawn in. PNG icons are
/// always drawn in their own colours.
public enum IconColor: Sendable, Equatable {
    /// Symbolic icons ("...-symbolic") in their row's text colour (selected or not); other SVGs in their own.
    case text
    /// Every SVG icon in its own colours.
    case original
    /// Every SVG icon in this colour.
    case fixed(Color)
}

// MARK: - Screens

/// `[screens.NAME]`: one screen, its layout, and its items grouped in sections.
public struct ScreenConfig: Sendable, Equatable {
    public var name: String
    /// Shown as a header; nil shows none.
    public var title: String?
    public var layout: ScreenLayout
    /// The global background with this screen's overrides applied.
    public var background: BackgroundConfig
    /// Arc and dial screens have one untitled section; list screens have the ones the file gives.
    public var sections: [MenuSection]
    /// `direction = "rtl"` mirrors the screen for right-to-left languages: the title and back button
    /// on the right, list columns from the right, the arc on the left edge unless `edge` says
    /// otherwise. Labels run by their own first strong character either way.
    public var direction: TextDirection
    /// Set: the screen opens only after this PIN is entered on a keypad.
    public var pinHash: PinHash?
    /// Names the title's live value (`value`), like an item's `id`.
    public var id: String?
    /// A live value shown in the title: where `{value}` is in it, else after it.
    public var value: ValueSource?

    public init(name: String, title: String? = nil, layout: ScreenLayout, background: BackgroundConfig = BackgroundConfig(),
                sections: [MenuSection], direction: TextDirection = .leftToRight, pinHash: PinHash? = nil,
                id: String? = nil, value: ValueSource? = nil) {
        self.id = id
        self.value = value
        self.name = name
        self.title = title
        self.layout = layout
        self.background = background
        self.sections = sections
        self.direction = direction
        self.pinHash = pinHash
    }

    /// Every item in reading order: the order selection indices count in.
    public var items: [MenuItem] { sections.flatMap(\.items) }

    public var reading: ReadingDirection { direction == .rightToLeft ? .rightToLeft : .leftToRight }

    public var style: ScreenStyle {
        switch layout {
        case .arc: return .arc
        case .dial: return .dial
        case .list: return .list
        }
    }
}

public enum ScreenStyle: String, CaseIterable, Sendable, Equatable {
    case arc, dial, list

    /// The keys of `[screens.NAME]` this style reads beside the common ones, in the order it reads them.
    public var keys: [StyleKey] { StyleKey.allCases.filter { $0.styles.contains(self) } }
}

/// The keys of a `[screens.NAME]` table that belong to its style, spelled once: the decoder reads
/// them by these names, the validator's messages name them so, and a key of another style is
/// refused saying whose it is ("only used with style = ..."). Listed in the order a style reads them.
public enum StyleKey: String, CaseIterable, Sendable {
    case edge
    case radiusRatio = "radius_ratio"
    case translation
    case rowsVisible = "rows_visible"
    case rowLength = "row_length"
    case rowThickness = "row_thickness"
    case inset
    case sidePanel = "side_panel"
    case slots, radius, pointer
    case wrap
    case items
    case columns
    case rowHeight = "row_height"
    case sections

    /// The styles that read this key.
    public var styles: [ScreenStyle] {
        switch self {
        case .edge, .radiusRatio, .translation, .rowsVisible, .rowLength, .rowThickness, .inset, .sidePanel: return [.arc]
        case .slots, .radius, .pointer: return [.dial]
        case .wrap, .items: return [.arc, .dial]
        case .columns, .rowHeight, .sections: return [.list]
        }
    }
}

/// The style of a screen with its parameters.
public enum ScreenLayout: Sendable, Equatable {
    case arc(ArcStyle)
    case dial(DialStyle)
    case list(ListStyle)
}

/// Parameters of an arc screen (`ArcLayout`), in fractions of the screen so that one config fits any size.
public struct ArcStyle: Sendable, Equatable {
    public var edge: ArcEdge
    /// Radius across the axis over the radius along it (`rx / ry`).
    public var radiusRatio: Double
    /// Shift of the ellipse, in pixels at 1080 lines.
    public var translation: Point
    /// Row pitch = extent along the axis / `rowsVisible`.
    public var rowsVisible: Double
    /// Row length as a fraction of the extent across the axis; nil: as long as the longest label
    /// needs, within what the panel leaves.
    public var rowLength: Double?
    /// Row thickness as a fraction of the pitch.
    public var rowThickness: Double
    /// Gap between the ellipse and the rows, in pixels at 1080 lines.
    public var inset: Double
    public var wrap: Bool
    /// A left or right arc on a landscape panel shows the selected item large in the half of the
    /// screen it leaves free (`side_panel = false`: left empty).
    public var sidePanel: Bool

    public init(edge: ArcEdge = .right, radiusRatio: Double = 0.6, translation: Point = .zero, rowsVisible: Double = 9,
                rowLength: Double? = nil, rowThickness: Double = 0.8, inset: Double = 16, wrap: Bool = false, sidePanel: Bool = true) {
        self.sidePanel = sidePanel
        self.edge = edge
        self.radiusRatio = radiusRatio
        self.translation = translation
        self.rowsVisible = rowsVisible
        self.rowLength = rowLength
        self.rowThickness = rowThickness
        self.inset = inset
        self.wrap = wrap
    }
}

/// Parameters of a dial screen (`DialLayout`).
public struct DialStyle: Sendable, Equatable {
    /// Positions around the circle; fewer items than slots use one slot each.
    public var slots: Int
    /// Radius of the circle the items stand on, as a fraction of min(width, height).
    public var radius: Double
    /// Where the selected item stands, in degrees clockwise from the positive x axis (-90 is the top).
    public var pointer: Double
    public var wrap: Bool

    public init(slots: Int = 8, radius: Double = 0.32, pointer: Double = -90, wrap: Bool = true) {
        self.slots = slots
        self.radius = radius
        self.pointer = pointer
        self.wrap = wrap
    }
}

/// Parameters of a grouped list screen (`ListLayout`).
public struct ListStyle: Sendable, Equatable {
    public var columns: Int
    /// Row height as a fraction of the screen height.
    public var rowHeight: Double

    public init(columns: Int = 1, rowHeight: Double = 0.1) {
        self.columns = columns
        self.rowHeight = rowHeight
    }
}

/// A titled group of items (list screens), or all the items of an arc or dial screen.
public struct MenuSection: Sendable, Equatable {
    public var title: String?
    public var items: [MenuItem]

    public init(title: String? = nil, items: [MenuItem]) {
        self.title = title
        self.items = items
    }
}

public struct MenuItem: Sendable, Equatable {
    public var label: String
    /// Absolute path of a PNG shown beside the label.
    public var icon: String?
    public var action: ItemAction
    /// A sentence about the item, shown under its label on the free side of an arc while it is selected.
    public var description: String?
    /// Names the item in the status file (unique in a config); needed by `value` and `toggle`.
    public var id: String?
    /// A live value shown with the label: where `{value}` is in it, else after it.
    public var value: ValueSource?
    /// Set with `action = .toggle`: the item is a switch.
    public var toggle: ToggleConfig?
    /// `publish = true`: the broker (`[mqtt]`) may act on the item: a button in Home Assistant
    /// activates it, a toggle is a switch there, an `api` value is set from there; needs an `id`.
    public var publish: Bool
    /// `api_when_locked = true`: the control API and the broker may act on the item while the
    /// screen it is on is behind a PIN that is not open; by default they are refused then.
    public var apiWhenLocked: Bool
    /// The label with room for its live value at its widest (`LiveLabel.reserved`): what the
    /// layout is sized from, so that a reading never moves it. Set where values are drawn; nil:
    /// `label` itself.
    public var layoutLabel: String?

    /// The text a layout measures: `layoutLabel`, or the label.
    public var measuredLabel: String { layoutLabel ?? label }

    public init(label: String, icon: String? = nil, action: ItemAction, description: String? = nil, id: String? = nil,
                value: ValueSource? = nil, toggle: ToggleConfig? = nil, publish: Bool = false, apiWhenLocked: Bool = false) {
        self.label = label
        self.icon = icon
        self.action = action
        self.description = description
        self.id = id
        self.value = value
        self.toggle = toggle
        self.publish = publish
        self.apiWhenLocked = apiWhenLocked
    }

    /// The longest `description` the side panel lays out: a sentence or two, not a manual.
    public static let maximumDescription = 200
}

/// What activating an item does (DESIGN.md §1, Actions).
public enum ItemAction: Sendable, Equatable {
    /// Open the named screen; `back` returns.
    case screen(String)
    /// Hand the display and input to a program until it exits.
    case exec(Command)
    /// Start a program in the background, keeping the display.
    case spawn(Command)
    case back
    /// Read the config file again.
    case reload
    case poweroff
    case reboot
    /// Switch the item's `toggle` on or off (never written as `action`: a `toggle` table makes it).
    case toggle

    /// Its kind, as the config's `action` key names it.
    public var kind: ActionKind {
        switch self {
        case .screen: return .screen
        case .exec: return .exec
        case .spawn: return .spawn
        case .back: return .back
        case .reload: return .reload
        case .poweroff: return .poweroff
        case .reboot: return .reboot
        case .toggle: return .toggle
        }
    }
}

/// The kinds of item action, spelled once: the raw values are the config's `action` words, the
/// order is the one messages list them in, and the status file's `last_action.action` and the
/// metrics' `kiosk_actions_total{action=...}` name actions by them (`Effect.kind`, `ActionOutcome`).
public enum ActionKind: String, CaseIterable, Sendable, Hashable, Comparable, CustomStringConvertible {
    case screen, exec, spawn, back, reload, poweroff, reboot, toggle

    /// The kinds an item's `action` key may name (a toggle is made by its `toggle` table).
    public static var configurable: [ActionKind] { allCases.filter { $0 != .toggle } }

    public var description: String { rawValue }

    /// By name, as the metrics list them.
    public static func < (a: ActionKind, b: ActionKind) -> Bool { a.rawValue < b.rawValue }
}

/// A program to run: an argv array, never a shell string.
public struct Command: Sendable, Equatable {
    /// `argv[0]` is an absolute path, or a bare name looked up in PATH when started.
    public var argv: [String]
    /// Added to (or replacing in) the kiosk's environment.
    public var environment: [String: String]

    public init(argv: [String], environment: [String: String] = [:]) {
        self.argv = argv
        self.environment = environment
    }
}

// MARK: - Input

/// `[input]`: the seat, the knob, key bindings and touch calibration.
public struct InputConfig: Sendable, Equatable {
    public var seat: String
    /// 1 keeps the device's direction, -1 reverses it.
    public var knobDirection: Int
    /// Knob detents that move the selection by one item.
    public var detentsPerItem: Int
    public var keys: KeyBindings
    /// libinput's 3x2 calibration matrix (row-major, the last row implied).
    public var calibration: [Double]?

    public init(seat: String = "seat0", knobDirection: Int = 1, detentsPerItem: Int = 1, keys: KeyBindings = KeyBindings(),
                calibration: [Double]? = nil) {
        self.seat = seat
        self.knobDirection = knobDirection
        self.detentsPerItem = detentsPerItem
        self.keys = keys
        self.calibration = calibration
    }
}

/// Evdev key names (`KEY_DOWN`, `BTN_0`) for each navigation command; a command not given keeps
/// its default keys (`KeyBindings.standard`).
public struct KeyBindings: Sendable, Equatable {
    public var next: [String]
    public var previous: [String]
    public var select: [String]
    public var back: [String]

    public init(next: [String] = standard.next, previous: [String] = standard.previous,
                select: [String] = standard.select, back: [String] = standard.back) {
        self.next = next
        self.previous = previous
        self.select = select
        self.back = back
    }
}
