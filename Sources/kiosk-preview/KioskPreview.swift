import ArgumentParser
import DRMOutput
import Geometry
import Glibc
import Kiosk
import KioskConfiguration
import KioskSystem

/// `kiosk-preview`: the kiosk's runtime, screens and config reload on a desktop window, for
/// config authors. A separate program so that the device binary never links SDL.
@main
struct KioskPreview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-preview",
        abstract: "Run a kiosk config in a desktop window (X11 or Wayland), as the device would show it.",
        discussion: """
            The window is the panel: its size is --size, and the menu is laid out turned by the \
            config's rotation (or --rotation), as on the device.

            Mouse: press, drag and release are a finger on the touchscreen (tap, drag, fling). \
            Wheel: knob detents (down is next). Keyboard: the keys the config binds ([input.keys]; \
            by default arrows, Enter, Space, Escape, Backspace). Right button: BTN_RIGHT.

            The config file is watched and reloaded exactly as on a device: save it and the \
            window follows; an invalid file keeps the last good config and shows a banner. A \
            config that is broken from the start shows the rescue screen. SIGHUP reloads too.

            Items that would give the device away (exec, poweroff, reboot) are not run: a banner \
            says "would run …". --run-actions runs them. spawn items always run.

            The status file is written as on a device (the config's status_file, or another \
            place when its folder is not writable; see --status-file). Close the window or press \
            Ctrl-C to quit.

            Example: kiosk-preview systemd/kiosk.toml --size 800x480 --rotation 90
            """,
        version: "0.1.0")

    @Argument(help: ArgumentHelp("The config file (\(KioskConfig.pathDefaultHelp)).", valueName: "config"))
    var config: String?
    @Option(help: ArgumentHelp("Panel size in pixels, the window's size.", valueName: "WxH"))
    var size = "800x480"
    @Option(help: ArgumentHelp("Rotation of the panel: 0, 90, 180 or 270 degrees clockwise (default: the config's).", valueName: "degrees"))
    var rotation: Int?
    @Option(help: ArgumentHelp("Start on this screen instead of the config's home screen.", valueName: "name"))
    var screen: String?
    @Flag(help: "Really run exec, poweroff and reboot items (default: show what would run).")
    var runActions = false
    @Option(help: ArgumentHelp("Write the status here (default: the config's status_file if its folder is writable, else $XDG_RUNTIME_DIR/kiosk-preview/status.json, else /tmp/kiosk-preview-UID/status.json).", valueName: "path"))
    var statusFile: String?

    func validate() throws {
        do { _ = try PanelSize(parsing: size) } catch { throw ValidationError(error.description) }
        if let rotation, DisplayRotation(degrees: rotation) == nil {
            throw ValidationError("--rotation must be 0, 90, 180 or 270")
        }
        if let statusFile, statusFile.isEmpty { throw ValidationError("--status-file needs a path") }
    }

    var configPath: String {
        KioskConfig.path(given: config)
    }

    func run() throws {
        let panel = try PanelSize(parsing: size)
        let path = configPath
        var window: WindowOutput?
        let runtime: Runtime
        do {
            runtime = try Runtime.launch(configPath: path) { config in
                guard let screen else { return }
                guard config.screen(named: screen) != nil else {
                    throw ValidationError("no screen named \(screen) in \(path); screens: \(config.screens.map(\.name).joined(separator: ", "))")
                }
                config.home = screen
            } output: { config in
                let turn = rotation.flatMap(DisplayRotation.init(degrees:)) ?? config.display.rotation
                let w = try WindowOutput(panelWidth: panel.width, panelHeight: panel.height, rotation: turn, title: "kiosk-preview: \(path)")
                window = w
                return w
            } options: { config in
                let status = StatusFileChoice(requested: statusFile, configured: config.statusFile)
                Log.info(status.description)
                return Runtime.Options(runsHandoverActions: runActions, statusFile: status.override)
            }
        } catch let e as SDLError {
            Log.error("cannot open a window: \(e). kiosk-preview needs a desktop (DISPLAY or WAYLAND_DISPLAY); "
                      + "without one: kiosk render \(path) --all --out-dir DIR")
            throw ExitCode.failure
        } catch let e as ValidationError {
            Log.error(e.message)
            throw ExitCode.failure
        } catch {
            Log.error("\(error)")
            throw ExitCode.failure
        }
        window?.onInput = { [unowned runtime] event in runtime.deliver(event) }
        window?.onClose = { [unowned runtime] in runtime.eventLoop.stop() }
        if let window { Log.info("\(window.name); actions that give the device away: \(runActions ? "run" : "shown, not run")") }
        let status = try runtime.run()
        if status != 0 { throw ExitCode(status) }
    }
}
