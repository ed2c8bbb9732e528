import Testing
import TOML

func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TOMLTable {
    try TOMLTable(parsing: text)
}

/// Each TOML 1.0 syntax feature parses to the values the spec says, with their positions.
@Suite struct TOMLSyntaxTests {
    @Test func commentsAndBlankLines() throws {
        let t = try parse("# top\n\n  key = \"value\" # after\n\t# indented\nother = 1#tight\n")
        #expect(t.keys == ["key", "other"])
        #expect(t["key"]?.string == "value" && t["other"]?.integer == 1)
    }

    @Test func bareQuotedAndDottedKeys() throws {
        let t = try parse("""
        bare_key-1 = 1
        1234 = 2
        "quoted key" = 3
        'literal "key"' = 4
        "" = 5
        site."google.com" = true
        a . b . c = 6
        "\\u00e9t\\u00e9" = 7
        """)
        #expect(t["bare_key-1"]?.integer == 1 && t["1234"]?.integer == 2)
        #expect(t["quoted key"]?.integer == 3 && t["literal \"key\""]?.integer == 4 && t[""]?.integer == 5)
        #expect(t["site"]?.table?["google.com"]?.bool == true)
        #expect(t["a"]?.table?["b"]?.table?["c"]?.integer == 6)
        #expect(t["été"]?.integer == 7)
    }

