/// Why a control request was not carried out; its `description` is what the caller reads.
/// `name` is a stable word a transport maps to its own error names.
public enum ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownScreen(String, known: [String])
    case unknownItem(String)
    case notAToggle(String)
    /// The screen is behind a PIN and not open.
    case locked(String)
    /// A screen the menu reaches only through `lock`, a screen behind a PIN that is not open.
    case screenBehindLock(String, lock: String)
    /// An item on a screen behind `lock`'s PIN, not open, without `api_when_locked = true`.
    case itemBehindLock(String, lock: String)
    /// An item the broker may not act on: it lacks `publish = true`.
    case notPublished(String)
    case badArgument(String)
    /// A value read from a command or a file: a set would last only until its next reading.
    case readFromSource(String, source: String)
    /// An update asked of a machine not made from the Kiosk disk image.
    case notAnImage
    /// Someone is using the panel (the words say how): an update waits unless forced.
    case inUse(String)
    /// An update is asked for or under way, or this boot is a new version's trial.
    case updateRunning(String)
    /// The request could not be handed to root.
    case requestFailed(String)
    /// An update from the broker the config does not offer (`[control] update_source`).
    case notOffered

    public var name: String {
        switch self {
        case .unknownScreen: "UnknownScreen"
        case .unknownItem: "UnknownItem"
        case .notAToggle: "NotAToggle"
        case .locked, .screenBehindLock, .itemBehindLock: "Locked"
        case .notPublished: "NotPublished"
        case .badArgument: "BadArgument"
        case .readFromSource: "ReadFromSource"
        case .notAnImage: "NotAnImage"
        case .inUse: "InUse"
        case .updateRunning: "UpdateRunning"
        case .requestFailed: "Failed"
        case .notOffered: "NotOffered"
        }
    }

    public var description: String {
        switch self {
        case .unknownScreen(let name, let known):
            "no screen named \"\(name)\"; the screens are: \(known.joined(separator: ", "))"
        case .unknownItem(let id): "no item with a value or toggle has id \"\(id)\""
        case .notAToggle(let id): "\"\(id)\" is a value, not a toggle"
        case .locked(let name): "screen \"\(name)\" is locked behind a PIN: only the keypad on the device opens it"
        case .screenBehindLock(let name, let lock):
            "screen \"\(name)\" is reached only through screen \"\(lock)\", which is locked behind a PIN: only the keypad on the device opens it"
        case .itemBehindLock(let id, let lock):
            "\"\(id)\" is behind screen \"\(lock)\"'s PIN, which is not open: nothing from outside acts on it then (api_when_locked = true on the item allows it)"
        case .notPublished(let id):
            "\"\(id)\" is not published to the broker: publish = true on the item lets MQTT act on it"
        case .badArgument(let why): why
        case .readFromSource(let id, let source):
            "\"\(id)\" is read from \(source): a value set from outside would last only until its next reading; only a value with api = true is set through the control API"
        case .notAnImage: "this machine is not a Kiosk disk image: update the kiosk with its package (apt, dpkg)"
        case .inUse(let why): "the panel is in use (\(why)): ask again later, or force it"
        case .updateRunning(let why): why
        case .requestFailed(let why): why
        case .notOffered: "updates from the broker install only the folder the config offers ([control] update_source), never forced"
        }
    }
}
