/// Why a status file's text is not the JSON the kiosk writes: what was wrong and at which byte.
public struct StatusJSONError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var offset: Int

    public var description: String { "\(reason) at byte \(offset)" }
}

/// Reads JSON (RFC 8259) into a `StatusValue`, for `kiosk status`. A status file may be cut
/// short by a full disk or written by hand, so everything is checked and nothing traps; nesting
/// is limited so a hostile file cannot exhaust the stack.
public struct StatusJSONReader {
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var at = 0

    public static func parse(_ text: String) throws(StatusJSONError) -> StatusValue {
        var reader = StatusJSONReader(bytes: Array(text.utf8))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == reader.bytes.count else { throw reader.error("text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> StatusJSONError { StatusJSONError(reason: reason, offset: at) }

    private var current: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipSpace() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { at += 1 }
    }

    private mutating func expect(_ word: String, _ value: StatusValue) throws(StatusJSONError) -> StatusValue {
        let w = Array(word.utf8)
        guard bytes.count - at >= w.count, Array(bytes[at..<at + w.count]) == w else {
            let rest = Array(bytes[at...])
            throw error(rest.count < w.count && w.starts(with: rest) ? "unexpected end (the file is cut short)" : "expected \(word)")
        }
        at += w.count
        return value
    }

    private mutating func value(depth: Int) throws(StatusJSONError) -> StatusValue {
        guard let b = current else { throw error("unexpected end (the file is cut short)") }
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(StatusJSONError) -> StatusValue {
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        at += 1
        var fields: [(String, StatusValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") { at += 1; return .object(fields) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error(current == nil ? "unexpected end (the file is cut short)" : "expected a key") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            at += 1
            skipSpace()
            fields.append((key, try value(depth: depth)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "}"): at += 1; return .object(fields)
            case nil: throw error("unexpected end (the file is cut short)")
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(StatusJSONError) -> StatusValue {
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        at += 1
        var elements: [StatusValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { at += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "]"): at += 1; return .array(elements)
            case nil: throw error("unexpected end (the file is cut short)")
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(StatusJSONError) -> String {
        at += 1
        var scalars = String.UnicodeScalarView()
        var run = at  // start of the bytes not yet copied
        func flush(_ reader: StatusJSONReader, to end: Int) throws(StatusJSONError) {
            guard run < end else { return }
            guard let text = String(validating: reader.bytes[run..<end], as: UTF8.self) else { throw reader.error("invalid UTF-8 in a string") }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard let b = current else { throw error("unexpected end inside a string (the file is cut short)") }
            switch b {
            case UInt8(ascii: "\""):
                try flush(self, to: at)
                at += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush(self, to: at)
                at += 1
                scalars.append(try escape())
                run = at
            case 0..<0x20:
                throw error("control character in a string")
            default:
                at += 1
            }
        }
    }

    private mutating func escape() throws(StatusJSONError) -> Unicode.Scalar {
        guard let b = current else { throw error("unexpected end inside a string (the file is cut short)") }
        at += 1
        switch b {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - at >= 2, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                    throw error("a lone surrogate \\u escape")
                }
                at += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate \\u escape") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("a lone surrogate \\u escape") }
            return scalar
        default:
            at -= 1
            throw error("unknown escape")
        }
    }

    private mutating func hex4() throws(StatusJSONError) -> UInt32 {
        guard bytes.count - at >= 4 else { throw error("a \\u escape cut short") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            v = v << 4 | UInt32(digit)
            at += 1
        }
        return v
    }

    /// RFC 8259's number grammar; integers that fit an `Int` stay integers.
    private mutating func number() throws(StatusJSONError) -> StatusValue {
        let start = at
        var isInteger = true
        if current == UInt8(ascii: "-") { at += 1 }
        func digits(_ r: inout StatusJSONReader) -> Int {
            let from = r.at
            while let b = r.current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { r.at += 1 }
            return r.at - from
        }
        let intStart = at
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("expected a digit") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("a number with a leading zero") }
        if current == UInt8(ascii: ".") {
            isInteger = false
            at += 1
            guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            at += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        if isInteger, let i = Int(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw error("a number out of range") }
        return .double(d)
    }
}

extension StatusValue {
    /// The value of `key` in an object; nil for other values or a missing key.
    public subscript(key: String) -> StatusValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var intValue: Int? { if case .int(let i) = self { return i }; return nil }
    /// An integer or a fraction, as a Double.
    public var numberValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [StatusValue]? { if case .array(let a) = self { return a }; return nil }
}
