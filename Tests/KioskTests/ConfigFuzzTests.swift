@testable import KioskConfiguration
import Testing
import TestSupport
@testable import Kiosk

/// Bad input never crashes the loader: random bytes, truncations and mutations of the example, and
/// hostile shapes. Each run also checks that the outcome is coherent (valid exactly when there is
/// no error; every message one line naming the file). Seeded, so a failure can be replayed.
@Suite struct ConfigFuzzTests {
    func expectCoherent(_ bytes: [UInt8], in scratch: ScratchDirectory, _ what: @autoclosure () -> String) {
        let path = scratch.write("fuzz.toml", bytes: bytes)
        let check = ConfigReader(path: path, displayName: "fuzz.toml").check()
        #expect(check.isValid == !check.problems.hasErrors, "\(what())")
        for p in check.problems {
            #expect(p.description.hasPrefix("fuzz.toml") && !p.description.contains("\n"), "\(what()): \(p)")
        }
        if let config = check.config {
            #expect(config.screen(named: config.home) != nil, "\(what())")
            #expect(config.screens.allSatisfy { !$0.items.isEmpty }, "\(what())")
        }
    }

    @Test func randomBytes() {
        var rng = SeededGenerator(seed: 1)
        let scratch = ScratchDirectory()
        for round in 0..<150 {
            let count = Int.random(in: 0...600, using: &rng)
            // Half the rounds draw from TOML's own punctuation so the parser gets further.
            let alphabet = Array("[]{}=\"'.,#\n abc123_-+:tT".utf8)
            let bytes: [UInt8] = (0..<count).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &rng) : alphabet.randomElement(using: &rng)!
            }
            expectCoherent(bytes, in: scratch, "round \(round)")
        }
    }

    @Test func truncationsOfTheExample() {
        let example = readBytes(ConfigPaths.example)
        var rng = SeededGenerator(seed: 2)
        let scratch = ScratchDirectory()
        for round in 0..<150 {
            let cut = Int.random(in: 0...example.count, using: &rng)
            expectCoherent(Array(example[..<cut]), in: scratch, "cut at \(cut)")
            _ = round
        }
    }

    @Test func mutationsOfTheExample() {
        let example = readBytes(ConfigPaths.example)
        var rng = SeededGenerator(seed: 3)
        let scratch = ScratchDirectory()
        for round in 0..<150 {
            var bytes = example
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(Array("\"[]=.\n#{}".utf8).randomElement(using: &rng)!, at: at)
                default:  // duplicate a slice elsewhere
                    let end = min(bytes.count, at + Int.random(in: 1...80, using: &rng))
                    let slice = bytes[at..<end]
                    bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &rng))
                }
            }
            expectCoherent(bytes, in: scratch, "round \(round)")
        }
    }

    @Test func hostileShapes() {
        let scratch = ScratchDirectory()
        let deepArray = "a = " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        let deepTable = "a = " + String(repeating: "{b = ", count: 20_000) + "1" + String(repeating: "}", count: 20_000)
        let manyKeys = (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: "\n")
        let longString = "home = \"" + String(repeating: "x", count: 900_000) + "\""
        let bigNumbers = minimalConfig("idle_timeout = 1e308\n[background]\ncell = 9223372036854775807\nline_width = nan\n")
        let manyScreens = (0..<2_000).map { "[screens.s\($0)]\nstyle = \"arc\"\n[[screens.s\($0).items]]\nlabel = \"x\"\naction = \"screen\"\nscreen = \"s\($0 + 1)\"\n" }.joined()
        let weirdKeys = minimalConfig("[screens.\"a.b \\\" c\"]\nstyle = \"list\"\n")
        for (name, text) in [("deep array", deepArray), ("deep table", deepTable), ("many keys", manyKeys),
                             ("long string", longString), ("big numbers", bigNumbers), ("many screens", manyScreens),
                             ("weird keys", weirdKeys)] {
            expectCoherent(Array(text.utf8), in: scratch, name)
        }
    }

    @Test func hostileShapesAreReportedPrecisely() {
        let scratch = ScratchDirectory()
        let check = { (text: String) in
            ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").check().problems.map(\.description)
        }
        #expect(check(minimalConfig("[background]\ncell = 9223372036854775807\nline_width = nan\n")) == [
            "k.toml:9:14: background.line_width: expected a finite number, got nan",
        ])
        #expect(check(minimalConfig("[screens.\"a.b \\\" c\"]\nstyle = \"list\"\n")) == [
            #"k.toml:7: screens."a.b \" c".sections: missing: a list screen needs [[screens.a.b " c.sections]] with items"#,
            #"k.toml: home: missing: with several screens, name the first one (home = "main")"#,
        ])
    }
}

/// Inputs that made toml++ 3.4.0 (in TOMLKit, the previous parser) fail an assertion and abort the
/// process: with our parser each is one syntax error at the place of the mistake.
@Suite struct ConfigFormerParserAbortTests {
    @Test(arguments: [
        ("[:]\n", 1, 2), ("[ :]", 1, 3), ("[[ :]]", 1, 4), ("a = 1\n[\n", 2, 2),
        ("[\r\n", 1, 2), ("x = 1\n  [é]", 2, 4), ("[=]", 1, 2),
        ("s = \"\"\"a\\\n  b\"\"\"\n[:]", 3, 2), ("a = [}", 1, 6), ("a = [1, # c\n }", 2, 2), ("a = {b = [{}, }]}", 1, 15),
        ("a = 1979-05-27 7\n", 1, 16), ("a = [1979-05-27 7]", 1, 17), ("_= 46(m-----h 1}", 1, 6),
        ("a=1_979-05-27 7\n", 1, 3), ("\u{FEFF}[[[-", 1, 3),
        ("_= 46*m-----h 9\u{FEFF}", 1, 6), ("a = 1979-05-27 7\u{3000}", 1, 16), ("[\u{3000}:]", 1, 2),
    ])
    func inputsThatAbortedTOMLKitAreSyntaxErrors(text: String, line: Int, column: Int) throws {
        let decoded = ConfigReader.decode(text: text, file: "k.toml", baseDirectory: "/")
        let problems = decoded.problems
        #expect(decoded.config == nil)
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.location.line == line && problem.location.column == column, "\(problem)")
        #expect(problem.description.hasPrefix("k.toml:\(line):\(column): TOML syntax error: "), "\(problem)")
    }
}
