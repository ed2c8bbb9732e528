import ArgumentParser
import DRMOutput
import Geometry
import Kiosk
import KioskConfiguration
import LayoutCore
import Raster

/// Scene S1 with the menu scrolling by itself: a display check for installers.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a self-scrolling menu on the display (a display check).",
        discussion: "Send SIGUSR1 for a screenshot of what is on screen; SIGTERM or Ctrl-C restores the display and exits.")

    @OptionGroup var display: DisplayOptions
    @Option(help: "Background pattern: checker, cross or circles.") var pattern: String = "checker"
    @Option(help: "How the menu moves by itself: auto (continuously), steps (one step a second) or none. Input stops it.")
    var motion: String = "auto"
    @Option(help: ArgumentHelp("libinput seat to read touch, knobs and keys from.", valueName: "seat")) var seat = "seat0"
    @Flag(help: "Do not read input devices.") var noInput = false
    @Option(help: ArgumentHelp("Knob detents per item.", valueName: "n")) var detentsPerItem = 1
    @Flag(help: "Turn the knob's direction around.") var reverseKnob = false
    @Option(help: ArgumentHelp("Where SIGUSR1 writes the screenshot.", valueName: "png")) var screenshot = "/tmp/kiosk-screenshot.png"
    @Option(help: ArgumentHelp("Virtual terminal to take over, so console switches hand the display back and forth.", valueName: "tty"))
    var terminal: String?
    @Option(help: ArgumentHelp("Exit after this many page flips.", valueName: "n")) var flips: Int?
    @Option(help: ArgumentHelp("Render one frame without a display at this scroll offset (items) to --out, then exit.", valueName: "items"))
    var headlessOffset: String?
    @Option(help: ArgumentHelp("Output PNG for --headless-offset.", valueName: "png")) var out: String?
    @Option(help: ArgumentHelp("Panel size for --headless-offset (before --rotation).", valueName: "WxH")) var size = "1024x768"

    func validate() throws {
        guard Self.patterns.contains(pattern) else { throw ValidationError("--pattern must be checker, cross or circles") }
        guard Autopilot.Motion(rawValue: motion) != nil else { throw ValidationError("--motion must be auto, steps or none") }
        guard (1...100).contains(detentsPerItem) else { throw ValidationError("--detents-per-item must be 1...100") }
        if headlessOffset != nil, out == nil { throw ValidationError("--headless-offset needs --out") }
        do { _ = try PanelSize(parsing: size) } catch { throw ValidationError(error.description) }
        if let flips, flips < 1 { throw ValidationError("--flips must be at least 1") }
    }

    static let patterns = ["checker", "cross", "circles"]

    func run() throws {
        var options = DemoOptions()
        options.display = display.request
        options.rotation = DisplayRotation(degrees: display.rotation)!
        options.pattern = BackgroundPattern(rawValue: pattern)!
        options.motion = Autopilot.Motion(rawValue: motion)!
        options.seat = noInput ? nil : seat
        options.detentsPerItem = detentsPerItem
        options.knobDirection = reverseKnob ? -1 : 1
        options.screenshotPath = screenshot
        options.exitAfterFlips = flips
        options.terminal = terminal
        let status = try failing {
            if let text = headlessOffset {
                guard let offset = parseOffset(text) else {
                    throw ValidationError("--headless-offset takes WHOLE or WHOLE+FRACTION")
                }
                let panel = try PanelSize(parsing: size)
                try Runtime.renderDemo(width: panel.width, height: panel.height, offset: offset, options: options, to: out!)
                print(out!)
                return 0
            }
            return try Runtime.demo(options).run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `12` or `12+0.25` (whole item and fraction, exactly as a screenshot's sidecar file records them).
func parseOffset(_ text: String) -> ScrollOffset? {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false)
    guard let first = parts.first, let whole = Int(first) else { return nil }
    guard parts.count == 2 else { return parts.count == 1 ? ScrollOffset(whole: whole) : nil }
    guard let f = Double(parts[1]), f >= 0, f < 1 else { return nil }
    return ScrollOffset(whole: whole, fraction: f)
}
