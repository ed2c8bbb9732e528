import ArgumentParser
import Glibc
import Kiosk
import KioskConfiguration

/// `kiosk ctl`: the control API (D-Bus) from a shell or script.
struct Ctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drive the running kiosk: show a screen, notify, set a value or a toggle, press an item, go home, read its state.",
        discussion: """
            Calls the kiosk's control API on the system bus (\(DBusNames.service)). Allowed to root \
            and to members of the group kiosk-control. A screen behind a PIN is refused ("locked"): \
            only its keypad on the device opens it; so are the items on it, unless an item says \
            api_when_locked = true. Exit status: 0 done, 1 refused by the kiosk \
            (unknown screen or id, locked, bad argument), 64 usage, 3 not running, 4 permission denied \
            or no bus.
            """,
        subcommands: [Show.self, Notify.self, SetValue.self, Toggle.self, Press.self, Home.self, State.self, Update.self])

    struct Bus: ParsableArguments {
        @Option(help: ArgumentHelp("Bus address instead of the system bus (unix:path=...).", valueName: "address"))
        var bus: String?
    }

    static func send(_ request: ControlRequest, bus: String?) throws -> ControlReply {
        do {
            return try ControlClient(address: bus).send(request)
        } catch {
            let line = Array("kiosk ctl: \(error)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            switch error {
            case .refused: throw ExitCode(1)
            case .notRunning: throw ExitCode(3)
            case .denied, .noBus: throw ExitCode(4)
            case .failed: throw ExitCode(1)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a screen by name (its [screens.NAME]).")
        @Argument(help: ArgumentHelp("The screen's name.", valueName: "screen")) var screen: String
        @OptionGroup var bus: Bus
        func run() throws { _ = try Ctl.send(.showScreen(screen), bus: bus.bus) }
    }

    struct Notify: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a message over whatever is on screen.")
        @Argument(help: "The message.") var text: String
        @Option(help: ArgumentHelp("How long it stays.", valueName: "seconds")) var seconds: Double = 8
        @Option(help: ArgumentHelp("info, warning or error (shown as a word before the text).", valueName: "level"))
        var level: String = "info"
        @OptionGroup var bus: Bus
        func validate() throws {
            if NotifyLevel(rawValue: level) == nil { throw ValidationError("--level must be info, warning or error") }
        }
        func run() throws { _ = try Ctl.send(.notify(text: text, seconds: seconds, level: NotifyLevel(rawValue: level)!), bus: bus.bus) }
    }

    struct SetValue: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a live value that only the API sets (api = true), by its id.")
        @Argument(help: ArgumentHelp("The item's id.", valueName: "id")) var id: String
        @Argument(help: ArgumentHelp("The value, formatted as the item's value says.", valueName: "value")) var value: String
        @OptionGroup var bus: Bus
        func run() throws { _ = try Ctl.send(.setValue(id: id, text: value), bus: bus.bus) }
    }

    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an api = true toggle's state; switch any other toggle (its on/off command runs).")
        @Argument(help: ArgumentHelp("The toggle item's id.", valueName: "id")) var id: String
        @Argument(help: ArgumentHelp("on or off.", valueName: "state")) var state: String
        @OptionGroup var bus: Bus
        func validate() throws {
            if !["on", "off"].contains(state) { throw ValidationError("the state must be on or off, got '\(state)'") }
        }
        func run() throws { _ = try Ctl.send(.setToggle(id: id, on: state == "on"), bus: bus.bus) }
    }

    struct Press: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Activate an item by its id, as a press on it would.")
        @Argument(help: ArgumentHelp("The item's id.", valueName: "id")) var id: String
        @OptionGroup var bus: Bus
        func run() throws { _ = try Ctl.send(.press(id: id), bus: bus.bus) }
    }

    struct Home: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Go back to the home screen.")
        @OptionGroup var bus: Bus
        func run() throws { _ = try Ctl.send(.goHome, bus: bus.bus) }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a disk image update from a folder or a web server, or say how the image and its update stand.",
            discussion: """
                On a device made from the Kiosk disk image. SOURCE is a folder holding an update as \
                packaging/image/build leaves it (kiosk_VERSION.root.erofs, kiosk_VERSION.efi, SHA256SUMS, \
                SHA256SUMS.sig): a USB stick's, or one copied to the device; or the http:// or https:// \
                URL of such a folder on a web server (root downloads it onto the data partition first). \
                The kiosk hands the request \
                to root's kiosk-update.service, which installs only what the image's key signed. The \
                new version starts at the next boot, on trial: three tries, or the running one comes \
                back. Refused while the panel is in use (input in the last \(Int(ImageUpdateRequests.idleBeforeUpdate)) s, \
                or a program it started has the display) unless --force. Without SOURCE: the image's \
                version, slot and update.
                """)
        @Argument(help: ArgumentHelp("The update's folder (absolute path) or web folder (http:// or https:// URL).", valueName: "source"))
        var source: String?
        @Flag(help: "Restart into the new version once it is installed.") var reboot = false
        @Flag(help: "Even while the panel is in use.") var force = false
        @Flag(help: "Wait until the update is installed or refused, printing its steps; exit 1 if it was not installed.")
        var wait = false
        @OptionGroup var bus: Bus

        func validate() throws {
            if let source, let problem = UpdateSource.problem(source) { throw ValidationError("\(problem), got '\(source)'") }
            if source == nil, reboot || force || wait { throw ValidationError("--reboot, --force and --wait go with a SOURCE") }
        }

        func run() throws {
            guard let source else {
                guard case .image(let image) = try Ctl.send(.image, bus: bus.bus) else { return }
                print(Self.describe(image))
                return
            }
            _ = try Ctl.send(.update(source: source, reboot: reboot, force: force), bus: bus.bus)
            guard wait else {
                print("update from \(source) asked for; `kiosk ctl update` without a source says how it goes")
                return
            }
            var said = ""
            // As long as root's kiosk-update.service may take (a download, then a slot written).
            for _ in 0..<(3 * 3600) {
                sleep(1)
                guard case .image(let image) = try Ctl.send(.image, bus: bus.bus), let update = image.update else { continue }
                let line = update.state.rawValue + (update.message.map { ": \($0)" } ?? "")
                if line != said {
                    print(line)
                    said = line
                }
                guard !update.isRunning else { continue }
                if update.state == .refused || update.state == .failed { throw ExitCode(1) }
                return
            }
            print("still not done after 3 hours")
            throw ExitCode(1)
        }

        static func describe(_ image: ImageStatus) -> String {
            var lines = ["image: \(image.version)" + (image.slot.map { ", slot \($0)" } ?? "") + (image.trial ? ", on trial" : "")]
            if let r = image.rollback { lines.append("rolled back from \(r.from)" + (r.reason.map { ": \($0)" } ?? "")) }
            if let u = image.update { lines.append("update: \(u.state.rawValue)" + (u.message.map { ": \($0)" } ?? "")) }
            return lines.joined(separator: "\n")
        }
    }

    struct State: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print what the kiosk shows: screen, selection, display power, values.")
        @Flag(help: "Print it as JSON.") var json = false
        @OptionGroup var bus: Bus
        func run() throws {
            guard case .state(let s) = try Ctl.send(.state, bus: bus.bus) else { return }
            print(json ? s.value.json : s.text, terminator: json ? "\n" : "")
        }
    }
}
