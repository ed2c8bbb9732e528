import Foundation
import Glibc
@testable import Kiosk
#if canImport(PropertyBased)  // Swift 6.1 and later only (Package.swift)
import PropertyBased
#endif
import Testing

/// `kiosk status`: the JSON reader against Foundation's as an independent reference, and the
/// verdict (exit status) for healthy, invalid-config, display-lost and missing/broken files.
@Suite struct StatusReportTests {
    final class Folder {
        let dir: String
        init() {
            var template = Array("/tmp/kiosk-status-test-XXXXXX".utf8CString)
            dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
        func file(_ name: String, _ text: String) -> String {
            let path = dir + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return path
        }
    }

    static func status(valid: Bool = true, connected: Bool? = true, pid: Int = 4242) -> KioskStatus {
        KioskStatus(
            pid: pid,
            config: ConfigStatus(path: "/etc/kiosk/kiosk.toml", generation: 3, valid: valid,
                                 errors: valid ? [] : ["kiosk.toml:4: screens.main.items[0].action: unknown action \"fly\""]),
            display: DisplayStatus(name: "card0 Virtual-1", connected: connected),
            menu: MenuStatus(screen: "main", selectedLabel: "Espresso ☕",
                             lastAction: LastAction(item: "Power off", action: "poweroff", result: "exited with status 1")),
            lock: LockStatus(lockedScreens: ["admin", "service"], pinFailures: 3))
    }

    static let alive: @Sendable (Int32) -> Bool = { $0 == 4242 }

    @Test func healthyStatusReadsBackAndExitsZero() {
        let folder = Folder()
        let report = StatusReport(path: folder.file("s.json", Self.status().json), isRunning: Self.alive)
        #expect(report.health == .healthy && report.health.rawValue == 0)
        #expect(report.problems.isEmpty)
        #expect(report.status == Self.status())
        #expect(report.text.contains("kiosk: healthy"))
        #expect(report.text.contains("config: /etc/kiosk/kiosk.toml, generation 3, valid"))
        #expect(report.text.contains("\"Espresso ☕\" selected"))
        #expect(report.text.contains("last action: \"Power off\" (poweroff): exited with status 1"))
        #expect(report.text.contains("locked: admin, service, 3 wrong PINs"))
    }

    /// A config followed through a swapped `current` symlink: the release it was read from.
    @Test func theReleaseOnScreenIsNamed() {
        let folder = Folder()
        var doc = Self.status()
        doc.config.source = "/etc/kiosk/releases/537fc8a3f405/kiosk.toml"
        let report = StatusReport(path: folder.file("r.json", doc.json), isRunning: Self.alive)
        #expect(report.text.contains("  read from: /etc/kiosk/releases/537fc8a3f405/kiosk.toml\n"), "\(report.text)")
        // The same file as config_path says nothing more.
        #expect(!Self.status().json.isEmpty && !StatusReport(path: folder.file("s.json", Self.status().json), isRunning: Self.alive).text.contains("read from"))
    }

