import TOML

/// A JSON value, enough for the status file (no Foundation).
public indirect enum StatusValue: Equatable, Sendable {
    case string(String), int(Int), double(Double), bool(Bool), null
    case array([StatusValue])
    case object([(String, StatusValue)])

    public static func == (a: StatusValue, b: StatusValue) -> Bool { a.json == b.json }

    /// Strings are written as TOML basic strings, whose escapes are all JSON's.
    public var json: String {
        switch self {
        case .string(let s): return TOMLSyntax.quoted(s)
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? String(d) : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let a): return "[" + a.map(\.json).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.map { TOMLSyntax.quoted($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
        }
    }
}
