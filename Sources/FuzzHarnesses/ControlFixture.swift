import Glibc
import Kiosk
import KioskConfiguration

/// The config the control harnesses (MQTT, D-Bus) drive: items the broker may act on, values and
/// toggles set from outside, and a screen behind a PIN whose items would each leave a mark if
/// they ever ran. The invariants every input must keep: nothing behind the PIN runs, is switched
/// or is shown; only `kiln-offset` (`api_when_locked`) is reachable there.
public enum ControlFixture {
    /// The file an item behind the PIN would create if it ran (one per process).
    public static let marker = "/tmp/kiosk-fuzz-locked-\(getpid())"
    /// Those items' labels, as an effect carries them.
    static let lockedLabels: Set<String> = ["Factory reset", "Wipe"]
    static let lockedToggles: Set<String> = ["kiln-power"]
    static let lockedScreens: Set<String> = ["admin", "danger"]

    public static func toml(pinHash: String) -> String {
        let mark = "[\"/bin/sh\", \"-c\", \": > \(marker)\"]"
        return """
            home = "main"

            [screens.main]
            style = "list"
            title = "Kiln"

            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "temp"
            label = "Temperature {value}"
            action = "back"
            value = { api = true, format = "%.1f", unit = "°C" }
            publish = true

            [[screens.main.sections.items]]
            id = "door"
            label = "Kiln door"
            toggle = { api = true, on = ["/bin/true"], off = ["/bin/true"] }
            publish = true

            [[screens.main.sections.items]]
            id = "open-admin"
            label = "Admin"
            action = "screen"
            screen = "admin"
            publish = true

            [[screens.main.sections.items]]
            id = "greet"
            label = "Greet"
            action = "spawn"
            command = ["/bin/true"]
            publish = true

            [screens.admin]
            style = "list"
            title = "Admin"
            pin_hash = "\(pinHash)"

            [[screens.admin.sections]]
            [[screens.admin.sections.items]]
            label = "Back"
            action = "back"

            [[screens.admin.sections.items]]
            id = "factory-reset"
            label = "Factory reset"
            action = "spawn"
            command = \(mark)
            publish = true

            [[screens.admin.sections.items]]
            id = "kiln-power"
            label = "Kiln power"
            toggle = { state = ["/bin/false"], on = \(mark), off = \(mark) }
            publish = true

            [[screens.admin.sections.items]]
            id = "kiln-offset"
            label = "Kiln offset {value}"
            action = "back"
            value = { api = true, format = "%.0f" }
            api_when_locked = true
            publish = true

            [[screens.admin.sections.items]]
            id = "open-danger"
            label = "Danger"
            action = "screen"
            screen = "danger"

            [screens.danger]
            style = "list"
            title = "Danger"

            [[screens.danger.sections]]
            [[screens.danger.sections.items]]
            id = "wipe"
            label = "Wipe"
            action = "spawn"
            command = \(mark)

            """
    }

    /// The config, read as the kiosk reads one (made once per process: hashing the PIN is slow).
    public static let config: KioskConfig = {
        do {
            let hash = try PinHash.make(pin: "1357")
            let check = ConfigReader.check(bytes: Array(toml(pinHash: hash.text).utf8), file: "fuzz-control.toml",
                                           baseDirectory: "/nonexistent/kiosk-fuzz", searchPath: "/usr/bin:/bin")
            guard let config = check.config else { fatalError("the control harnesses' config is refused:\n\(check.report)") }
            return config
        } catch {
            fatalError("cannot hash the harnesses' PIN: \(error)")
        }
    }()

    /// Traps on an effect of something behind the PIN.
    static func check(_ effect: Effect) {
        switch effect {
        case .run(let action):
            precondition(!lockedLabels.contains(action.label), "\(action.label) behind the PIN was run")
        case .switchToggle(let id, _, _):
            precondition(!lockedToggles.contains(id), "\(id) behind the PIN was switched")
        default:
            break
        }
    }

    /// Traps when a screen behind the PIN is shown or an item there has left its mark.
    static func check(_ app: KioskApp) {
        precondition(lockedScreens.isDisjoint(with: app.screenNames), "a screen behind the PIN was opened: \(app.screenNames)")
        precondition(access(marker, F_OK) != 0, "an item behind the PIN ran (\(marker) exists)")
    }

    /// A refusal's message goes to the caller and may be logged: its length is bounded, whatever was sent.
    static func check(message: String) {
        precondition(message.utf8.count <= 2048, "a message of \(message.utf8.count) bytes")
    }
}