    @Test func keysKeepTheirOrderAndPositions() throws {
        let t = try parse("z = 1\n  a = \"x\"\nm.n = [1, 2]\n")
        #expect(t.keys == ["z", "a", "m"])
        #expect(t.entry("a")?.keyPosition == TOMLPosition(line: 2, column: 3))
        #expect(t["a"]?.position == TOMLPosition(line: 2, column: 7))
        let m = try #require(t["m"])
        #expect(m.position == TOMLPosition(line: 3, column: 1), "a dotted key's table is where the key part is")
        #expect(m.table?["n"]?.position == TOMLPosition(line: 3, column: 7))
        #expect(m.table?["n"]?.array?[1].position == TOMLPosition(line: 3, column: 11))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let t = try parse("t = { a = \"ééé\", b = 2 }")
        #expect(t["t"]?.table?["b"]?.position == TOMLPosition(line: 1, column: 22), "25 if it counted bytes")
        #expect(throws: TOMLError(.unexpected, at: TOMLPosition(line: 1, column: 9), "expected the end of the line after the value of `k`, found `x`")) {
            try TOMLTable(parsing: "k = \"ü\" x")
        }
    }

    @Test func basicStringEscapes() throws {
        let t = try parse(#"s = "tab\there \"quoted\" back\\slash \b\f\n\r \u00E9 \U0001F600 \u0000""#)
        #expect(t["s"]?.string == "tab\there \"quoted\" back\\slash \u{08}\u{0C}\n\r é 😀 \u{0}")
    }

    @Test func literalStringsKeepBackslashes() throws {
        let t = try parse(#"path = 'C:\Users\nodejs\templates'"# + "\n" + #"regex = '<\i\c*\s*>'"#)
        #expect(t["path"]?.string == #"C:\Users\nodejs\templates"#)
        #expect(t["regex"]?.string == #"<\i\c*\s*>"#)
    }

    @Test func multiLineBasicStrings() throws {
        let t = try parse("a = \"\"\"\nRoses are red\nViolets are blue\"\"\"\nb = \"\"\"\\\n    The quick \\\n\n    brown fox.\\\n    \"\"\"\nc = \"\"\"Here are two quotation marks: \"\". Simple enough.\"\"\"\nd = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"\ne = \"\"\"x\\   \n  y\"\"\"\n")
        #expect(t["a"]?.string == "Roses are red\nViolets are blue")
        #expect(t["b"]?.string == "The quick brown fox.")
        #expect(t["c"]?.string == "Here are two quotation marks: \"\". Simple enough.")
        #expect(t["d"]?.string == "\"This,\" she said, \"is just a pointless statement.\"")
        #expect(t["e"]?.string == "xy", "whitespace after a line-ending backslash")
    }

    @Test func multiLineLiteralStrings() throws {
        let t = try parse("re = '''I [dw]on't need \\d{2} apples'''\nlines = '''\nThe first newline is\ntrimmed.\n   All other whitespace\n   is preserved.\n'''\nq = ''''That,' she said, 'is still pointless.''''\n")
        #expect(t["re"]?.string == #"I [dw]on't need \d{2} apples"#)
        #expect(t["lines"]?.string == "The first newline is\ntrimmed.\n   All other whitespace\n   is preserved.\n")
        #expect(t["q"]?.string == "'That,' she said, 'is still pointless.'")
    }

    @Test func crlfLineEndings() throws {
        let t = try parse("a = 1\r\n[t]\r\nb = \"\"\"x\r\ny\"\"\" # c\r\n")
        #expect(t["a"]?.integer == 1)
        #expect(t["t"]?.table?["b"]?.string == "x\ny", "CRLF in a multi-line string becomes LF")
        #expect(t["t"]?.table?["b"]?.position == TOMLPosition(line: 3, column: 5))
    }

    @Test func leadingByteOrderMarkIsSkipped() throws {
        let t = try parse("\u{FEFF}a = 1\n")
        #expect(t["a"]?.integer == 1)
        #expect(t.entry("a")?.keyPosition == TOMLPosition(line: 1, column: 1))
    }

    @Test func integers() throws {
        let t = try parse("""
        a = +99
        b = 42
        c = 0
        d = -17
        e = 1_000
        f = 5_349_221
        g = 0xDEADBEEF
        h = 0xdead_beef
        i = 0o01234567
        j = 0o755
        k = 0b11010110
        l = 9223372036854775807
        m = -9223372036854775808
        n = +0
        o = -0
        p = 0x7FFFFFFFFFFFFFFF
        """)
        let expected: [(String, Int64)] = [("a", 99), ("b", 42), ("c", 0), ("d", -17), ("e", 1000), ("f", 5_349_221),
                                           ("g", 0xDEADBEEF), ("h", 0xDEADBEEF), ("i", 0o1234567), ("j", 0o755), ("k", 0b11010110),
                                           ("l", .max), ("m", .min), ("n", 0), ("o", 0), ("p", .max)]
        for (key, value) in expected { #expect(t[key]?.integer == value, "\(key)") }
    }

    @Test func floats() throws {
        let t = try parse("""
        a = +1.0
        b = 3.1415
        c = -0.01
        d = 5e+22
        e = 1e06
        f = -2E-2
        g = 6.626e-34
        h = 224_617.445_991_228
        i = inf
        j = +inf
        k = -inf
        l = nan
        m = +nan
        n = -nan
        o = -0.0
        p = 0e0
        """)
        let expected: [(String, Double)] = [("a", 1), ("b", 3.1415), ("c", -0.01), ("d", 5e22), ("e", 1e6), ("f", -0.02),
                                            ("g", 6.626e-34), ("h", 224_617.445_991_228), ("i", .infinity), ("j", .infinity),
                                            ("k", -.infinity), ("p", 0)]
        for (key, value) in expected { #expect(t[key]?.float == value, "\(key)") }
        for key in ["l", "m", "n"] { #expect(t[key]?.float?.isNaN == true, "\(key)") }
        #expect(t["o"]?.float == 0 && t["o"]?.float?.sign == .minus)
    }

    @Test func booleans() throws {
        let t = try parse("t = true\nf = false\n")
        #expect(t["t"]?.bool == true && t["f"]?.bool == false)
    }

    @Test func dateTimes() throws {
        let t = try parse("""
        odt1 = 1979-05-27T07:32:00Z
        odt2 = 1979-05-27T00:32:00-07:00
        odt3 = 1979-05-27T00:32:00.999999+05:30
        odt4 = 1979-05-27 07:32:00z
        ldt1 = 1979-05-27T07:32:00
        ldt2 = 1979-05-27t00:32:00.999999999999
        ld = 1979-05-27
        lt1 = 07:32:00
        lt2 = 00:32:00.5
        leap = 2000-02-29
        second = 1990-12-31T23:59:60Z
        """)
        #expect(t["odt1"]?.dateTime?.description == "1979-05-27T07:32:00Z")
        #expect(t["odt1"]?.kindName == "an offset date-time")
        #expect(t["odt2"]?.dateTime?.offsetMinutes == -420)
        #expect(t["odt3"]?.dateTime?.description == "1979-05-27T00:32:00.999999+05:30")
        #expect(t["odt4"]?.dateTime?.offsetMinutes == 0)
        #expect(t["ldt1"]?.kindName == "a local date-time")
        #expect(t["ldt2"]?.dateTime?.time?.nanosecond == 999_999_999)
        #expect(t["ld"]?.kindName == "a local date" && t["ld"]?.dateTime?.date?.day == 27)
        #expect(t["lt1"]?.kindName == "a local time" && t["lt1"]?.dateTime?.description == "07:32:00")
        #expect(t["lt2"]?.dateTime?.time?.nanosecond == 500_000_000)
        #expect(t["leap"]?.dateTime?.date?.month == 2)
        #expect(t["second"]?.dateTime?.time?.second == 60)
    }

    @Test func arrays() throws {
        let t = try parse("""
        integers = [ 1, 2, 3 ]
        colors = [ "red", "yellow", "green" ]
        nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
        nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
        string_array = [ "all", 'strings', \"\"\"are the same\"\"\", '''type''' ]
        numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
        contributors = [
          "Foo Bar <foo@example.com>", # a comment
          { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" },
        ]
        empty = [ ]
        empty2 = [
        # only a comment
        ]
        """)
        #expect(t["integers"]?.array?.compactMap(\.integer) == [1, 2, 3])
        #expect(t["nested_arrays_of_ints"]?.array?[1].array?.compactMap(\.integer) == [3, 4, 5])
        #expect(t["nested_mixed_array"]?.array?[1].array?.compactMap(\.string) == ["a", "b", "c"])
        #expect(t["string_array"]?.array?.compactMap(\.string) == ["all", "strings", "are the same", "type"])
        #expect(t["numbers"]?.array?.map(\.kindName) == ["a float", "a float", "a float", "an integer", "an integer", "an integer"])
        #expect(t["contributors"]?.array?[1].table?["name"]?.string == "Baz Qux")
        #expect(t["contributors"]?.array?[1].position == TOMLPosition(line: 9, column: 3))
        #expect(t["empty"]?.array?.isEmpty == true && t["empty2"]?.array?.isEmpty == true)
    }

    @Test func inlineTables() throws {
        let t = try parse("""
        name = { first = "Tom", last = "Preston-Werner" }
        point = {x=1,y=2}
        animal = { type.name = "pug", type.size = 1 }
        nested = { a = { b = { c = [1, { d = 2 }] } } }
        empty = {}
        """)
        #expect(t["name"]?.table?.keys == ["first", "last"])
        #expect(t["point"]?.table?["y"]?.integer == 2)
        #expect(t["animal"]?.table?["type"]?.table?["name"]?.string == "pug")
        #expect(t["animal"]?.table?["type"]?.table?["size"]?.integer == 1)
        #expect(t["nested"]?.table?["a"]?.table?["b"]?.table?["c"]?.array?[1].table?["d"]?.integer == 2)
        #expect(t["empty"]?.table?.isEmpty == true)
    }

    @Test func tablesAndHeaders() throws {
        let t = try parse("""
        [table-1]
        key1 = "some string"

        [ dog . "tater.man" ]
        type.name = "pug"

        # [x] [x.y] [x.y.z] need not be written before [x.y.z.w]
        [x.y.z.w]

        [x]   # defining a super-table afterwards is fine
        a = 1

        [fruit]
        apple.color = "red"
        apple.taste.sweet = true

        [fruit.apple.texture]  # sub-tables of a dotted-key table are allowed
        smooth = true
        """)
        #expect(t.keys == ["table-1", "dog", "x", "fruit"])
        #expect(t["dog"]?.table?["tater.man"]?.table?["type"]?.table?["name"]?.string == "pug")
        #expect(t["x"]?.table?["a"]?.integer == 1)
        #expect(t["x"]?.table?["y"]?.table?["z"]?.table?["w"]?.table?.isEmpty == true)
        #expect(t["x"]?.position == TOMLPosition(line: 10, column: 1), "a table is where its own header is")
        #expect(t["x"]?.table?["y"]?.position == TOMLPosition(line: 8, column: 4), "an implicit table is where it is first named")
        let apple = t["fruit"]?.table?["apple"]?.table
        #expect(apple?["taste"]?.table?["sweet"]?.bool == true)
        #expect(apple?["texture"]?.table?["smooth"]?.bool == true)
        #expect(t["table-1"]?.position == TOMLPosition(line: 1, column: 1))
    }

    @Test func arraysOfTables() throws {
        let t = try parse("""
        [[products]]
        name = "Hammer"
        sku = 738594937

        [[products]]  # empty table within the array

        [[products]]
        name = "Nail"

        [[fruits]]
        name = "apple"

        [fruits.physical]
        color = "red"

        [[fruits.varieties]]
        name = "red delicious"

        [[fruits.varieties]]
        name = "granny smith"

        [[fruits]]
        name = "banana"

        [[fruits.varieties]]
        name = "plantain"
        """)
        let products = try #require(t["products"]?.array)
        #expect(products.count == 3 && products[1].table?.isEmpty == true && products[2].table?["name"]?.string == "Nail")
        #expect(products.map(\.position.line) == [1, 5, 7])
        let fruits = try #require(t["fruits"]?.array)
        #expect(fruits.count == 2)
        #expect(fruits[0].table?["physical"]?.table?["color"]?.string == "red")
        #expect(fruits[0].table?["varieties"]?.array?.compactMap { $0.table?["name"]?.string } == ["red delicious", "granny smith"])
        #expect(fruits[1].table?["varieties"]?.array?.compactMap { $0.table?["name"]?.string } == ["plantain"])
    }

    @Test func emptyAndWhitespaceOnlyDocuments() throws {
        #expect(try parse("").isEmpty)
        #expect(try parse("\n \t\r\n# c\n").isEmpty)
    }
}


/// What `TOMLSyntax` writes reads back as the same key and string.
@Suite struct TOMLWritingTests {
    @Test func quotedStringsAndKeysReadBack() throws {
        let awkward = "quote \" backslash \\ newline \n return \r tab \t nul \u{0} unit \u{1F} delete \u{7F} é 😀"
        let t = try parse("\(TOMLSyntax.key(awkward)) = \(TOMLSyntax.quoted(awkward))\nbare-key_1 = 1")
        #expect(t[awkward]?.string == awkward)
        #expect(TOMLSyntax.key("bare-key_1") == "bare-key_1" && t["bare-key_1"]?.integer == 1)
        #expect(TOMLSyntax.key("") == #""""# && TOMLSyntax.key("a.b") == #""a.b""#)
        #expect(TOMLSyntax.quoted("a\tb\u{7F}") == #""a\tb\u007F""#)
    }
}
