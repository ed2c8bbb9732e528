import Glibc
import SystemBus

/// `kiosk ctl`'s side of the D-Bus API: one request to the running kiosk, waiting for its answer.
public final class ControlClient {
    private let connection: BusConnection
    /// Seconds to wait for the kiosk's answer.
    private let timeout: Double

    /// The system bus, or the bus at `address` (tests); `kiosk ctl` waits 5 s for an answer, a
    /// test on a starved host longer.
    public init(address: String? = nil, timeout: Double = 5) throws(ControlClientError) {
        self.timeout = timeout
        do {
            connection = try BusConnection(address: address)
        } catch {
            throw .noBus(address == nil ? "the system bus" : address!, error.description)
        }
    }

    public func send(_ request: ControlRequest) throws(ControlClientError) -> ControlReply {
        do {
            let call = try connection.methodCall(destination: DBusNames.service, path: DBusNames.path,
                                                 interface: DBusNames.interface, member: Self.member(request))
            switch request {
            case .showScreen(let name): try call.append(name)
            case .notify(let text, let seconds, let level):
                try call.append(text)
                try call.append(seconds)
                try call.append(level.rawValue)
            case .setValue(let id, let text):
                try call.append(id)
                try call.append(text)
            case .setToggle(let id, let on):
                try call.append(id)
                try call.append(on)
            case .press(let id): try call.append(id)
            case .update(let source, let reboot, let force):
                try call.append(source ?? "")
                try call.append(reboot ?? false)
                try call.append(force)
            case .goHome, .state, .image: break
            }
            let reply = try connection.call(call, timeout: timeout)
            switch request {
            case .state: return .state(try Self.readState(reply))
            case .image: return .image(try Self.readImage(reply))
            default: return .done
            }
        } catch {
            throw ControlClientError(error)
        }
    }

    static func member(_ request: ControlRequest) -> String {
        switch request {
        case .showScreen: "ShowScreen"
        case .notify: "Notify"
        case .setValue: "SetValue"
        case .setToggle: "SetToggle"
        case .press: "Press"
        case .goHome: "GoHome"
        case .state: "GetState"
        case .update: "Update"
        case .image: "GetImage"
        }
    }

    /// `GetImage`'s answer; the installed versions are the status file's to list (`kiosk status`).
    static func readImage(_ r: BusMessage) throws(BusError) -> ImageStatus {
        let version = try r.readString(), slot = try r.readString(), trial = try r.readBool()
        let state = try r.readString(), updateVersion = try r.readString(), message = try r.readString()
        let from = try r.readString(), reason = try r.readString(), progress = try r.readInt32()
        let nonEmpty = KeyValueLines.nonEmpty
        return ImageStatus(version: version, slot: nonEmpty(slot), trial: trial, versions: [],
                           rollback: from.isEmpty ? nil : .init(from: from, reason: nonEmpty(reason)),
                           update: ImageStatus.Update.State(rawValue: state).map {
                               ImageStatus.Update(state: $0, version: nonEmpty(updateVersion), message: nonEmpty(message),
                                                  progress: progress < 0 ? nil : Int(progress))
                           })
    }

    static func readState(_ r: BusMessage) throws(BusError) -> ControlState {
        let screen = try r.readString(), selection = try r.readInt32(), label = try r.readString()
        let displayOn = try r.readBool(), generation = try r.readUInt32()
        var values: [ControlState.Value] = []
        _ = try r.enter("a", "(sssb)")
        while try r.enter("r", "sssb") {
            let id = try r.readString(), text = try r.readString(), word = try r.readString(), toggle = try r.readBool()
            try r.exit()
            values.append(ControlState.Value(id: id, text: text, health: ValueHealth(id: id, state: ValueState(rawValue: word) ?? .pending),
                                             isToggle: toggle))
        }
        try r.exit()
        return ControlState(screen: screen, selection: selection < 0 ? nil : Int(selection), selectedLabel: selection < 0 ? nil : label,
                            displayOn: displayOn, values: values, generation: Int(generation))
    }
}

/// Why `kiosk ctl` could not do what it was asked, in words for the person who typed it.
public enum ControlClientError: Error, Equatable, CustomStringConvertible {
    case noBus(String, String)
    case notRunning
    case denied
    /// The kiosk refused the request: its error name and message.
    case refused(String, String)
    case failed(String)

    init(_ error: BusError) {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            self = .notRunning
        case "org.freedesktop.DBus.Error.AccessDenied":
            self = .denied
        case let name? where name.hasPrefix(DBusNames.errorPrefix) || name == "org.freedesktop.DBus.Error.InvalidArgs":
            self = .refused(String(name.split(separator: ".").last ?? ""), error.message ?? "")
        default:
            self = .failed(error.description)
        }
    }

    public var description: String {
        switch self {
        case .noBus(let bus, let why): "cannot connect to \(bus) (\(why)): is dbus running?"
        case .notRunning: "the kiosk is not running, or runs without its control API (no one owns \(DBusNames.service) on the system bus; `kiosk status` says why)"
        case .denied: "permission denied: only root and members of the group kiosk-control may drive the kiosk (sudo adduser $USER kiosk-control, then log in again)"
        case .refused(_, let message): message
        case .failed(let why): why
        }
    }
}

extension ControlState {
    /// For scripts (`kiosk ctl state --json`).
    public var value: StatusValue {
        .object([
            ("screen", .string(screen)),
            ("selection", selection.map { .int($0) } ?? .null),
            ("selected_label", selectedLabel.map { .string($0) } ?? .null),
            ("display_on", .bool(displayOn)),
            ("generation", .int(generation)),
            ("values", .array(values.map { v in
                .object([("id", .string(v.id)), ("text", .string(v.text)), ("state", .string(v.health.state.rawValue)),
                         ("toggle", .bool(v.isToggle))])
            })),
        ])
    }

    /// For a person.
    public var text: String {
        var lines = ["screen: \(screen)" + (selectedLabel.map { ", \"\($0)\" selected" } ?? ""),
                     "display: " + (displayOn ? "on" : "off"), "config generation: \(generation)"]
        for v in values { lines.append("\(v.id): \(v.text) (\(v.health.state.rawValue))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
