import DRMOutput
import Geometry
import KioskConfiguration
import KioskSystem
import LayoutCore
import Raster
import Text

/// `kiosk demo`: reference scene S1's look (DESIGN.md §5) as a built-in config — twelve items on
/// a wrapping right-edge arc over a black-on-white pattern — run by the same runtime as the kiosk,
/// with the menu moving by itself until the first input. A display and input check for
/// installers, and what most of the VM test bed runs.
public struct DemoOptions: Sendable {
    public var display = DisplayRequest()
    public var rotation: DisplayRotation = .none
    public var pattern: BackgroundPattern = .checker
    public var motion: Autopilot.Motion = .auto
    /// Where SIGUSR1 writes a screenshot of what is on screen.
    public var screenshotPath = "/tmp/kiosk-screenshot.png"
    /// Stop by itself after this many frames reached the screen (tests).
    public var exitAfterFlips: Int?
    public var fontPath = Font.dejaVuSansPath
    /// The virtual terminal to control for console switching (for example /dev/tty1); nil: none.
    public var terminal: String?
    /// Read input devices (libinput on this seat, plus evdev dials); nil: no input.
    public var seat: String? = "seat0"
    public var detentsPerItem = 1
    public var knobDirection = 1
    public var calibration: [Double]?

    public init() {}

    static let itemCount = 12

    /// The demo's menu as a config: S1's rows, colours and pattern; the items only report.
    public var config: KioskConfig {
        let items = (0..<Self.itemCount).map { MenuItem(label: "Item \($0)", action: .back) }
        let background = BackgroundConfig(pattern: pattern, cell: 32, foreground: .black, background: .white,
                                          line: Color(rgb: 0xFF0000), lineWidth: 1)
        let screen = ScreenConfig(name: "demo", layout: .arc(ArcStyle(wrap: true)), background: background,
                                  sections: [MenuSection(items: items)])
        let input = InputConfig(seat: seat ?? "seat0", knobDirection: knobDirection, detentsPerItem: detentsPerItem,
                                calibration: calibration)
        return KioskConfig(display: DisplayConfig(card: display.card, connector: display.connector, mode: display.mode, rotation: rotation),
                           background: background, theme: ThemeConfig(font: fontPath), input: input, home: "demo",
                           screens: [screen], statusFile: "", screenshotFile: screenshotPath)
    }
}

/// Moves the menu by itself until the first input: continuously at one item a second, or one
/// animated step a second.
public struct Autopilot: Sendable {
    public enum Motion: String, Sendable, CaseIterable {
        /// Scrolls continuously, one item a second.
        case auto
        /// One animated step a second, resting in between.
        case steps
        /// Still until input moves it.
        case none
    }

    public let motion: Motion
    public let start: Double
    /// When the next step is due (`steps` only).
    public private(set) var nextStep: Double?

    public init(motion: Motion, start: Double) {
        self.motion = motion
        self.start = start
        nextStep = motion == .steps ? start + 1 : nil
    }

    public var isContinuous: Bool { motion == .auto }

    /// Where a continuously moving menu stands at `now` (nil when it does not move continuously).
    public func position(at now: Double) -> ScrollOffset? {
        motion == .auto ? ScrollOffset(max(0, now - start)) : nil
    }

    /// The steps due by `now`, counted as taken.
    public mutating func takeSteps(until now: Double) -> Int {
        guard let due = nextStep, now >= due else { return 0 }
        let steps = Int(now - due) + 1
        nextStep = due + Double(steps)
        return steps
    }
}

extension Runtime {
    /// `kiosk demo` on the display.
    public static func demo(_ options: DemoOptions) throws -> Runtime {
        let signals = try SignalSource(handledSignals)
        let config = options.config
        let display = try DisplaySession(request: options.display, rotation: options.rotation, terminalPath: options.terminal)
        let now = MonotonicClock.now()
        let app = try KioskApp(config: config, width: display.logicalWidth, height: display.logicalHeight, now: now)
        if options.motion != .none { app.autopilot = Autopilot(motion: options.motion, start: now) }
        return try Runtime(app: app, output: display, signals: signals, config: nil,
                           options: Options(exitAfterShownFrames: options.exitAfterFlips, seat: options.seat),
                           startup: StartupTimeline(now: now))
    }

    /// The demo frame at `offset` on a headless panel of `width` x `height`, turned by
    /// `options.rotation` exactly as the display would show it, written to `path`.
    public static func renderDemo(width: Int, height: Int, offset: ScrollOffset, options: DemoOptions, to path: String) throws {
        try renderHeadless(options.config, width: width, height: height, rotation: options.rotation, to: path) { app in
            app.currentScreen.jump(to: offset)
        }
    }
}
