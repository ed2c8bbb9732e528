import Testing
import TOML

/// Every class of error, with the position a person would look at and a message that says what
/// to change.
@Suite struct TOMLErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var kind: TOMLError.Kind
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { text.debugDescription }
    }

    static let cases: [Case] = [
        // Statements
        Case(text: "label \"x\"", kind: .unexpected, line: 1, column: 7, message: "expected `=` after the key `label`, found `\"`"),
        Case(text: "a = 1 2", kind: .unexpected, line: 1, column: 7, message: "expected the end of the line after the value of `a`, found `2`"),
        Case(text: "a =\nb = 1", kind: .unexpected, line: 1, column: 4, message: "expected a value for `a`, found the end of the line"),
        Case(text: "a = # c", kind: .unexpected, line: 1, column: 5, message: "expected a value for `a`, found `#`"),
        Case(text: "style = arc", kind: .unexpected, line: 1, column: 9, message: "`arc` is not a value for `style`; a string needs quotes: \"arc\""),
        Case(text: "= 1", kind: .unexpected, line: 1, column: 1, message: "expected a key or a [table] header, found `=`"),
        Case(text: "a.= 1", kind: .unexpected, line: 1, column: 3, message: "expected a key after `.`, found `=`"),
        Case(text: "\"\"\"k\"\"\" = 1", kind: .unexpected, line: 1, column: 1, message: "a key cannot be a multi-line string"),
        Case(text: "é = 1", kind: .unexpected, line: 1, column: 1, message: "expected a key or a [table] header, found `é`"),
        Case(text: "a = 1\r", kind: .controlCharacter, line: 1, column: 6, message: "a carriage return must be followed by a line feed"),
        Case(text: "# bell \u{7}\n", kind: .controlCharacter, line: 1, column: 8, message: "control character U+0007 is not allowed in a comment"),
        // Headers
        Case(text: "[a", kind: .unexpected, line: 1, column: 3, message: "expected `]` to close `[a`, found the end of the file"),
        Case(text: "[[a]\n", kind: .unexpected, line: 1, column: 4, message: "expected `]]` to close `[[a`, found `]`"),
        Case(text: "[]", kind: .unexpected, line: 1, column: 2, message: "expected a table name after `[`, found `]`"),
        Case(text: "[a] b = 1", kind: .unexpected, line: 1, column: 5, message: "expected the end of the line after `[a]`, found `b`"),
        // Strings
        Case(text: "s = \"abc\nt = 1", kind: .unterminatedString, line: 1, column: 5, message: "unterminated string: no closing `\"` on this line"),
        Case(text: "s = 'abc", kind: .unterminatedString, line: 1, column: 5, message: "unterminated string: no closing `'` on this line"),
        Case(text: "s = \"\"\"abc\n\n", kind: .unterminatedString, line: 1, column: 5, message: "unterminated multi-line string: no closing `\"\"\"` before the end of the file"),
        Case(text: "s = '''abc''''''", kind: .unexpected, line: 1, column: 11, message: "too many quotes: at most two may come before the closing `'''`"),
        Case(text: #"s = "a\qb""#, kind: .invalidEscape, line: 1, column: 7, message: "invalid escape `\\q`; write `\\\\` for a backslash"),
        Case(text: #"s = "\u12""#, kind: .invalidEscape, line: 1, column: 6, message: "`\\u` needs 4 hexadecimal digits"),
        Case(text: #"s = "\uD800""#, kind: .invalidEscape, line: 1, column: 6, message: "U+D800 is not a Unicode scalar value"),
        Case(text: #"s = "\U00110000""#, kind: .invalidEscape, line: 1, column: 6, message: "U+110000 is not a Unicode scalar value"),
        Case(text: "s = \"a\u{1}\"", kind: .controlCharacter, line: 1, column: 7, message: "control character U+0001 is not allowed in a string; write it as \\u0001"),
        Case(text: "s = '\u{7F}'", kind: .controlCharacter, line: 1, column: 6, message: "control character U+007F is not allowed in a string; write it as \\u007F"),
        // Numbers
        Case(text: "n = 9223372036854775808", kind: .integerOverflow, line: 1, column: 5,
             message: "`9223372036854775808` is out of range: TOML integers are 64-bit (-9223372036854775808 to 9223372036854775807)"),
        Case(text: "n = -9223372036854775809", kind: .integerOverflow, line: 1, column: 5,
             message: "`-9223372036854775809` is out of range: TOML integers are 64-bit (-9223372036854775808 to 9223372036854775807)"),
        Case(text: "n = 0x8000000000000000", kind: .integerOverflow, line: 1, column: 5,
             message: "`0x8000000000000000` is out of range: TOML integers are 64-bit (-9223372036854775808 to 9223372036854775807)"),
        Case(text: "n = 012", kind: .invalidNumber, line: 1, column: 5, message: "`012` is not a valid number: leading zeros are not allowed"),
        Case(text: "n = 1__2", kind: .invalidNumber, line: 1, column: 5, message: "`1__2` is not a valid number: expected digits, with single underscores only between them"),
        Case(text: "n = _1", kind: .unexpected, line: 1, column: 5, message: "`_1` is not a value for `n`; a string needs quotes: \"_1\""),
        Case(text: "n = 1_", kind: .invalidNumber, line: 1, column: 5, message: "`1_` is not a valid number: expected digits, with single underscores only between them"),
        Case(text: "n = +0x1", kind: .invalidNumber, line: 1, column: 5, message: "`+0x1` is not a valid number: a hexadecimal number cannot have a sign"),
        Case(text: "n = 0o8", kind: .invalidNumber, line: 1, column: 5, message: "`0o8` is not a valid number: expected octal digits, with single underscores only between them"),
        Case(text: "n = 1.", kind: .invalidNumber, line: 1, column: 5, message: "`1.` is not a valid number: expected digits after the decimal point"),
        Case(text: "n = .5", kind: .invalidNumber, line: 1, column: 5, message: "`.5` is not a valid number: expected digits, with single underscores only between them"),
        Case(text: "n = 1e", kind: .invalidNumber, line: 1, column: 5, message: "`1e` is not a valid number: expected digits after the exponent's `e`"),
        Case(text: "n = 1.e5", kind: .invalidNumber, line: 1, column: 5, message: "`1.e5` is not a valid number: expected digits after the decimal point"),
        Case(text: "n = 1_000.0_", kind: .invalidNumber, line: 1, column: 5, message: "`1_000.0_` is not a valid number: expected digits after the decimal point"),
        Case(text: "n = infinity", kind: .unexpected, line: 1, column: 5, message: "`infinity` is not a value for `n`; a string needs quotes: \"infinity\""),
        // Date-times
        Case(text: "d = 1979-13-27", kind: .invalidDateTime, line: 1, column: 5, message: "`1979-13-27` is not a valid date or time: month 13 is not 1 to 12"),
        Case(text: "d = 2001-02-29", kind: .invalidDateTime, line: 1, column: 5, message: "`2001-02-29` is not a valid date or time: day 29 does not exist in month 2 of 2001"),
        Case(text: "d = 24:00:00", kind: .invalidDateTime, line: 1, column: 5, message: "`24:00:00` is not a valid date or time: hour 24 is not 0 to 23"),
        Case(text: "d = 07:32", kind: .invalidDateTime, line: 1, column: 5,
             message: "`07:32` is not a valid date or time (expected 1979-05-27, 07:32:00 or 1979-05-27T07:32:00Z)"),
        Case(text: "d = 1979-05-27T07:32:00+25:00", kind: .invalidDateTime, line: 1, column: 5,
             message: "`1979-05-27T07:32:00+25:00` is not a valid date or time: offset 25:0 is not a valid time offset"),
        Case(text: "d = 1979-05-27 7", kind: .unexpected, line: 1, column: 16, message: "expected the end of the line after the value of `d`, found `7`"),
        // Arrays and inline tables
        Case(text: "a = [1, 2", kind: .unterminatedArray, line: 1, column: 5, message: "unterminated array: no `]` closes this `[`"),
        Case(text: "a = [1 2]", kind: .unexpected, line: 1, column: 8, message: "expected `,` or `]` after an element of the array `a`, found `2`"),
        Case(text: "a = [,]", kind: .unexpected, line: 1, column: 6, message: "expected a value for `a[0]`, found `,`"),
        Case(text: "a = [}", kind: .unexpected, line: 1, column: 6, message: "expected a value for `a[0]`, found `}`"),
        Case(text: "t = {a = 1", kind: .unterminatedInlineTable, line: 1, column: 5, message: "unterminated inline table: no `}` closes this `{`"),
        Case(text: "t = {a = 1,}", kind: .unexpected, line: 1, column: 12, message: "an inline table cannot end with a comma"),
        Case(text: "t = {a = 1\n}", kind: .unexpected, line: 1, column: 11, message: "expected `,` or `}` in the inline table `t`, found the end of the line"),
        Case(text: "t = {\na = 1}", kind: .unexpected, line: 1, column: 6,
             message: "an inline table must be on one line: no `}` before the end of the line for the `{` at 1:5"),
        Case(text: "t = {a = 1 b = 2}", kind: .unexpected, line: 1, column: 12, message: "expected `,` or `}` in the inline table `t`, found `b`"),
        // Duplicates and redefinitions
        Case(text: "style = 1\nx = 2\nstyle = 3", kind: .duplicateKey, line: 3, column: 1, message: "duplicate key `style` (first defined at line 1)"),
        Case(text: "a.b = 1\na.b = 2", kind: .duplicateKey, line: 2, column: 3, message: "duplicate key `a.b` (first defined at line 1)"),
        Case(text: "t = {a = 1, a = 2}", kind: .duplicateKey, line: 1, column: 13, message: "duplicate key `a` (first defined at line 1)"),
        Case(text: "\"a\" = 1\na = 2", kind: .duplicateKey, line: 2, column: 1, message: "duplicate key `a` (first defined at line 1)"),
        Case(text: "[a]\n[b]\n[a]", kind: .redefinition, line: 3, column: 1, message: "the table `a` is already defined at line 1"),
        Case(text: "[a.b]\n[a]\n[a]", kind: .redefinition, line: 3, column: 1, message: "the table `a` is already defined at line 2"),
        Case(text: "[a]\nb = 1\n[a.b]", kind: .redefinition, line: 3, column: 1, message: "`a.b` is already an integer (line 2)"),
        Case(text: "[fruit]\napple.color = \"red\"\n[fruit.apple]", kind: .redefinition, line: 3, column: 1,
             message: "the table `fruit.apple` is already defined by the dotted key at line 2"),
        Case(text: "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", kind: .redefinition, line: 4, column: 1,
             message: "cannot add keys to `b` with a dotted key: it is a table defined at line 1"),
        Case(text: "a = {b = 1}\na.c = 2", kind: .redefinition, line: 2, column: 1, message: "`a` is already a table (line 1), so it cannot have keys"),
        Case(text: "a = {b = 1}\n[a.c]", kind: .redefinition, line: 2, column: 2, message: "`a` is an inline table (line 1), which cannot be extended"),
        Case(text: "a = {}\n[a]", kind: .redefinition, line: 2, column: 1, message: "`a` is already a table (line 1)"),
        Case(text: "a = [1]\n[[a]]", kind: .redefinition, line: 2, column: 1, message: "cannot add to `a` with [[a]]: it is an array written with [ ] at line 1"),
        Case(text: "[[a]]\n[a]", kind: .redefinition, line: 2, column: 1, message: "`a` is an array of tables (line 1); add to it with [[a]]"),
        Case(text: "[a]\n[[a]]", kind: .redefinition, line: 2, column: 1, message: "`a` is a table (line 1), not an array of tables"),
        Case(text: "a = 1\n[a.b]", kind: .redefinition, line: 2, column: 2, message: "`a` is already an integer (line 1), so it cannot have tables"),
        Case(text: "a = 1\na.b = 2", kind: .redefinition, line: 2, column: 1, message: "`a` is already an integer (line 1), so it cannot have keys"),
    ]

    @Test(arguments: cases)
    func errorHasKindPositionAndMessage(_ c: Case) {
        do {
            let table = try TOMLTable(parsing: c.text)
            Issue.record("parsed: \(table.keys)")
        } catch {
            #expect(error.kind == c.kind)
            #expect(error.position == TOMLPosition(line: c.line, column: c.column))
            #expect(error.message == c.message)
            #expect(error.description == "\(c.line):\(c.column): \(c.message)")
        }
    }

    @Test func nestingDeeperThanTheLimitIsAnError() {
        let limit = TOMLTable.defaultMaximumDepth
        func depthError(_ text: String) -> TOMLError? {
            do { _ = try TOMLTable(parsing: text); return nil } catch { return error }
        }
        // Exactly at the limit parses; one more level is refused where it starts.
        #expect(depthError("a = " + String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) == nil)
        let arrays = depthError("a = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        #expect(arrays?.kind == .tooDeep && arrays?.position == TOMLPosition(line: 1, column: 5 + limit))
        let inline = depthError("a = " + String(repeating: "{b = ", count: 50_000) + "1" + String(repeating: "}", count: 50_000))
        #expect(inline?.kind == .tooDeep)
        let dotted = depthError(Array(repeating: "k", count: 10_000).joined(separator: ".") + " = 1")
        #expect(dotted?.kind == .tooDeep)
        let header = depthError("[" + Array(repeating: "k", count: 10_000).joined(separator: ".") + "]")
        #expect(header?.kind == .tooDeep)
        #expect(depthError("[" + Array(repeating: "k", count: limit + 1).joined(separator: ".") + "]")?.kind == .tooDeep)
        #expect(depthError("[" + Array(repeating: "k", count: limit).joined(separator: ".") + "]") == nil)
    }

    @Test func errorsAreReportedOnLaterLines() {
        let text = "[screens.main]\nstyle = \"arc\"\n\n[[screens.main.items]]\nlabel = \"Hi\"\naction \"back\"\n"
        do {
            _ = try TOMLTable(parsing: text)
            Issue.record("parsed")
        } catch {
            #expect(error.description == "6:8: expected `=` after the key `action`, found `\"`")
        }
    }
}
