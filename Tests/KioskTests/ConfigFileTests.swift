import Glibc
@testable import KioskConfiguration
import Testing
@testable import Kiosk

/// Files that are not a small UTF-8 text get a plain message before any parsing, and a truncated
/// file gets the parser's message with its position.
@Suite struct ConfigFileTests {
    func problems(_ bytes: [UInt8]) -> [String] {
        let scratch = ScratchDirectory()
        let path = scratch.write("kiosk.toml", bytes: bytes)
        return ConfigReader(path: path, displayName: "kiosk.toml").check().problems.map(\.description)
    }

    @Test func twoByteOrderMarksBeforeABadHeaderAreAnErrorNotACrash() {
        #expect(problems([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("[[[-".utf8)) == [
            "kiosk.toml:1:3: TOML syntax error: expected a table name after `[[`, found `[`",
        ])
    }

    @Test func hugeFileIsRefusedBySize() {
        let line = Array("# padding padding padding padding padding padding padding padding padding\n".utf8)
        var bytes: [UInt8] = []
        while bytes.count < 50 << 20 { bytes += line }
        #expect(problems(bytes) == ["kiosk.toml: file is 50 MiB; a kiosk config is at most 1 MiB"])
    }

    @Test func fileJustUnderTheLimitIsRead() throws {
        let comment = Array(("#" + String(repeating: "x", count: 1022) + "\n").utf8)
        var bytes = Array(minimalConfig().utf8)
        while bytes.count + comment.count <= ConfigFileReader.maximumSize { bytes += comment }
        #expect(bytes.count > ConfigFileReader.maximumSize - 1024)
        #expect(problems(bytes) == [])
    }

    @Test func binaryFileIsNamedAsSuch() {
        var bytes = Array(minimalConfig().utf8)
        bytes.insert(contentsOf: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x00], at: 15)
        #expect(problems(bytes) == ["kiosk.toml:2:7: binary file: contains a NUL byte; a config is UTF-8 text"])
    }

    @Test func invalidUTF8HasPosition() {
        var bytes = Array(minimalConfig().utf8)
        let label = bytes.firstIndex(of: UInt8(ascii: "H"))!
        bytes[label] = 0xC3  // a lead byte followed by an ASCII byte
        #expect(problems(bytes) == ["kiosk.toml:5:10: not UTF-8 text: invalid byte 0xC3"])
    }

    @Test(arguments: ["", "\n\n  \t\r\n", "\u{FEFF}"])
    func emptyFileIsAnError(_ text: String) {
        #expect(problems(Array(text.utf8)) == ["kiosk.toml: file is empty; a config needs at least one screen with one item"])
    }

    @Test func commentsOnlyFileHasNoScreens() {
        #expect(problems(Array("# nothing yet\n".utf8)) == ["kiosk.toml: screens: no screens: add at least one [screens.NAME] table with one item"])
    }

    @Test func truncatedExampleGivesTheParsersPosition() throws {
        let example = readBytes(ConfigPaths.example)
        // Cut inside `label = "Run a program"`: the string never closes.
        let cut = try #require(firstRange(of: Array("Run a pro".utf8), in: example)).upperBound
        let text = Array(example[..<cut])
        let line = text.filter { $0 == 0x0A }.count + 1
        let found = problems(text)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("kiosk.toml:\(line):") == true, "\(found)")
        #expect(found.first?.contains("TOML syntax error") == true)
    }

    @Test func missingFileGivesErrnoText() {
        let c = ConfigReader(path: "/nonexistent/kiosk.toml").check()
        #expect(c.problems.map(\.description) == ["/nonexistent/kiosk.toml: cannot read the file (open: No such file or directory)"])
    }

    @Test func unreadableFileGivesErrnoText() throws {
        let scratch = ScratchDirectory()
        let path = scratch.write("kiosk.toml", minimalConfig(), mode: 0o000)
        let c = ConfigReader(path: path, displayName: "kiosk.toml").check()
        if geteuid() == 0 {
            #expect(c.isValid, "root reads a mode 000 file")
        } else {
            #expect(c.problems.map(\.description) == ["kiosk.toml: cannot read the file (open: Permission denied)"])
        }
    }

    @Test func directoryAndPipeAreRefusedWithoutBlocking() {
        let scratch = ScratchDirectory()
        #expect(ConfigReader(path: scratch.path, displayName: "dir").check().problems.map(\.description) == ["dir: is a directory, not a regular file"])
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(ConfigReader(path: fifo, displayName: "fifo").check().problems.map(\.description) == ["fifo: is a pipe, not a regular file"])
    }

    /// A disk image links /etc/kiosk/kiosk.toml to the boot partition's file when that one is not
    /// usable text: the problem names the boot partition's file, and the link that led there.
    @Test func aLinkedFileThatIsNotTextIsNamedItself() throws {
        let scratch = ScratchDirectory()
        let dir = try #require(ConfigSource.realPath(scratch.path))
        scratch.write("boot-latin1.toml", bytes: Array("[screens.main]\ntitle = \"Caf".utf8) + [0xE9, 0x22, 0x0A])
        scratch.write("boot-empty.toml", "")
        mkdir(scratch.path + "/boot-folder.toml", 0o755)
        defer { rmdir(scratch.path + "/boot-folder.toml") }
        let link = scratch.path + "/kiosk.toml"
        var seen: [String] = []
        for target in ["boot-latin1.toml", "boot-empty.toml", "boot-folder.toml"] {
            unlink(link)
            #expect(symlink(scratch.path + "/" + target, link) == 0)
            seen += ConfigReader(path: link, displayName: "/etc/kiosk/kiosk.toml").check().problems.map(\.description)
        }
        #expect(seen == [
            "\(dir)/boot-latin1.toml:2:13: not UTF-8 text: invalid byte 0xE9 (/etc/kiosk/kiosk.toml links to it)",
            "\(dir)/boot-empty.toml: file is empty; a config needs at least one screen with one item (/etc/kiosk/kiosk.toml links to it)",
            "\(dir)/boot-folder.toml: is a directory, not a regular file (/etc/kiosk/kiosk.toml links to it)",
        ])
        // A config that is a file, or a link to nothing, is named as before.
        unlink(link)
        scratch.write("kiosk.toml", "")
        #expect(ConfigReader(path: link, displayName: "kiosk.toml").check().problems.map(\.description)
                == ["kiosk.toml: file is empty; a config needs at least one screen with one item"])
        unlink(link)
        #expect(symlink(scratch.path + "/gone.toml", link) == 0)
        #expect(ConfigReader(path: link, displayName: "kiosk.toml").check().problems.map(\.description)
                == ["kiosk.toml: cannot read the file: \(dir)/kiosk.toml is a symlink to \"\(scratch.path)/gone.toml\", which does not exist"])
    }

    /// The boot partition's file is text with errors (a TOML syntax error, a value the decoder
    /// refuses, an icon the validator cannot find): the image links to it too, and every problem
    /// names it, not the link.
    @Test func aLinkedTextWithErrorsIsNamedItself() throws {
        let scratch = ScratchDirectory()
        let dir = try #require(ConfigSource.realPath(scratch.path))
        scratch.write("boot-syntax.toml", "[screens.main]\ntitle = \"Caf\u{E9}\n")
        scratch.write("boot-style.toml", minimalConfig().replacing("\"arc\"", with: "\"wobbly\""))
        scratch.write("boot-icon.toml", minimalConfig("[[screens.main.items]]\nlabel = \"Door\"\naction = \"back\"\nicon = \"door.png\"\n"))
        let link = scratch.path + "/kiosk.toml"
        let reader = ConfigReader(path: link, displayName: "/etc/kiosk/kiosk.toml")
        for (target, line, words) in [("boot-syntax.toml", 2, "TOML syntax error"), ("boot-style.toml", 2, "wobbly"),
                                      ("boot-icon.toml", 10, "door.png")] {
            unlink(link)
            #expect(symlink(scratch.path + "/" + target, link) == 0)
            let found = reader.check().problems.filter { $0.severity == .error }.map(\.description)
            #expect(!found.isEmpty && found.allSatisfy { $0.hasPrefix("\(dir)/\(target):") }, "\(found)")
            #expect(found.first?.hasPrefix("\(dir)/\(target):\(line):") == true, "\(found)")
            #expect(found.first?.contains(words) == true, "\(found)")
        }
        // The same text copied into place (a regular file): named as the reader was told.
        unlink(link)
        scratch.write("kiosk.toml", "[screens.main]\ntitle = \"Caf\u{E9}\n")
        let copied = reader.check().problems.map(\.description)
        #expect(copied.count == 1 && copied.first?.hasPrefix("/etc/kiosk/kiosk.toml:2:") == true, "\(copied)")
    }

    @Test func sizesReadNaturally() {
        #expect(ConfigFileError.size(512) == "512 bytes")
        #expect(ConfigFileError.size(10 * 1024) == "10 KiB")
        #expect(ConfigFileError.size(1 << 20) == "1 MiB")
        #expect(ConfigFileError.size(3 << 19) == "1.5 MiB")
    }
}

func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
    guard needle.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
        return start..<start + needle.count
    }
    return nil
}