    /// The writer's type reads its own document back unchanged, and a key of the wrong type is named.
    @Test func theStatusReadsBackAsItsOwnType() throws {
        var status = Self.status(valid: false)
        status.display.power = .dimmed
        status.menu.screens = ["main", "more"]
        status.menu.selection = 2
        status.running = "Terminal"
        status.config.reloadsApplied = 4
        status.config.reloadsRefused = 1
        #expect(try KioskStatus(decoding: StatusJSONReader.parse(status.json)) == status)
        #expect(throws: StatusDecodingError(key: "display_power", reason: "\"bright\" is not on, dimmed or off")) {
            try KioskStatus(decoding: StatusJSONReader.parse(status.json.replacingOccurrences(of: "\"dimmed\"", with: "\"bright\"")))
        }
        #expect(throws: StatusDecodingError(key: "last_action.result", reason: "is missing")) {
            try KioskStatus(decoding: StatusJSONReader.parse("{\"generation\": 1, \"config_valid\": true, \"last_action\": {\"item\": \"a\", \"action\": \"b\"}}"))
        }
    }

    @Test func invalidConfigAndLostDisplayAreUnhealthy() {
        let folder = Folder()
        let invalid = StatusReport(path: folder.file("a.json", Self.status(valid: false).json), isRunning: Self.alive)
        #expect(invalid.health == .unhealthy && invalid.health.rawValue == 1)
        #expect(invalid.problems == ["the config is invalid (the last good one is shown): kiosk.toml:4: screens.main.items[0].action: unknown action \"fly\""])
        let lost = StatusReport(path: folder.file("b.json", Self.status(connected: false).json), isRunning: Self.alive)
        #expect(lost.health == .unhealthy && lost.problems == ["the display is disconnected"])
        #expect(lost.text.contains("DISCONNECTED"))
        // A status file from before display_connected existed says nothing about the display.
        #expect(StatusReport(path: folder.file("c.json", Self.status(connected: nil).json), isRunning: Self.alive).health == .healthy)
        let older = "{\"generation\": 2, \"config_valid\": true, \"pid\": 4242, \"screen\": \"main\"}"
        let report = StatusReport(path: folder.file("d.json", older), isRunning: Self.alive)
        #expect(report.health == .healthy && report.status?.display.connected == nil && report.status?.menu.screen == "main")
    }

    @Test(arguments: [
        ("", "the status file is empty"),
        ("{\"generation\": 3, \"config_valid\": tr", "the status file is not JSON: unexpected end"),
        ("{\"generation\": 3, \"config_valid\": true", "the status file is not JSON: unexpected end"),
        ("[1, 2]", "the status file is not a kiosk status"),
        ("{\"generation\": \"3\", \"config_valid\": true}", "the status file is not a kiosk status"),
        ("{\"generation\": 3, \"config_valid\": true} x", "the status file is not JSON: text after the JSON value"),
        ("\u{0}\u{0}\u{0}", "the status file is not text"),
    ])
    func brokenFilesAreNoStatus(text: String, problem: String) {
        let folder = Folder()
        let report = StatusReport(path: folder.file("s.json", text), isRunning: Self.alive)
        #expect(report.health == .noStatus && report.health.rawValue == 3)
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix(problem), "\(report.problems)")
    }

    @Test func missingFileFolderAndGoneWriterAreNoStatus() {
        let folder = Folder()
        let missing = StatusReport(path: folder.dir + "/none.json", isRunning: Self.alive)
        #expect(missing.health == .noStatus && missing.problems[0].hasPrefix("no status file"))
        #expect(StatusReport(path: folder.dir, isRunning: Self.alive).problems == ["the status file is a directory, not a regular file"])
        let gone = StatusReport(path: folder.file("s.json", Self.status(pid: 999_999).json), isRunning: Self.alive)
        #expect(gone.health == .noStatus && gone.problems == ["the kiosk that wrote the status file (pid 999999) is not running"])
        #expect(gone.status != nil)
    }

    @Test func processExistsForThisProcessOnly() {
        #expect(StatusReport.processExists(getpid()))
        #expect(StatusReport.processExists(1))  // EPERM or not: PID 1 exists
        #expect(!StatusReport.processExists(0) && !StatusReport.processExists(-1))
    }

    @Test func jsonVerdictIsJSON() throws {
        let folder = Folder()
        let report = StatusReport(path: folder.file("s.json", Self.status(valid: false).json), isRunning: Self.alive)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["health"] as? String == "unhealthy")
        #expect(object["exit_status"] as? Int == 1)
        #expect((object["status"] as? [String: Any])?["generation"] as? Int == 3)
        #expect(try StatusJSONReader.parse(report.json)["file"]?.stringValue == folder.dir + "/s.json")
    }

    // MARK: The JSON reader

    @Test(arguments: [
        "{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\\\"\"], \"b\": {}}",
        "  [ ]  ", "0", "-0.0", "1E+2", "\"\\/\\b\\f\\r\\t\"",
    ])
    func readsWhatFoundationReads(text: String) throws {
        let ours = try StatusJSONReader.parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        #expect(Self.same(ours, theirs), "\(ours.json) vs \(theirs)")
    }

    @Test(arguments: ["{", "{\"a\" 1}", "01", "1.", "-", "\"\\x\"", "\"a\u{1}\"", "nul", "[1 2]"])
    func rejectsWhatFoundationRejects(text: String) {
        #expect(throws: StatusJSONError.self) { try StatusJSONReader.parse(text) }
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) }
    }

    /// Where readers differ, ours keeps to RFC 8259: a lone surrogate is no scalar, 1e999 no
    /// finite number, and trailing commas (which Foundation lets through) are not JSON.
    @Test(arguments: ["[1,]", "{\"a\":1,}", "\"\\ud800\"", "\"\\udc00x\"", "1e999", "\"\\u12\""])
    func rejectsWhatHasNoExactValue(text: String) {
        #expect(throws: StatusJSONError.self) { try StatusJSONReader.parse(text) }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: StatusJSONError(reason: "nested more than 64 deep", offset: 64)) { try StatusJSONReader.parse(deep) }
    }

    #if canImport(PropertyBased)
    /// Whatever the writer writes, the reader reads back the same (strings with any scalar).
    @Test func writerAndReaderRoundTrip() async {
        let scalar = Gen.int(in: 0...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }
        let text = scalar.array(of: 0...12).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 300, input: text.array(of: 0...6), Gen.int(in: Int.min...Int.max)) { strings, number in
            let value = StatusValue.object([("strings", .array(strings.map { .string($0) })), ("n", .int(number)), ("ok", .bool(number > 0))])
            #expect((try? StatusJSONReader.parse(value.json)) == value)
        }
    }
    #endif

    static func same(_ ours: StatusValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b): return theirs as? Bool == b
        case .int(let i): return (theirs as? NSNumber)?.int64Value == Int64(i)
        case .double(let d): return (theirs as? NSNumber)?.doubleValue == d
        case .string(let s): return theirs as? String == s
        case .array(let a):
            guard let t = theirs as? [Any], t.count == a.count else { return false }
            return zip(a, t).allSatisfy { same($0, $1) }
        case .object(let o):
            guard let t = theirs as? [String: Any], t.count == o.count else { return false }
            return o.allSatisfy { k, v in t[k].map { same(v, $0) } ?? false }
        }
    }
}
