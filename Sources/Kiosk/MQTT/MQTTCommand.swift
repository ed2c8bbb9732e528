/// A command message from the broker, decoded into what the control seam (`KioskControl`)
/// takes, or refused with a sentence for `PREFIX/error`. Pure: topics and bytes in.
public enum MQTTCommand {

    /// Payloads longer than this are refused unread (a notification is at most 1,000 characters).
    public static let maximumPayload = 16 * 1024
    /// A notification without `seconds`.
    public static let defaultNotifySeconds = 5.0

    public static func decode(topic: String, payload: [UInt8], topics: MQTTTopics) -> Result<ControlRequest, MQTTCommandError> {
        let base = topics.prefix + "/cmd/"
        guard topic.hasPrefix(base) else { return .failure(.unknownTopic(topic)) }
        let path = topic.dropFirst(base.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard payload.count <= maximumPayload else { return .failure(.badPayload("\(payload.count) bytes; at most \(maximumPayload)")) }
        guard let text = String(validating: payload, as: UTF8.self) else { return .failure(.badPayload("not UTF-8 text")) }
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        switch (path.first, path.count) {
        case ("screen", 1):
            return .success(.showScreen(trimmed))
        case ("home", 1):
            return .success(.goHome)
        case ("notify", 1):
            return notify(trimmed)
        case ("value", 2):
            return .success(.setValue(id: path[1], text: text))
        case ("toggle", 2):
            switch trimmed.lowercased() {
            case "on", "true", "1": return .success(.setToggle(id: path[1], on: true))
            case "off", "false", "0": return .success(.setToggle(id: path[1], on: false))
            default: return .failure(.badPayload("expected ON or OFF, got \"\(trimmed.prefix(40))\""))
            }
        case ("press", 2):
            return .success(.press(id: path[1]))
        case ("update", 1):
            // Only what the config offers, restarting as it says, never forced (`ActionGate`).
            guard trimmed.lowercased() == "install" else { return .failure(.badPayload("expected install, got \"\(trimmed.prefix(40))\"")) }
            return .success(.update(source: nil, reboot: nil, force: false))
        default:
            return .failure(.unknownTopic(topic))
        }
    }

    /// Text, or JSON `{"text": "...", "seconds": 5, "level": "info"}`.
    static func notify(_ text: String) -> Result<ControlRequest, MQTTCommandError> {
        guard text.hasPrefix("{") else { return .success(.notify(text: text, seconds: defaultNotifySeconds, level: .info)) }
        let doc: StatusValue
        do { doc = try StatusJSONReader.parse(text) } catch { return .failure(.badPayload("not JSON: \(error)")) }
        guard let body = doc["text"]?.stringValue else { return .failure(.badPayload("JSON without \"text\": \"...\"")) }
        var seconds = defaultNotifySeconds
        if let s = doc["seconds"] {
            guard let n = s.numberValue else { return .failure(.badPayload("\"seconds\" must be a number")) }
            seconds = n
        }
        var level = NotifyLevel.info
        if let l = doc["level"] {
            guard let word = l.stringValue, let parsed = NotifyLevel(rawValue: word) else {
                return .failure(.badPayload("\"level\" must be one of \(NotifyLevel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
            }
            level = parsed
        }
        return .success(.notify(text: body, seconds: seconds, level: level))
    }
}

/// Why a command message was refused before it reached the seam.
public enum MQTTCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownTopic(String)
    case badPayload(String)

    /// A stable word, for the error topic and for logging each kind once.
    public var name: String {
        switch self {
        case .unknownTopic: "UnknownTopic"
        case .badPayload: "BadPayload"
        }
    }

    public var description: String {
        switch self {
        case .unknownTopic(let t): "no command on topic \"\(t.prefix(200))\" (screen, home, notify, value/ID, toggle/ID, press/ID, update)"
        case .badPayload(let why): why
        }
    }
}
