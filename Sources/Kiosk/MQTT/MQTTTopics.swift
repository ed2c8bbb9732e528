import Glibc
import KioskConfiguration

/// Who the kiosk is on the broker: its client id, the prefix of its topics, and every topic it
/// publishes or takes commands on. One place, so that discovery documents, the publisher and
/// the command parser agree.
public struct MQTTTopics: Equatable, Sendable {
    public let clientID: String
    /// Every topic starts with it (`kiosk/kiosk-0123456789ab`).
    public let prefix: String
    /// The Home Assistant node id: the client id as one topic level.
    public let node: String

    public init(clientID: String, prefix: String? = nil) {
        self.clientID = clientID
        self.prefix = prefix ?? "kiosk/" + MQTTTopic.level(clientID)
        node = MQTTTopic.level(clientID)
    }

    /// `[mqtt]`'s names, the machine's id filling in a missing client id.
    public init(_ config: MQTTConfig, machineID: String?, hostname: String?) {
        self.init(clientID: config.clientID ?? Self.defaultClientID(machineID: machineID, hostname: hostname), prefix: config.topicPrefix)
    }

    /// `kiosk-` and the first 12 characters of /etc/machine-id (unique per installation); the host
    /// name when there is none; `kiosk` alone when neither is known.
    public static func defaultClientID(machineID: String?, hostname: String?) -> String {
        if let id = machineID?.filter({ $0.isHexDigit }), id.count >= 12 { return "kiosk-" + id.prefix(12).lowercased() }
        if let h = hostname, !h.isEmpty { return "kiosk-" + MQTTTopic.level(h) }
        return "kiosk"
    }

    /// /etc/machine-id's first line and gethostname(2), for `defaultClientID`.
    public static func machineNames() -> (machineID: String?, hostname: String?) {
        let id = try? ConfigFileReader.read(path: "/etc/machine-id", maximumSize: 4096).split(separator: "\n").first.map(String.init)
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
        return (id, host)
    }

    // MARK: Published (retained unless said)

    /// `online` while connected, `offline` (the will) when not.
    public var availability: String { prefix + "/availability" }
    public var screen: String { prefix + "/state/screen" }
    public var selection: String { prefix + "/state/selection" }
    public var displayPower: String { prefix + "/state/display_power" }
    public func value(_ id: String) -> String { prefix + "/state/value/" + id }
    /// `ON` or `OFF`.
    public func toggle(_ id: String) -> String { prefix + "/state/toggle/" + id }
    /// A disk image's versions, as Home Assistant's `update` entity reads them (JSON:
    /// `installed_version`, `latest_version`, `title`, `release_summary`, `in_progress`).
    public var update: String { prefix + "/state/update" }
    /// Not retained: an item activated on the kiosk (JSON).
    public var activated: String { prefix + "/event/activated" }
    /// Not retained: a press asks for an `api = true` toggle without commands to be switched
    /// (JSON `{"id", "on"}`); the answer is its state set through `P/cmd/toggle/ID`.
    public var toggleRequested: String { prefix + "/event/toggle" }
    /// Not retained: why a command was refused (JSON: topic, error).
    public var error: String { prefix + "/error" }

    // MARK: Commands (subscribed: `PREFIX/cmd/#`)

    public var commands: String { prefix + "/cmd/#" }
    /// Payload: a screen's name.
    public var showScreen: String { prefix + "/cmd/screen" }
    /// Payload: anything.
    public var home: String { prefix + "/cmd/home" }
    /// Payload: text, or JSON `{"text": ..., "seconds": ..., "level": "info"|"warning"|"error"}`.
    public var notify: String { prefix + "/cmd/notify" }
    /// Payload: the value's text.
    public func setValue(_ id: String) -> String { prefix + "/cmd/value/" + id }
    /// Payload: `ON` or `OFF`.
    public func setToggle(_ id: String) -> String { prefix + "/cmd/toggle/" + id }
    /// Payload: anything (Home Assistant's button sends `PRESS`).
    public func press(_ id: String) -> String { prefix + "/cmd/press/" + id }
    /// Payload: `install` (Home Assistant's update entity): the version `[control] update_source` offers.
    public var installUpdate: String { prefix + "/cmd/update" }
}
