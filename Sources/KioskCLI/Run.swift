import ArgumentParser
import DRMOutput
import Glibc
import Kiosk
import KioskConfiguration
import KioskSystem

/// The kiosk itself: the menu from the config, on the display, until stopped.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the menu from the config on the display (the default).",
        discussion: """
            The config is re-read when its file is replaced (atomic rename or in-place write) and on \
            SIGHUP; an invalid one leaves the last good config running and shows a banner. SIGUSR1 \
            writes a screenshot; SIGTERM restores the display and exits.
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("Config file (\(KioskConfig.pathDefaultHelp)).", valueName: "path"))
    var config: String?
    @Option(help: ArgumentHelp("Virtual terminal to take over, so console switches hand the display back and forth.", valueName: "tty"))
    var terminal: String?
    @Option(help: ArgumentHelp("Folder that keeps the PIN lockout across restarts (default: $STATE_DIRECTORY, which systemd sets from StateDirectory=, else /var/lib/kiosk); made 0700 if missing.", valueName: "dir"))
    var stateDir: String?
    @Option(help: ArgumentHelp("Seconds to wait at start for a display that is not there yet (its driver still loading, its panel not plugged in) before giving up with exit status 1.", valueName: "seconds"))
    var displayWait: Double = KioskRunOptions.defaultDisplayPatience

    var configPath: String {
        KioskConfig.path(given: config)
    }

    var stateDirectory: String {
        PinLockStore.directory(option: stateDir, environment: getenv("STATE_DIRECTORY").map { String(cString: $0) })
    }

    func validate() throws {
        if let stateDir, stateDir.isEmpty { throw ValidationError("--state-dir needs a folder") }
        guard displayWait.isFinite, displayWait >= 0, displayWait <= 3600 else {
            throw ValidationError("--display-wait \(displayWait): a number of seconds from 0 to 3600")
        }
    }

    func run() throws {
        let status = try failing {
            do {
                return try Runtime.kiosk(KioskRunOptions(configPath: configPath, terminal: terminal, stateDirectory: stateDirectory,
                                                           displayPatience: displayWait)).run()
            } catch let e as DisplayError {
                if case .noDevice = e {
                    Log.error("\(e.description). To preview the menu without a display: kiosk render \(configPath) --all --out-dir DIR")
                    return 1
                }
                throw e
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// Validates a config the way the running kiosk would, for pushing to a fleet.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a config file: exit 0 if the kiosk would accept it, 1 with every problem listed on stderr.")

    @Argument(help: ArgumentHelp("The config file.", valueName: "file")) var file: String
    @Option(name: .customLong("size"),
            help: ArgumentHelp("Also lay every screen out on a panel of WIDTHxHEIGHT (repeatable; default: the config's display mode, or 800x480) and warn for each label that would be shortened and each overlap.",
                               valueName: "WxH"))
    var sizes: [String] = []

    func validate() throws {
        for size in sizes {
            do { _ = try PanelSize(parsing: size) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        // The same load as the kiosk's: the screens are laid out with the font and images it validated.
        let loaded = LoadedConfig.load(using: ConfigReader(path: file))
        let check = loaded.check
        var problems = check.problems
        if let config = check.config, let assets = loaded.assets {
            let mode = config.display.mode.map { PanelSize(width: $0.width, height: $0.height) }
            var panels = [mode ?? PanelSize(width: 800, height: 480)]
            if !sizes.isEmpty { panels = try sizes.map { size throws(PanelSizeError) in try PanelSize(parsing: size) } }
            problems += LayoutProbe.warnings(config, file: file, panels: panels, assets: assets).map(check.located)
        }
        for p in problems { Log.plain(p.description) }
        if check.isValid {
            print("\(file): OK" + (problems.isEmpty ? "" : " (\(problems.count) warning(s))"))
        } else {
            throw ExitCode.failure
        }
    }
}
