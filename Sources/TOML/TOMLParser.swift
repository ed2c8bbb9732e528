extension TOMLTable {
    /// The deepest nesting the parser accepts: tables, arrays and inline tables inside each other
    /// (each dotted key part counts as a table). Deeper input is an error, so that neither the
    /// parser nor code that walks the tree can exhaust the stack on hostile input.
    public static let defaultMaximumDepth = 64

    /// Parses a TOML 1.0 document. Runs in time linear in the text's length; recursion is bounded
    /// by `maximumDepth`.
    public init(parsing text: String, maximumDepth: Int = TOMLTable.defaultMaximumDepth) throws(TOMLError) {
        var parser = TOMLParser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
        self = try parser.parseDocument()
    }
}

/// A table under construction. Reference semantics let headers and dotted keys reach into nested
/// tables without copying; `frozen()` turns the finished tree into values.
private final class TableNode {
    /// How the table came to exist decides what may define or extend it later (TOML 1.0 §Table).
    enum Origin {
        case root
        /// Created as a parent by a header such as `[a.b]`: `[a]` may still define it, once.
        case implicit
        /// Defined by its own `[header]`, or an element of an array of tables.
        case header
        /// Created by a dotted key: only further dotted keys of the same table may add to it.
        case dotted
        /// `{ … }`: complete once closed.
        case inline
    }

    var origin: Origin
    var position: TOMLPosition
    let depth: Int
    var keys: [String] = []
    var children: [String: Child] = [:]

    init(origin: Origin, position: TOMLPosition, depth: Int) {
        self.origin = origin
        self.position = position
        self.depth = depth
    }

    func add(_ key: String, at position: TOMLPosition, _ node: Node) {
        keys.append(key)
        children[key] = Child(keyPosition: position, node: node)
    }

    func frozen() -> TOMLTable {
        TOMLTable(entries: keys.map { key in
            let child = children[key]!
            return TOMLTable.Entry(key: key, keyPosition: child.keyPosition, value: child.node.frozen())
        })
    }
}

private final class TableArrayNode {
    let position: TOMLPosition
    var elements: [TableNode] = []

    init(position: TOMLPosition) { self.position = position }
}

private struct Child {
    var keyPosition: TOMLPosition
    var node: Node
}

private enum Node {
    /// A finished value: scalars, arrays written with `[ ]`, inline tables.
    case value(TOMLValue)
    case table(TableNode)
    case tableArray(TableArrayNode)

    func frozen() -> TOMLValue {
        switch self {
        case .value(let v): v
        case .table(let t): TOMLValue(.table(t.frozen()), at: t.position)
        case .tableArray(let a): TOMLValue(.array(a.elements.map { TOMLValue(.table($0.frozen()), at: $0.position) }), at: a.position)
        }
    }
}

/// One part of a (possibly dotted) key, with where it is written.
private struct KeyPart {
    var name: String
    var position: TOMLPosition
}

/// The bytes TOML's grammar names, and its classes of bytes.
enum ASCII {
    static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
    static let hash = UInt8(ascii: "#"), equals = UInt8(ascii: "="), dot = UInt8(ascii: "."), comma = UInt8(ascii: ",")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let underscore = UInt8(ascii: "_"), plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-"), colon = UInt8(ascii: ":")

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
    static func isLetter(_ b: UInt8) -> Bool { b | 0x20 >= 0x61 && b | 0x20 <= 0x7A }
    static func isBareKey(_ b: UInt8) -> Bool { isLetter(b) || isDigit(b) || b == underscore || b == minus }
    /// Characters that can make up numbers, booleans, inf/nan and date-times.
    static func isValueToken(_ b: UInt8) -> Bool { isBareKey(b) || b == plus || b == dot || b == colon }
    /// Control characters TOML forbids in strings and comments (tab is allowed).
    static func isForbiddenControl(_ b: UInt8) -> Bool { (b < 0x20 && b != tab) || b == 0x7F }
}

