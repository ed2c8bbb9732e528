import Testing
import TOML

/// Random and mutated inputs never crash the parser; what it accepts survives a round trip
/// through a writer (so it was read right), and every position it reports lies in the text.
@Suite struct TOMLRobustnessTests {
    /// SplitMix64: seedable, so a failing case can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let sample = """
    # sample
    title = "TOML \\"Example\\"\\u00e9"
    [owner]
    name = 'Tom'
    dob = 1979-05-27T07:32:00-08:00
    [database]
    enabled = true
    ports = [ 8000, 8001, 0x1F, -3_000 ]
    data = [ ["delta", "phi"], [3.14, -inf, 6e-3] ]
    temp_targets = { cpu = 79.5, case.max = 72.0 }
    [servers.alpha]
    ip = "10.0.0.1"
    text = \"\"\"
    two \\
      lines\"\"\"
    raw = '''x\\y'''
    [[products]]
    name = "Hammer"
    [[products]]
    sku = 284_758_393
    t = 07:32:00.25
    d = 1999-12-31
    """

    /// Checks one input: parses or fails with a position inside the text; a parsed tree has its
    /// positions inside the text and reads back equal from what `write` makes of it.
    func check(_ text: String, _ what: @autoclosure () -> String) {
        let lineCount = text.utf8.count { $0 == 0x0A } + 1
        do {
            let table = try TOMLTable(parsing: text)
            var pending = table.entries.map(\.value)
            for entry in table.entries { #expect(entry.keyPosition.line <= lineCount, "\(what())") }
            while let value = pending.popLast() {
                #expect(value.position.line >= 1 && value.position.line <= lineCount && value.position.column >= 1, "\(what())")
                if let t = value.table { pending += t.entries.map(\.value) }
                if let a = value.array { pending += a }
            }
            let written = write(table)
            do {
                let reread = try TOMLTable(parsing: written)
                #expect(sameContent(.init(.table(table), at: .init(line: 1, column: 1)), .init(.table(reread), at: .init(line: 1, column: 1))),
                        "\(what()): round trip differs\n\(written)")
            } catch {
                Issue.record("\(what()): written form does not parse: \(error)\n\(written)")
            }
        } catch {
            #expect(error.line >= 1 && error.line <= lineCount && error.column >= 1, "\(what()): \(error)")
            #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(what()): \(error)")
        }
    }

    @Test func sampleRoundTrips() throws {
        let table = try TOMLTable(parsing: Self.sample)
        #expect(table["database"]?.table?["temp_targets"]?.table?["case"]?.table?["max"]?.float == 72)
        check(Self.sample, "sample")
    }

    @Test func randomTextFromTOMLsAlphabet() {
        var rng = SeededGenerator(state: 11)
        let alphabet: [Character] = Array("[]{}=\"'.,#\n\r\t abcefinrtuxzTZ0123456789_-+:\\é")
        for round in 0..<1500 {
            let count = Int.random(in: 0...120, using: &rng)
            let text = String((0..<count).map { _ in alphabet.randomElement(using: &rng)! })
            check(text, "round \(round): \(text.debugDescription)")
        }
    }

    @Test func mutationsOfASampleDocument() {
        var rng = SeededGenerator(state: 12)
        let base = Array(Self.sample.unicodeScalars)
        let inserts: [Unicode.Scalar] = ["\"", "'", "[", "]", "{", "}", "=", ".", ",", "\n", "#", "\\", " ", "0", "e", "_", ":", "-", "\r"]
        for round in 0..<2500 {
            var scalars = base
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let at = Int.random(in: 0..<scalars.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: scalars[at] = inserts.randomElement(using: &rng)!
                case 1: scalars.remove(at: at)
                case 2: scalars.insert(inserts.randomElement(using: &rng)!, at: at)
                default:
                    let end = min(scalars.count, at + Int.random(in: 1...40, using: &rng))
                    scalars.insert(contentsOf: scalars[at..<end], at: Int.random(in: 0...scalars.count, using: &rng))
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            check(text, "round \(round): \(text.debugDescription)")
        }
    }

    /// Large inputs parse whole with exact positions: 3,200 tables, and one 150,000-character line
    /// (columns are counted incrementally, not from the line start). How long that takes is for a
    /// benchmark, not a test.
    @Test func largeDocumentsKeepExactPositions() throws {
        let n = 3_200
        let text = (0..<n).map { "[t\($0)]\nk = [1, \"s\", {a.b = 2.5}]\ns = \"\"\"x\ny\"\"\"\n" }.joined()
        let table = try TOMLTable(parsing: text)
        let last = try #require(table["t\(n - 1)"]?.table)
        // Each table takes four lines; the last one's `k` is on the second line of its block.
        #expect(last["k"]?.position.line == 4 * (n - 1) + 2)
        let longLine = "a = [" + String(repeating: "1, ", count: 50_000) + "1]"
        #expect(try TOMLTable(parsing: longLine)["a"]?.array?.last?.position.column == longLine.count - 1)
    }
}

/// The same content, positions aside; NaN equals NaN.
func sameContent(_ a: TOMLValue, _ b: TOMLValue) -> Bool {
    switch (a.content, b.content) {
    case (.float(let x), .float(let y)): return x == y || (x.isNaN && y.isNaN)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameContent)
    case (.table(let x), .table(let y)):
        return x.keys == y.keys && zip(x.entries, y.entries).allSatisfy { sameContent($0.value, $1.value) }
    default: return a.content == b.content
    }
}

/// The table as TOML: every key quoted, every table inline. Enough to read back what was parsed.
func write(_ table: TOMLTable) -> String {
    table.entries.map { "\(quote($0.key)) = \(write($0.value))\n" }.joined()
}

func write(_ value: TOMLValue) -> String {
    switch value.content {
    case .string(let s): return quote(s)
    case .integer(let i): return "\(i)"
    case .float(let d): return d.isNaN ? "nan" : "\(d)"
    case .boolean(let b): return "\(b)"
    case .dateTime(let d): return d.description
    case .array(let a): return "[" + a.map(write).joined(separator: ", ") + "]"
    case .table(let t): return "{" + t.entries.map { "\(quote($0.key)) = \(write($0.value))" }.joined(separator: ", ") + "}"
    }
}

func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\U" + String(repeating: "0", count: 8 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
