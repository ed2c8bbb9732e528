/// A place in TOML source text: 1-based line, and 1-based column counted in Unicode scalars,
/// which is what an editor shows for a UTF-8 file.
public struct TOMLPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: TOMLPosition, b: TOMLPosition) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// One TOML value and where it starts in the source. Tables defined by a `[header]` start at the
/// header's `[`; tables created implicitly (by `[a.b]` or the dotted key `a.b = 1`) at the key
/// that created them; arrays of tables at their first `[[`.
public struct TOMLValue: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        case string(String)
        case integer(Int64)
        /// Any binary64 value, including the infinities and NaN that TOML spells `inf` and `nan`.
        case float(Double)
        case boolean(Bool)
        case dateTime(TOMLDateTime)
        case array([TOMLValue])
        case table(TOMLTable)
    }

    public var content: Content
    public var position: TOMLPosition

    public init(_ content: Content, at position: TOMLPosition) {
        self.content = content
        self.position = position
    }

    public var string: String? { if case .string(let v) = content { v } else { nil } }
    public var integer: Int64? { if case .integer(let v) = content { v } else { nil } }
    public var float: Double? { if case .float(let v) = content { v } else { nil } }
    public var bool: Bool? { if case .boolean(let v) = content { v } else { nil } }
    public var dateTime: TOMLDateTime? { if case .dateTime(let v) = content { v } else { nil } }
    public var array: [TOMLValue]? { if case .array(let v) = content { v } else { nil } }
    public var table: TOMLTable? { if case .table(let v) = content { v } else { nil } }

    /// `a string`, `an integer`, `a local date`…: for "expected X, got Y" messages.
    public var kindName: String {
        switch content {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .dateTime(let d): d.kindName
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// A TOML table: its keys in the order they were first written, each with the key's position.
public struct TOMLTable: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var key: String
        /// Where the key is first written (for a dotted key, where this part of it is).
        public var keyPosition: TOMLPosition
        public var value: TOMLValue
    }

    public private(set) var entries: [Entry] = []
    private var indexByKey: [String: Int] = [:]

    public init() {}

    init(entries: [Entry]) {
        self.entries = entries
        indexByKey.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { indexByKey[e.key] = i }
    }

    public subscript(key: String) -> TOMLValue? { entry(key)?.value }

    public func entry(_ key: String) -> Entry? { indexByKey[key].map { entries[$0] } }

    /// Keys in the order they were first written.
    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    public static func == (a: TOMLTable, b: TOMLTable) -> Bool { a.entries == b.entries }
}

/// Why a text is not a TOML document: where, what kind of mistake, and a message that tells the
/// person editing the file what to change.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Something other than what the grammar allows here (`expected … found …`).
        case unexpected
        case unterminatedString
        case unterminatedArray
        case unterminatedInlineTable
        case invalidEscape
        /// A control character (or a lone carriage return) where TOML forbids it.
        case controlCharacter
        case invalidNumber
        /// An integer outside the 64-bit signed range.
        case integerOverflow
        case invalidDateTime
        case duplicateKey
        /// A table or array of tables defined twice, or extended in a way TOML forbids.
        case redefinition
        /// Arrays, inline tables and dotted keys nested deeper than the parser's limit.
        case tooDeep
    }

    public var kind: Kind
    public var position: TOMLPosition
    public var message: String

    public init(_ kind: Kind, at position: TOMLPosition, _ message: String) {
        self.kind = kind
        self.position = position
        self.message = message
    }

    public var line: Int { position.line }
    public var column: Int { position.column }

    public var description: String { "\(position): \(message)" }

    /// What kind of mistake, in words that never quote the source: for files whose text is a
    /// secret (a password, a PIN hash), where `message` could show it.
    public var summary: String {
        switch kind {
        case .unexpected: return "something TOML does not allow there (a string needs quotes)"
        case .unterminatedString: return "a string that is not closed"
        case .unterminatedArray: return "an array that is not closed"
        case .unterminatedInlineTable: return "an inline table that is not closed"
        case .invalidEscape: return "an escape that TOML does not know"
        case .controlCharacter: return "a control character"
        case .invalidNumber: return "a number that is not valid"
        case .integerOverflow: return "an integer outside the 64-bit range"
        case .invalidDateTime: return "a date or time that is not valid"
        case .duplicateKey: return "a key written twice"
        case .redefinition: return "a table defined twice"
        case .tooDeep: return "values nested too deeply"
        }
    }
}
