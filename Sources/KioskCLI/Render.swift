import ArgumentParser
import DRMOutput
import Geometry
import Kiosk
import KioskConfiguration
import KioskSystem
import MenuScreens
import Raster

/// Previews screens of a config without a device, through the same headless output the tests use.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render screens of a config to PNG files without a display.",
        discussion: "Example: kiosk render kiosk.toml --screen main --out main.png --size 800x480 --rotation 90")

    @Argument(help: ArgumentHelp("The config file.", valueName: "file")) var file: String
    @Option(help: ArgumentHelp("Screen to render (default: the home screen).", valueName: "name")) var screen: String?
    @Flag(help: "Render every screen, into --out-dir.") var all = false
    @Option(help: ArgumentHelp("Output PNG (one screen).", valueName: "png")) var out: String?
    @Option(help: ArgumentHelp("Output folder for --all (files are NAME.png), created if missing.", valueName: "dir")) var outDir: String?
    @Option(help: ArgumentHelp("Panel size, WIDTHxHEIGHT.", valueName: "WxH")) var size = "800x480"
    @Option(help: ArgumentHelp("Panel rotation in degrees (default: the config's).", valueName: "degrees")) var rotation: Int?
    @Option(help: ArgumentHelp("Also write what the screen laid out at rest, as JSON: the title and each visible item's plate, text, size, whether it was shortened and selected, in the unrotated screen (one screen).",
                               valueName: "json"))
    var layout: String?
    @Option(name: .customLong("value"), help: ArgumentHelp("Show item ID's live value as TEXT (as its command would print it; a toggle: on or off). Repeatable.",
                                                           valueName: "ID=TEXT"))
    var values: [String] = []
    @Option(name: .customLong("stale"), help: ArgumentHelp("Draw item ID's value or toggle as stale (its reading failed). Repeatable.", valueName: "ID"))
    var stale: [String] = []
    @Option(name: .customLong("select"), help: ArgumentHelp("Draw item N of the screen selected (0 is the first; on the keypad, key N).", valueName: "N"))
    var selection: Int?
    @Flag(help: "Draw the keypad the screen's PIN puts up in front of it.") var keypad = false

    func validate() throws {
        do { _ = try PanelSize(parsing: size) } catch { throw ValidationError(error.description) }
        if let rotation, DisplayRotation(degrees: rotation) == nil { throw ValidationError("--rotation must be 0, 90, 180 or 270") }
        if all { guard outDir != nil else { throw ValidationError("--all needs --out-dir") } }
        else { guard out != nil || layout != nil else { throw ValidationError("give --out FILE or --layout FILE (or --all --out-dir DIR)") } }
        for v in values where !v.contains("=") { throw ValidationError("--value takes ID=TEXT, got \"\(v)\"") }
        if all, layout != nil { throw ValidationError("--layout writes one screen's layout: give --screen instead of --all") }
        if all, selection != nil || keypad { throw ValidationError("--select and --keypad draw one screen: give --screen instead of --all") }
        if let selection, selection < 0 { throw ValidationError("--select takes an item's index, 0 or more") }
    }

    /// `--value ID=TEXT` pairs.
    var liveValues: [(id: String, text: String)] {
        values.map { v in
            let parts = v.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    func run() throws {
        let loaded = LoadedConfig.load(using: ConfigReader(path: file))
        let check = loaded.check
        for p in check.problems { Log.problem(p) }
        guard let config = check.config, let assets = loaded.assets else {
            Log.error("\(file) is not valid; nothing rendered")
            throw ExitCode.failure
        }
        let panel = try PanelSize(parsing: size)
        let turn = rotation.flatMap(DisplayRotation.init(degrees:)) ?? config.display.rotation
        let names = all ? config.screens.map(\.name) : [screen ?? config.home]
        let status = try failing {
            if all { try PNGCodec.createFolder(outDir!) }
            for name in names {
                guard config.screen(named: name) != nil else {
                    Log.error("no screen named \(name); screens: \(config.screens.map(\.name).joined(separator: ", "))")
                    return 1
                }
                // The picture and the layout from one drawing, as the device draws that state.
                let path = all ? "\(outDir!)/\(name).png" : out
                let state = PreviewState(screen: name, values: liveValues, stale: stale, selection: selection, keypad: keypad)
                let report = try renderPreview(config, state, width: panel.width, height: panel.height, rotation: turn, assets: assets, to: path)
                if let path { print(path) }
                if let layout {
                    try writeFileAtomically(layout, report.json)
                    print(layout)
                }
            }
            return 0
        }
        if status != 0 { throw ExitCode(status) }
    }
}
