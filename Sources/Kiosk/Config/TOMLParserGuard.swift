/// Finds the inputs that make toml++ 3.4.0 (inside TOMLKit 0.6.0) fail an assertion instead of
/// reporting an error (debug builds abort; release builds `__builtin_assume` the condition, which
/// is undefined behaviour). Found by fuzzing the parser with libFuzzer:
/// - a table header whose first key starts with something that is neither a bare-key character
///   nor a quote (`[:]`, `[é]`, a lone `[` at the end of a line): the header parser calls
///   `parse_key()` without checking the character that `parse_key()` asserts;
/// - a `}` where an array expects a value (`a = [}`, `[1, }`): `parse_array()` calls
///   `parse_value()`, which asserts that the character is not a value terminator;
/// - a date followed by a space and a single digit (`a = 1979-05-27 7`): the value scanner looks
///   for a time after the space and asserts on the terminator after the digit.
/// Both are reported here, before parsing, the way the parser reports its own errors.
///
/// It follows TOML's lexical structure (strings of the four kinds, comments, open brackets) to
/// know where statements start and what encloses a character; on a valid prefix that structure is
/// exact, so it never flags a document the parser would accept, and it sees every header and
/// array the parser would reach.
enum TOMLParserGuard {
    struct Finding: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    static func check(_ text: String) -> Finding? {
        let s = Array(text.unicodeScalars)
        // toml++ skips a byte order mark (the file reader has already dropped one: a second one
        // reaches the parser and is skipped there too).
        let bom = s.first == "\u{FEFF}" ? 1 : 0
        var i = bom, line = 1, lineStart = bom
        var open: [Unicode.Scalar] = []  // unclosed `[` and `{`, innermost last
        var atStatementStart = true

        func column(_ index: Int) -> Int { index - lineStart + 1 }
        func isSpace(_ c: Unicode.Scalar) -> Bool { isHorizontalWhitespace(c) }
        func starts(_ marker: String, at index: Int) -> Bool {
            var k = index
            for m in marker.unicodeScalars {
                guard k < s.count, s[k] == m else { return false }
                k += 1
            }
            return true
        }

        while i < s.count {
            let c = s[i]
            if atStatementStart {
                if isSpace(c) { i += 1; continue }
                atStatementStart = false
                if c == "[" {
                    var k = i + 1
                    if k < s.count, s[k] == "[" { k += 1 }
                    while k < s.count, isSpace(s[k]) { k += 1 }
                    if k < s.count, !isKeyStart(s[k]), s[k] != "]" {
                        return Finding(line: line, column: column(k),
                                       message: "Error while parsing table header: expected a bare key or a quoted key, saw \(shown(s[k]))")
                    }
                }
            }
            switch c {
            case "\n":
                line += 1
                lineStart = i + 1
                if open.isEmpty { atStatementStart = true }
                i += 1
            case "#":
                while i < s.count, s[i] != "\n" { i += 1 }
            case "[", "{":
                open.append(c)
                i += 1
            case "}" where open.last == "[":
                return Finding(line: line, column: column(i), message: "Error while parsing array: expected a value or closing ']', saw '}'")
            case "]", "}":
                if !open.isEmpty { open.removeLast() }
                i += 1
            case "\"", "'":
                let triple = String(repeating: String(c), count: 3)
                if starts(triple, at: i) {
                    i += 3
                    // Multi-line string: ends at the first unescaped triple quote; up to two more
                    // quotes right before it belong to the content.
                    while i < s.count {
                        if c == "\"", s[i] == "\\" {
                            // An escape; a backslash at the end of a line joins the next one.
                            if i + 1 < s.count, s[i + 1] == "\n" { line += 1; lineStart = i + 2 }
                            i += 2
                            continue
                        }
                        if starts(triple, at: i) {
                            i += 3
                            var extra = 0
                            while extra < 2, i < s.count, s[i] == c { i += 1; extra += 1 }
                            break
                        }
                        if s[i] == "\n" { line += 1; lineStart = i + 1 }
                        i += 1
                    }
                } else {
                    i += 1
                    while i < s.count, s[i] != c, s[i] != "\n" {
                        i += (c == "\"" && s[i] == "\\") ? 2 : 1
                    }
                    if i < s.count, s[i] == c { i += 1 }
                }
            default:
                if c.properties.numericType == .decimal, c.isASCII, i == 0 || isTokenBoundary(s[i - 1]),
                   let message = dateFollowedByLoneDigit(s, from: i) {
                    return Finding(line: line, column: column(i), message: message)
                }
                i += 1
            }
        }
        return nil
    }

    static func isTokenBoundary(_ c: Unicode.Scalar) -> Bool {
        isValueTerminator(c) || c == "=" || c == "[" || c == "{"
    }

    /// toml++'s horizontal whitespace: space, tab, and the Unicode spaces it accepts too.
    static func isHorizontalWhitespace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x180E, 0x2000...0x200B, 0x202F, 0x205F...0x2060, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// toml++'s `is_value_terminator`: whitespace of either kind, `]`, `}`, `,` and `#`.
    static func isValueTerminator(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0A...0x0D, 0x85, 0x2028...0x2029: return true
        case 0x5D, 0x7D, 0x2C, 0x23: return true
        default: return isHorizontalWhitespace(c)
        }
    }

    /// The toml++ assertion's trigger: ten characters (underscores aside) with `-` 5th and 8th,
    /// a space, one digit, then a terminator. Never valid TOML, so flagging it is always right.
    private static func dateFollowedByLoneDigit(_ s: [Unicode.Scalar], from start: Int) -> String? {
        var j = start
        var chars: [Unicode.Scalar] = []
        while j < s.count, !isValueTerminator(s[j]), chars.count <= 10 {
            if s[j] != "_" { chars.append(s[j]) }
            j += 1
        }
        guard chars.count == 10, chars[4] == "-", chars[7] == "-", j + 2 < s.count, s[j] == " ",
              s[j + 1].isASCII, s[j + 1].properties.numericType == .decimal, isValueTerminator(s[j + 2]) else { return nil }
        return "Error while parsing value: after a date and a space comes a time (HH:MM:SS), saw '\(s[j + 1])'"
    }

    /// What toml++ accepts as the start of a key without TOML_LANG_UNRELEASED.
    static func isKeyStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_" || c == "-" || c == "\"" || c == "'"
    }

    static func shown(_ c: Unicode.Scalar) -> String {
        switch c {
        case "\n": return "a line break"
        case "\r": return "a carriage return"
        default: return c.value < 0x20 || c.value == 0x7F ? "control character U+\(String(c.value, radix: 16, uppercase: true))" : "'\(c)'"
        }
    }
}
