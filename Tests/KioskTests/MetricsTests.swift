import Foundation
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
@testable import KioskSystem
import Testing

/// The metrics file: its exact text, escaping, the once-a-second limit with hand-moved time,
/// a folder that cannot be written, and Prometheus's own checker on a written file.
@Suite struct MetricsTests {
    static func sample() -> KioskMetrics {
        var m = KioskMetrics(startTime: 1_700_000_000.25, configGeneration: 3, configValid: false, screen: "main",
                             displayConnected: true)
        m.reloadsApplied = 2
        m.reloadsRefused = 1
        m.inputDevices = ["touch": 1, "keyboard": 2, "dial": 1]
        m.actions = [ActionOutcome(.spawn, failed: false): 4, ActionOutcome(.exec, failed: true): 1,
                     ActionOutcome(.exec, failed: false): 2]
        m.framesPresented = 120
        m.displayPower = .dimmed
        m.displayWakes = 7
        // Powers of two: the sum is exact.
        for seconds in [0.000244140625, 0.0009765625, 0.001953125, 0.015625, 0.5] { m.frameDrawTime.observe(seconds) }
        return m
    }

    @Test func expositionForAGivenState() {
        #expect(Self.sample().exposition == """
            # HELP kiosk_up 1 while the kiosk runs, 0 after it stopped cleanly.
            # TYPE kiosk_up gauge
            kiosk_up 1
            # HELP kiosk_start_time_seconds When the kiosk started, in seconds since the Unix epoch.
            # TYPE kiosk_start_time_seconds gauge
            kiosk_start_time_seconds 1700000000.25
            # HELP kiosk_config_generation Configs applied since the start (1 for the first).
            # TYPE kiosk_config_generation gauge
            kiosk_config_generation 3
            # HELP kiosk_config_valid 0 while a rescue config runs or the last reload was refused.
            # TYPE kiosk_config_valid gauge
            kiosk_config_valid 0
            # HELP kiosk_config_reloads_total Config reloads, applied or refused (the last good config kept).
            # TYPE kiosk_config_reloads_total counter
            kiosk_config_reloads_total{result="applied"} 2
            kiosk_config_reloads_total{result="refused"} 1
            # HELP kiosk_screen_info The screen shown, as a label.
            # TYPE kiosk_screen_info gauge
            kiosk_screen_info{screen="main"} 1
            # HELP kiosk_display_connected 1 while the display's connector has a display.
            # TYPE kiosk_display_connected gauge
            kiosk_display_connected 1
            # HELP kiosk_display_power_state The panel's power: 1 for the state it is in (on, dimmed, off), 0 for the others.
            # TYPE kiosk_display_power_state gauge
            kiosk_display_power_state{state="on"} 0
            kiosk_display_power_state{state="dimmed"} 1
            kiosk_display_power_state{state="off"} 0
            # HELP kiosk_display_wakes_total Times input woke the panel from off.
            # TYPE kiosk_display_wakes_total counter
            kiosk_display_wakes_total 7
            # HELP kiosk_input_devices Input devices read, by kind (a device counts once for each kind it is).
            # TYPE kiosk_input_devices gauge
            kiosk_input_devices{kind="dial"} 1
            kiosk_input_devices{kind="keyboard"} 2
            kiosk_input_devices{kind="touch"} 1
            # HELP kiosk_actions_total Menu actions by how they ended (a program's when it exits).
            # TYPE kiosk_actions_total counter
            kiosk_actions_total{action="exec",result="ok"} 2
            kiosk_actions_total{action="exec",result="failed"} 1
            kiosk_actions_total{action="spawn",result="ok"} 4
            # HELP kiosk_frames_total Frames handed to the display.
            # TYPE kiosk_frames_total counter
            kiosk_frames_total 120
            # HELP kiosk_frame_draw_seconds Time to draw a frame and hand it to the display.
            # TYPE kiosk_frame_draw_seconds histogram
            kiosk_frame_draw_seconds_bucket{le="0.0005"} 1
            kiosk_frame_draw_seconds_bucket{le="0.001"} 2
            kiosk_frame_draw_seconds_bucket{le="0.002"} 3
            kiosk_frame_draw_seconds_bucket{le="0.004"} 3
            kiosk_frame_draw_seconds_bucket{le="0.008"} 3
            kiosk_frame_draw_seconds_bucket{le="0.016"} 4
            kiosk_frame_draw_seconds_bucket{le="0.032"} 4
            kiosk_frame_draw_seconds_bucket{le="0.064"} 4
            kiosk_frame_draw_seconds_bucket{le="0.128"} 4
            kiosk_frame_draw_seconds_bucket{le="0.256"} 4
            kiosk_frame_draw_seconds_bucket{le="+Inf"} 5
            kiosk_frame_draw_seconds_sum 0.518798828125
            kiosk_frame_draw_seconds_count 5

            """)
    }

    /// The control API's two series: ready or not (the state as a label), and the names granted.
    @Test func controlAPISeries() {
        var m = Self.sample()
        #expect(!m.exposition.contains("kiosk_control_api"))
        m.controlAPI = .init(state: .retrying("the bus connection ended"), connects: 2)
        #expect(m.exposition.contains("""
            # TYPE kiosk_control_api_ready gauge
            kiosk_control_api_ready{state="retrying"} 0
            """))
        #expect(m.exposition.contains("kiosk_control_api_connects_total 2\n"))
        m.controlAPI = .init(state: .ready, connects: 3)
        #expect(m.exposition.contains("kiosk_control_api_ready{state=\"ready\"} 1\n"))
    }

    @Test func labelValuesAreEscaped() {
        #expect(KioskMetrics.escape(#"a\b"c"# + "\nd é") == #"a\\b\"c\nd é"#)
        var m = Self.sample()
        m.screen = "say \"hi\"\\\nnow"
        #expect(m.exposition.contains(#"kiosk_screen_info{screen="say \"hi\"\\\nnow"} 1"# + "\n"))
    }

    /// A burst of changes: the first is written at once, the rest once, a second later, with the
    /// final values; nothing changed, nothing written.
    @Test func atMostOneWriteASecondAndTheLastChangeKept() {
        var writes: [(path: String, text: String)] = []
        let file = MetricsFile(path: "/m/kiosk.prom", write: { writes.append(($0, $1)) })
        var m = Self.sample()
        let t0 = 1000.0
        file.update(m, now: t0)
        #expect(writes.count == 1)
        #expect(file.nextWrite == nil)
        for (i, dt) in [0.1, 0.2, 0.5, 0.9].enumerated() {
            m.framesPresented = 121 + i
            file.update(m, now: t0 + dt)
        }
        #expect(writes.count == 1, "written again within the second")
        #expect(file.nextWrite == t0 + 1)
        file.update(m, now: t0 + 0.99)
        #expect(writes.count == 1)
        file.update(m, now: t0 + 1)  // the loop's timer at nextWrite
        #expect(writes.count == 2)
        #expect(writes[1].text.contains("kiosk_frames_total 124\n"))
        #expect(file.nextWrite == nil)
        file.update(m, now: t0 + 5)
        #expect(writes.count == 2, "written without a change")
        m.configGeneration = 4
        file.update(m, now: t0 + 5)
        #expect(writes.count == 3, "a change after a quiet second is written at once")
        #expect(writes.allSatisfy { $0.path == "/m/kiosk.prom" })
    }

    /// A folder that cannot be made (a file in its way; or read-only): one warning, not
    /// one per write; the next change is tried again and a success says so.
    @Test func anUnwritableFolderIsLoggedOnce() throws {
        let scratch = ScratchDirectory()
        var warnings: [String] = []
        let folder = scratch.path + "/no-such-folder", missing = folder + "/kiosk.prom"
        defer { unlink(missing); rmdir(folder) }
        let file = MetricsFile(path: missing, warn: { warnings.append($0) })
        scratch.write("no-such-folder", "")  // a file where the folder would be made
        var m = Self.sample()
        for i in 0..<5 {
            m.framesPresented = i
            file.update(m, now: Double(i) * 2)
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("no-such-folder") == true)
        #expect(unlink(folder) == 0 && mkdir(folder, 0o755) == 0)
        m.framesPresented = 99
        file.update(m, now: 20)
        #expect(FileManager.default.contents(atPath: missing).map { String(decoding: $0, as: UTF8.self) } == m.exposition)
        #expect(!FileManager.default.fileExists(atPath: missing + ".tmp"))
    }

    /// `metrics_file` in a folder that is not there at boot (under /run): the folder is made at
    /// the first write, which succeeds without a warning, as the status file's always was.
    @Test func aMissingFolderIsMade() throws {
        let scratch = ScratchDirectory()
        var warnings: [String] = []
        let folder = scratch.path + "/run-kiosk", path = folder + "/kiosk.prom"
        defer { unlink(path); rmdir(folder) }
        let m = Self.sample()
        MetricsFile(path: path, warn: { warnings.append($0) }).update(m, now: 0)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } == m.exposition)
        let status = scratch.path + "/status-folder/status.json"
        defer { unlink(status); rmdir(scratch.path + "/status-folder") }
        StatusFile(path: status).update(KioskStatus(pid: 1, config: ConfigStatus(generation: 1, valid: true)))
        #expect(FileManager.default.fileExists(atPath: status))
    }

    /// `PublishedFile`, the one place that makes the folder: one level only (two missing name the
    /// folder it could not make), an existing folder is used as it is, a bare name has no folder.
    @Test func publishedFileMakesOneFolderLevel() throws {
        let scratch = ScratchDirectory()
        let deep = scratch.path + "/a/b/kiosk.prom"
        #expect(throws: SystemError("mkdir \(scratch.path)/a/b", errno: ENOENT)) { try PublishedFile(path: deep).write("x") }
        #expect(PublishedFile(path: "kiosk.prom").folder == nil && PublishedFile(path: "/kiosk.prom").folder == nil)
        try PublishedFile(path: scratch.path + "/here.prom").write("y\n")
        #expect(FileManager.default.contents(atPath: scratch.path + "/here.prom") == Data("y\n".utf8))
    }

    /// `metrics_file`: absent is none, relative is resolved like `status_file`, empty is an error,
    /// a name node_exporter would not read is a warning; a misspelling is suggested.
    @Test func metricsFileKey() throws {
        let scratch = ScratchDirectory()
        func check(_ line: String) -> ConfigCheck {
            ConfigReader(path: scratch.write("k.toml", line + "\n" + minimalConfig()), displayName: "k.toml").check()
        }
        #expect(try #require(check("").config).metricsFile == nil)
        #expect(try #require(check(#"metrics_file = "m/kiosk.prom""#).config).metricsFile == scratch.path + "/m/kiosk.prom")
        #expect(check(#"metrics_file = """#).problems.map(\.description)
                == ["k.toml:1:16: metrics_file: expected a path; leave the key out for no metrics"])
        #expect(check(#"metrics_file = "/var/lib/kiosk.txt""#).problems.map(\.description)
                == ["k.toml:1:16: metrics_file: warning: node_exporter's textfile collector reads only *.prom files"])
        #expect(check(#"metrics_fle = "/x.prom""#).problems.map(\.description)
                == [#"k.toml:1:1: metrics_fle: unknown key (did you mean "metrics_file"?)"#])
    }

    /// `promtool check metrics` (Debian's `prometheus` package) on a file the kiosk wrote.
    @Test func promtoolChecksTheWrittenFile() throws {
        let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let promtool else {
            Issue.record("promtool is missing: install Debian's prometheus package (apt-get install --no-install-recommends prometheus; scripts/install-deps does)")
            return
        }
        let scratch = ScratchDirectory()
        let path = scratch.path + "/kiosk.prom"
        var m = Self.sample()
        m.controlAPI = .init(state: .ready, connects: 1)
        m.screen = "quote \" backslash \\ newline \n é"
        MetricsFile(path: path).update(m, now: 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: promtool)
        process.arguments = ["check", "metrics"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "promtool check metrics: \(said)")
        #expect(said.isEmpty, "promtool check metrics: \(said)")
    }
}