/// A recursive-descent parser over UTF-8 bytes (already valid: they come from a `String`).
private struct TOMLParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var line = 1
    var column = 1

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    // MARK: Cursor

    var position: TOMLPosition { TOMLPosition(line: line, column: column) }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    mutating func advance() {
        let b = bytes[index]
        index += 1
        if b == ASCII.lf {
            line += 1
            column = 1
        } else if b & 0xC0 != 0x80 {
            column += 1
        }
    }

    mutating func advance(_ n: Int) { for _ in 0..<n { advance() } }

    mutating func consume(_ b: UInt8) -> Bool {
        guard current == b else { return false }
        advance()
        return true
    }

    func starts(with marker: [UInt8]) -> Bool {
        index + marker.count <= bytes.count && bytes[index..<index + marker.count].elementsEqual(marker)
    }

    mutating func skipSpaces() {
        while let b = current, b == ASCII.space || b == ASCII.tab { advance() }
    }

    /// Consumes a line break (LF or CRLF) if there is one.
    mutating func consumeNewline() throws(TOMLError) -> Bool {
        if current == ASCII.lf { advance(); return true }
        if current == ASCII.cr {
            guard peek(1) == ASCII.lf else {
                throw TOMLError(.controlCharacter, at: position, "a carriage return must be followed by a line feed")
            }
            advance(2)
            return true
        }
        return false
    }

    mutating func skipComment() throws(TOMLError) {
        guard current == ASCII.hash else { return }
        while let b = current, b != ASCII.lf {
            if b == ASCII.cr, peek(1) == ASCII.lf { return }
            if ASCII.isForbiddenControl(b) {
                throw TOMLError(.controlCharacter, at: position, "\(describe(b)) is not allowed in a comment")
            }
            advance()
        }
    }

    /// Spaces, comments and line breaks, as allowed between array elements.
    mutating func skipTrivia() throws(TOMLError) {
        while true {
            skipSpaces()
            if current == ASCII.hash { try skipComment() }
            if try !consumeNewline() { return }
        }
    }

    /// After a statement: spaces, an optional comment, then a line break or the end of the file.
    mutating func expectLineEnd(after what: @autoclosure () -> String) throws(TOMLError) {
        skipSpaces()
        try skipComment()
        if current == nil { return }
        if try consumeNewline() { return }
        throw unexpected("the end of the line after \(what())")
    }

    /// What is at the cursor, as a message names it: `` `x` ``, `the end of the line`, `U+0001`.
    func describeCurrent() -> String {
        guard let b = current else { return "the end of the file" }
        if b < 0x80 { return describe(b) }
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let s) = decoder.decode(&iterator) {
            return s.properties.generalCategory == .control || s.properties.isWhitespace
                ? "U+" + String(s.value, radix: 16, uppercase: true) : "`\(Character(s))`"
        }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    func describe(_ b: UInt8) -> String {
        switch b {
        case ASCII.lf, ASCII.cr: return "the end of the line"
        case ASCII.space: return "a space"
        case ASCII.tab: return "a tab"
        case _ where b < 0x20 || b == 0x7F:
            let hex = String(b, radix: 16, uppercase: true)
            return "control character U+" + String(repeating: "0", count: 4 - hex.count) + hex
        default: return "`\(Character(Unicode.Scalar(b)))`"
        }
    }

    func unexpected(_ expected: String) -> TOMLError {
        TOMLError(.unexpected, at: position, "expected \(expected), found \(describeCurrent())")
    }

    func tooDeep() -> TOMLError {
        TOMLError(.tooDeep, at: position, "nested deeper than \(maximumDepth) levels (tables, arrays and dotted keys inside each other)")
    }

    // MARK: Document

    mutating func parseDocument() throws(TOMLError) -> TOMLTable {
        if starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a byte order mark; columns start after it
        let root = TableNode(origin: .root, position: TOMLPosition(line: 1, column: 1), depth: 0)
        var table = root
        while true {
            skipSpaces()
            guard let b = current else { break }
            if b == ASCII.hash {
                try skipComment()
            } else if try consumeNewline() {
                continue
            } else if b == ASCII.openBracket {
                table = try parseHeader(root: root)
            } else {
                guard ASCII.isBareKey(b) || b == ASCII.quote || b == ASCII.apostrophe else {
                    throw unexpected("a key or a [table] header")
                }
                let key = try parseKeyValue(into: table)
                try expectLineEnd(after: "the value of `\(key)`")
            }
        }
        return root.frozen()
    }

    /// `key = value` (the key may be dotted); returns the key as written, for messages.
    mutating func parseKeyValue(into table: TableNode) throws(TOMLError) -> String {
        let parts = try parseKey(expected: "a key")
        let name = dotted(parts)
        skipSpaces()
        guard consume(ASCII.equals) else { throw unexpected("`=` after the key `\(name)`") }
        skipSpaces()
        let value = try parseValue(depth: table.depth + parts.count, for: name)
        try insert(value, at: parts, into: table)
        return name
    }

    /// Puts `value` at the (dotted) key `parts` of `table`, creating the dotted tables on the way.
    mutating func insert(_ value: TOMLValue, at parts: [KeyPart], into table: TableNode) throws(TOMLError) {
        var target = table
        for (i, part) in parts.dropLast().enumerated() {
            let written = dotted(parts[...i])
            if let existing = target.children[part.name] {
                switch existing.node {
                case .table(let t) where t.origin == .dotted:
                    target = t
                case .table(let t):
                    throw TOMLError(.redefinition, at: part.position,
                                    "cannot add keys to `\(written)` with a dotted key: it is a table defined at line \(t.position.line)")
                case .tableArray(let a):
                    throw TOMLError(.redefinition, at: part.position,
                                    "cannot add keys to `\(written)` with a dotted key: it is an array of tables (line \(a.position.line))")
                case .value(let v):
                    throw TOMLError(.redefinition, at: part.position,
                                    "`\(written)` is already \(v.kindName) (line \(existing.keyPosition.line)), so it cannot have keys")
                }
            } else {
                target = try addTable(part, origin: .dotted, definedAt: part.position, to: target)
            }
        }
        let last = parts[parts.count - 1]
        if let existing = target.children[last.name] {
            throw TOMLError(.duplicateKey, at: last.position,
                            "duplicate key `\(dotted(parts))` (first defined at line \(existing.keyPosition.line))")
        }
        target.add(last.name, at: last.position, .value(value))
    }

    /// `[a.b]` or `[[a.b]]`: returns the table that the following keys go into.
    mutating func parseHeader(root: TableNode) throws(TOMLError) -> TableNode {
        let start = position
        advance()
        let isArray = consume(ASCII.openBracket)
        skipSpaces()
        let parts = try parseKey(expected: isArray ? "a table name after `[[`" : "a table name after `[`")
        let name = dotted(parts)
        skipSpaces()
        if isArray {
            guard starts(with: [ASCII.closeBracket, ASCII.closeBracket]) else { throw unexpected("`]]` to close `[[\(name)`") }
            advance(2)
        } else {
            guard consume(ASCII.closeBracket) else { throw unexpected("`]` to close `[\(name)`") }
        }
        try expectLineEnd(after: isArray ? "`[[\(name)]]`" : "`[\(name)]`")

        var table = root
        for (i, part) in parts.dropLast().enumerated() {
            if let existing = table.children[part.name] {
                switch existing.node {
                case .table(let t): table = t
                case .tableArray(let a): table = a.elements[a.elements.count - 1]
                case .value(let v):
                    let written = dotted(parts[...i])
                    throw TOMLError(.redefinition, at: part.position, v.table != nil
                        ? "`\(written)` is an inline table (line \(existing.keyPosition.line)), which cannot be extended"
                        : "`\(written)` is already \(v.kindName) (line \(existing.keyPosition.line)), so it cannot have tables")
                }
            } else {
                table = try addTable(part, origin: .implicit, definedAt: part.position, to: table)
            }
        }
        let last = parts[parts.count - 1]
        let existing = table.children[last.name]
        if isArray {
            let array: TableArrayNode
            switch existing?.node {
            case nil:
                array = TableArrayNode(position: start)
                table.add(last.name, at: last.position, .tableArray(array))
            case .tableArray(let a):
                array = a
            case .table(let t):
                throw TOMLError(.redefinition, at: start, "`\(name)` is a table (line \(t.position.line)), not an array of tables")
            case .value(let v):
                throw TOMLError(.redefinition, at: start, v.array != nil
                    ? "cannot add to `\(name)` with [[\(name)]]: it is an array written with [ ] at line \(existing!.keyPosition.line)"
                    : "`\(name)` is already \(v.kindName) (line \(existing!.keyPosition.line))")
            }
            let element = TableNode(origin: .header, position: start, depth: table.depth + 2)
            guard element.depth <= maximumDepth else { throw tooDeep() }
            array.elements.append(element)
            return element
        }
        switch existing?.node {
        case nil:
            return try addTable(last, origin: .header, definedAt: start, to: table)
        case .table(let t):
            switch t.origin {
            case .implicit:
                t.origin = .header
                t.position = start
                return t
            case .dotted:
                throw TOMLError(.redefinition, at: start, "the table `\(name)` is already defined by the dotted key at line \(t.position.line)")
            default:
                throw TOMLError(.redefinition, at: start, "the table `\(name)` is already defined at line \(t.position.line)")
            }
        case .tableArray(let a):
            throw TOMLError(.redefinition, at: start,
                            "`\(name)` is an array of tables (line \(a.position.line)); add to it with [[\(name)]]")
        case .value(let v):
            throw TOMLError(.redefinition, at: start, "`\(name)` is already \(v.kindName) (line \(existing!.keyPosition.line))")
        }
    }

    /// Adds the new table `key` to `parent`, one level deeper, unless that passes `maximumDepth`.
    /// `position` is where the table is defined: its header's `[`, else the key that made it.
    func addTable(_ key: KeyPart, origin: TableNode.Origin, definedAt position: TOMLPosition,
                  to parent: TableNode) throws(TOMLError) -> TableNode {
        let table = TableNode(origin: origin, position: position, depth: parent.depth + 1)
        guard table.depth <= maximumDepth else { throw tooDeep() }
        parent.add(key.name, at: key.position, .table(table))
        return table
    }

    // MARK: Keys

    mutating func parseKey(expected: String) throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        repeat {
            skipSpaces()
            guard parts.count < maximumDepth else { throw tooDeep() }
            parts.append(try parseSimpleKey(expected: parts.isEmpty ? expected : "a key after `.`"))
            skipSpaces()
        } while consume(ASCII.dot)
        return parts
    }

    mutating func parseSimpleKey(expected: String) throws(TOMLError) -> KeyPart {
        let start = position
        switch current {
        case ASCII.quote?:
            if starts(with: [ASCII.quote, ASCII.quote, ASCII.quote]) {
                throw TOMLError(.unexpected, at: start, "a key cannot be a multi-line string")
            }
            return KeyPart(name: try parseBasicString(), position: start)
        case ASCII.apostrophe?:
            if starts(with: [ASCII.apostrophe, ASCII.apostrophe, ASCII.apostrophe]) {
                throw TOMLError(.unexpected, at: start, "a key cannot be a multi-line string")
            }
            return KeyPart(name: try parseLiteralString(), position: start)
        case let b? where ASCII.isBareKey(b):
            let from = index
            while let c = current, ASCII.isBareKey(c) { advance() }
            return KeyPart(name: String(decoding: bytes[from..<index], as: UTF8.self), position: start)
        default:
            throw unexpected(expected)
        }
    }

    /// The key as TOML would write it: bare parts as they are, others quoted.
    func dotted<C: Collection<KeyPart>>(_ parts: C) -> String {
        parts.map { TOMLSyntax.key($0.name) }.joined(separator: ".")
    }

    // MARK: Values

    /// A value whose container depth is `depth`; `key` names it in messages.
    mutating func parseValue(depth: Int, for key: String) throws(TOMLError) -> TOMLValue {
        guard depth <= maximumDepth else { throw tooDeep() }
        let start = position
        switch current {
        case nil, ASCII.lf?, ASCII.cr?, ASCII.hash?:
            throw unexpected("a value for `\(key)`")
        case ASCII.quote?:
            let s = starts(with: [ASCII.quote, ASCII.quote, ASCII.quote]) ? try parseMultilineString(ASCII.quote) : try parseBasicString()
            return TOMLValue(.string(s), at: start)
        case ASCII.apostrophe?:
            let s = starts(with: [ASCII.apostrophe, ASCII.apostrophe, ASCII.apostrophe])
                ? try parseMultilineString(ASCII.apostrophe) : try parseLiteralString()
            return TOMLValue(.string(s), at: start)
        case ASCII.openBracket?:
            return try parseArray(depth: depth, for: key)
        case ASCII.openBrace?:
            return try parseInlineTable(depth: depth, for: key)
        case let b? where ASCII.isValueToken(b):
            return TOMLValue(try parseScalarToken(for: key), at: start)
        default:
            throw unexpected("a value for `\(key)`")
        }
    }

    /// Numbers, booleans, inf/nan and date-times: a run of token characters, plus one space
    /// between a date and a time.
    mutating func parseScalarToken(for key: String) throws(TOMLError) -> TOMLValue.Content {
        let start = position
        let from = index
        while let b = current, ASCII.isValueToken(b) { advance() }
        // `1979-05-27 07:32:00`: a date, one space, then a time.
        if index - from == 10, bytes[from + 4] == ASCII.minus, bytes[from + 7] == ASCII.minus, current == ASCII.space,
           let h1 = peek(1), let h2 = peek(2), ASCII.isDigit(h1), ASCII.isDigit(h2), peek(3) == ASCII.colon {
            advance()
            while let b = current, ASCII.isValueToken(b) { advance() }
        }
        let token = Array(bytes[from..<index])
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        let looksLikeDateTime = token.contains(ASCII.colon) || (token.count >= 5 && token[4] == ASCII.minus && token[..<4].allSatisfy(ASCII.isDigit))
        if looksLikeDateTime {
            switch TOMLDateTime.parse(token) {
            case .success(let d): return .dateTime(d)
            case .failure(.shape):
                throw TOMLError(.invalidDateTime, at: start,
                                "`\(text)` is not a valid date or time (expected 1979-05-27, 07:32:00 or 1979-05-27T07:32:00Z)")
            case .failure(.range(let reason)):
                throw TOMLError(.invalidDateTime, at: start, "`\(text)` is not a valid date or time: \(reason)")
            }
        }
        let first = token[0]
        if ASCII.isDigit(first) || first == ASCII.dot || ((first == ASCII.plus || first == ASCII.minus) && token.count > 1) {
            return try parseNumber(token, text: text, at: start)
        }
        throw TOMLError(.unexpected, at: start, "`\(text)` is not a value for `\(key)`; a string needs quotes: \(TOMLSyntax.quoted(text))")
    }

    func parseNumber(_ token: [UInt8], text: String, at start: TOMLPosition) throws(TOMLError) -> TOMLValue.Content {
        func invalid(_ why: String) -> TOMLError { TOMLError(.invalidNumber, at: start, "`\(text)` is not a valid number: \(why)") }
        func overflow() -> TOMLError {
            TOMLError(.integerOverflow, at: start, "`\(text)` is out of range: TOML integers are 64-bit (-9223372036854775808 to 9223372036854775807)")
        }
        /// Digits with single underscores between them.
        func validDigits(_ s: ArraySlice<UInt8>, _ isDigit: (UInt8) -> Bool) -> Bool {
            guard let f = s.first, let l = s.last, isDigit(f), isDigit(l) else { return false }
            var previousUnderscore = false
            for b in s {
                if b == ASCII.underscore {
                    if previousUnderscore { return false }
                    previousUnderscore = true
                } else if isDigit(b) {
                    previousUnderscore = false
                } else {
                    return false
                }
            }
            return true
        }
        var body = token[...]
        let negative = body.first == ASCII.minus
        let signed = body.first == ASCII.plus || negative
        if signed { body = body.dropFirst() }

        if body.count >= 2, body[body.startIndex] == UInt8(ascii: "0"), let radixLetter = Optional(body[body.startIndex + 1]),
           radixLetter == UInt8(ascii: "x") || radixLetter == UInt8(ascii: "o") || radixLetter == UInt8(ascii: "b") {
            let (radix, name): (UInt64, String) = radixLetter == UInt8(ascii: "x") ? (16, "hexadecimal")
                : radixLetter == UInt8(ascii: "o") ? (8, "octal") : (2, "binary")
            guard !signed else { throw invalid("a \(name) number cannot have a sign") }
            let digits = body.dropFirst(2)
            let isDigit: (UInt8) -> Bool
            switch radix {
            case 16: isDigit = ASCII.isHexDigit
            case 8: isDigit = { (b: UInt8) -> Bool in b >= 0x30 && b <= 0x37 }
            default: isDigit = { (b: UInt8) -> Bool in b == 0x30 || b == 0x31 }
            }
            guard validDigits(digits, isDigit) else { throw invalid("expected \(name) digits, with single underscores only between them") }
            var value: UInt64 = 0
            for b in digits where b != ASCII.underscore {
                let digit: UInt64 = ASCII.isDigit(b) ? UInt64(b - 0x30) : UInt64((b | 0x20) - 0x61) + 10
                let (shifted, o1) = value.multipliedReportingOverflow(by: radix)
                let (sum, o2) = shifted.addingReportingOverflow(digit)
                guard !o1, !o2, sum <= UInt64(Int64.max) else { throw overflow() }
                value = sum
            }
            return .integer(Int64(value))
        }

        // Decimal: integer part, optional fraction, optional exponent.
        let exponentAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentAt ?? body.endIndex)]
        let dotAt = mantissa.firstIndex(of: ASCII.dot)
        let integerPart = mantissa[..<(dotAt ?? mantissa.endIndex)]
        guard validDigits(integerPart, ASCII.isDigit) else {
            throw invalid("expected digits, with single underscores only between them")
        }
        if integerPart.count > 1, integerPart.first == UInt8(ascii: "0") { throw invalid("leading zeros are not allowed") }
        if let dotAt {
            guard validDigits(mantissa[(dotAt + 1)...], ASCII.isDigit) else { throw invalid("expected digits after the decimal point") }
        }
        if let exponentAt {
            var exponent = body[(exponentAt + 1)...]
            if exponent.first == ASCII.plus || exponent.first == ASCII.minus { exponent = exponent.dropFirst() }
            guard validDigits(exponent, ASCII.isDigit) else { throw invalid("expected digits after the exponent's `e`") }
        }
        if dotAt == nil, exponentAt == nil {
            var magnitude: UInt64 = 0
            for b in integerPart where b != ASCII.underscore {
                let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = shifted.addingReportingOverflow(UInt64(b - 0x30))
                guard !o1, !o2 else { throw overflow() }
                magnitude = sum
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw overflow() }
                return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
            guard magnitude <= UInt64(Int64.max) else { throw overflow() }
            return .integer(Int64(magnitude))
        }
        let plain = String(decoding: token.filter { $0 != ASCII.underscore }, as: UTF8.self)
        guard let value = Double(plain) else { throw invalid("not representable as a float") }
        return .float(value)
    }

    // MARK: Strings

    /// At the opening quote: that is where the author has to look.
    func unterminated(_ start: TOMLPosition, _ delimiter: String, multiline: Bool = false) -> TOMLError {
        TOMLError(.unterminatedString, at: start, multiline
            ? "unterminated multi-line string: no closing \(delimiter) before the end of the file"
            : "unterminated string: no closing \(delimiter) on this line")
    }

    /// `"…"` with escapes, on one line.
    mutating func parseBasicString() throws(TOMLError) -> String {
        let start = position
        advance()
        var out: [UInt8] = []
        while true {
            guard let b = current, b != ASCII.lf, b != ASCII.cr else { throw unterminated(start, "`\"`") }
            if b == ASCII.quote {
                advance()
                return String(decoding: out, as: UTF8.self)
            }
            if b == ASCII.backslash {
                try parseEscape(into: &out)
            } else {
                guard !ASCII.isForbiddenControl(b) else { throw controlCharacterInString(b) }
                out.append(b)
                advance()
            }
        }
    }

    /// `'…'`: no escapes, one line.
    mutating func parseLiteralString() throws(TOMLError) -> String {
        let start = position
        advance()
        let from = index
        while true {
            guard let b = current, b != ASCII.lf, b != ASCII.cr else { throw unterminated(start, "`'`") }
            if b == ASCII.apostrophe {
                let s = String(decoding: bytes[from..<index], as: UTF8.self)
                advance()
                return s
            }
            guard !ASCII.isForbiddenControl(b) else { throw controlCharacterInString(b) }
            advance()
        }
    }

    /// `"""…"""` (with escapes and line-ending backslashes) or `'''…'''`. A line break right after
    /// the opening quotes is dropped; CRLF becomes LF; one or two quotes may precede the closing three.
    mutating func parseMultilineString(_ quote: UInt8) throws(TOMLError) -> String {
        let start = position
        let delimiter = quote == ASCII.quote ? "`\"\"\"`" : "`'''`"
        advance(3)
        _ = try consumeNewline()
        var out: [UInt8] = []
        while true {
            guard let b = current else { throw unterminated(start, delimiter, multiline: true) }
            if b == quote {
                var run = 0
                while peek(run) == quote { run += 1 }
                if run >= 3 {
                    guard run <= 5 else {
                        throw TOMLError(.unexpected, at: position, "too many quotes: at most two may come before the closing \(delimiter)")
                    }
                    out.append(contentsOf: repeatElement(quote, count: run - 3))
                    advance(run)
                    return String(decoding: out, as: UTF8.self)
                }
                out.append(contentsOf: repeatElement(quote, count: run))
                advance(run)
            } else if b == ASCII.backslash, quote == ASCII.quote {
                // A backslash that ends a line (spaces may follow it) removes the break and the
                // whitespace up to the next text.
                var k = 1
                while let c = peek(k), c == ASCII.space || c == ASCII.tab { k += 1 }
                if peek(k) == ASCII.lf || (peek(k) == ASCII.cr && peek(k + 1) == ASCII.lf) {
                    advance(k)
                    while true {
                        skipSpaces()
                        if try !consumeNewline() { break }
                    }
                } else {
                    try parseEscape(into: &out)
                }
            } else if try consumeNewline() {
                out.append(ASCII.lf)
            } else {
                guard !ASCII.isForbiddenControl(b) else { throw controlCharacterInString(b) }
                out.append(b)
                advance()
            }
        }
    }

    func controlCharacterInString(_ b: UInt8) -> TOMLError {
        let hex = String(b, radix: 16, uppercase: true)
        let code = String(repeating: "0", count: 4 - hex.count) + hex
        return TOMLError(.controlCharacter, at: position, b == ASCII.cr
            ? "a carriage return must be followed by a line feed"
            : "control character U+\(code) is not allowed in a string; write it as \\u\(code)")
    }

    /// At a backslash: appends the escaped character's UTF-8 bytes.
    mutating func parseEscape(into out: inout [UInt8]) throws(TOMLError) {
        let start = position
        advance()
        let simple: UInt8?
        switch current {
        case UInt8(ascii: "b")?: simple = 0x08
        case UInt8(ascii: "t")?: simple = 0x09
        case UInt8(ascii: "n")?: simple = 0x0A
        case UInt8(ascii: "f")?: simple = 0x0C
        case UInt8(ascii: "r")?: simple = 0x0D
        case ASCII.quote?: simple = ASCII.quote
        case ASCII.backslash?: simple = ASCII.backslash
        case UInt8(ascii: "u")?, UInt8(ascii: "U")?:
            let count = current == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for k in 1...count {
                guard let h = peek(k), ASCII.isHexDigit(h) else {
                    throw TOMLError(.invalidEscape, at: start, "`\\\(count == 4 ? "u" : "U")` needs \(count) hexadecimal digits")
                }
                let nibble: UInt32 = ASCII.isDigit(h) ? UInt32(h - 0x30) : UInt32((h | 0x20) - 0x61) + 10
                value = value << 4 | nibble
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw TOMLError(.invalidEscape, at: start, "U+\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value")
            }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            advance(count + 1)
            return
        default:
            simple = nil
        }
        guard let simple else {
            let shown = current.map { $0 < 0x80 && $0 >= 0x20 ? "`\\\(Character(Unicode.Scalar($0)))`" : "a backslash before \(describeCurrent())" }
                ?? "a backslash at the end of the file"
            throw TOMLError(.invalidEscape, at: start, "invalid escape \(shown); write `\\\\` for a backslash")
        }
        out.append(simple)
        advance()
    }

    // MARK: Arrays and inline tables

    mutating func parseArray(depth: Int, for key: String) throws(TOMLError) -> TOMLValue {
        let start = position
        advance()
        var elements: [TOMLValue] = []
        while true {
            try skipTrivia()
            guard current != nil else { throw TOMLError(.unterminatedArray, at: start, "unterminated array: no `]` closes this `[`") }
            if consume(ASCII.closeBracket) { break }
            elements.append(try parseValue(depth: depth + 1, for: "\(key)[\(elements.count)]"))
            try skipTrivia()
            if consume(ASCII.comma) { continue }
            if consume(ASCII.closeBracket) { break }
            if current == nil { throw TOMLError(.unterminatedArray, at: start, "unterminated array: no `]` closes this `[`") }
            throw unexpected("`,` or `]` after an element of the array `\(key)`")
        }
        return TOMLValue(.array(elements), at: start)
    }

    mutating func parseInlineTable(depth: Int, for key: String) throws(TOMLError) -> TOMLValue {
        let start = position
        advance()
        let table = TableNode(origin: .inline, position: start, depth: depth)
        skipSpaces()
        if !consume(ASCII.closeBrace) {
            while true {
                skipSpaces()
                if current == ASCII.lf || current == ASCII.cr {
                    throw TOMLError(.unexpected, at: position, "an inline table must be on one line: no `}` before the end of the line for the `{` at \(start)")
                }
                if current == nil {
                    throw TOMLError(.unterminatedInlineTable, at: start, "unterminated inline table: no `}` closes this `{`")
                }
                _ = try parseKeyValue(into: table)
                skipSpaces()
                if consume(ASCII.closeBrace) { break }
                if consume(ASCII.comma) {
                    skipSpaces()
                    if current == ASCII.closeBrace {
                        throw TOMLError(.unexpected, at: position, "an inline table cannot end with a comma")
                    }
                    continue
                }
                if current == nil {
                    throw TOMLError(.unterminatedInlineTable, at: start, "unterminated inline table: no `}` closes this `{`")
                }
                throw unexpected("`,` or `}` in the inline table `\(key)`")
            }
        }
        return TOMLValue(.table(table.frozen()), at: start)
    }
}
