import Glibc

/// A JSON value, enough for the status file (no Foundation).
public indirect enum StatusValue: Equatable, Sendable {
    case string(String), int(Int), double(Double), bool(Bool), null
    case array([StatusValue])
    case object([(String, StatusValue)])

    public static func == (a: StatusValue, b: StatusValue) -> Bool { a.json == b.json }

    public var json: String {
        switch self {
        case .string(let s): return Self.quote(s)
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? String(d) : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let a): return "[" + a.map(\.json).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.map { Self.quote($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The status file: what the kiosk shows and did, for a fleet's monitoring. Written whole to a
/// temporary file and renamed over the old one, so a reader never sees half of it.
public struct StatusDocument: Sendable {
    public var fields: [(String, StatusValue)]

    public var json: String { StatusValue.object(fields).json + "\n" }

    public func write(to path: String) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        if let slash, slash != path.startIndex {
            let dir = String(path[..<slash])
            if mkdir(dir, 0o755) != 0, errno != EEXIST { throw .last("mkdir \(dir)") }
        }
        let temporary = path + ".tmp"
        try writeFile(temporary, json)
        try retryingInterrupts("rename \(temporary)") { rename(temporary, path) }
    }
}
