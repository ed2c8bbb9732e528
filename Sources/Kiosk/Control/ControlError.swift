/// Why a control request was not carried out; its `description` is what the caller reads.
/// `name` is a stable word a transport maps to its own error names.
public enum ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownScreen(String, known: [String])
    case unknownItem(String)
    case notAToggle(String)
    /// The screen is behind a PIN and not open.
    case locked(String)
    case badArgument(String)
    /// A value read from a command or a file: a set would last only until its next reading.
    case readFromSource(String, source: String)

    public var name: String {
        switch self {
        case .unknownScreen: "UnknownScreen"
        case .unknownItem: "UnknownItem"
        case .notAToggle: "NotAToggle"
        case .locked: "Locked"
        case .badArgument: "BadArgument"
        case .readFromSource: "ReadFromSource"
        }
    }

    public var description: String {
        switch self {
        case .unknownScreen(let name, let known):
            "no screen named \"\(name)\"; the screens are: \(known.joined(separator: ", "))"
        case .unknownItem(let id): "no item with a value or toggle has id \"\(id)\""
        case .notAToggle(let id): "\"\(id)\" is a value, not a toggle"
        case .locked(let name): "screen \"\(name)\" is locked behind a PIN: only the keypad on the device opens it"
        case .badArgument(let why): why
        case .readFromSource(let id, let source):
            "\"\(id)\" is read from \(source): a value set from outside would last only until its next reading; only a value with api = true is set through the control API"
        }
    }
}
