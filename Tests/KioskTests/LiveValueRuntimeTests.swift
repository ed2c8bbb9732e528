@testable import DRMOutput
import Glibc
@testable import Kiosk
import KioskConfiguration
@testable import KioskSystem
import TestSupport
import Testing

/// Live values read by a running runtime from real programs and files: shown on screen, the
/// bad ones (a hang, megabytes, a failure, a missing program, binary data, a file that
/// vanishes) marked stale with the reason in the status file, and the loop never waiting.
@Suite(.serialized) struct LiveValueRuntimeTests {
    final class Running {
        let scratch = ScratchDirectory()
        let app: KioskApp
        let runtime: Runtime

        init(items: String) throws {
            let dir = scratch.path
            // The status in a folder of its own, as on a device (/run/kiosk): launched programs
            // cannot write the status file's folder, and the switch writes beside it.
            mkdir(dir + "/run", 0o755)
            scratch.write("temp", "21.5\n")
            scratch.write("lights", "0\n")
            scratch.write("switch.sh", "#!/bin/sh\necho \"$1\" > \(dir)/lights\n[ \"$1\" = 1 ]\n", mode: 0o755)
            scratch.write("gone.sh", "#!/bin/sh\necho 1\n", mode: 0o755)
            let path = scratch.write("kiosk.toml", """
                home = "main"
                status_file = "\(dir)/run/status.json"

                [screens.main]
                style = "list"
                title = "Live"

                [[screens.main.sections]]
                \(items.replacing("DIR", with: dir))
                """)
            let check = ConfigReader(path: path).check()
            #expect(check.problems.isEmpty, "\(check.report)")
            app = try KioskApp(config: try #require(check.config), width: 800, height: 480, now: MonotonicClock.now())
            let output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
            runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(), startup: StartupTimeline())
            try runtime.start()
        }

        /// The label as read (without the isolate marks around its value).
        func label(_ index: Int) -> String { LiveLabel.plain(app.currentScreen.config.items[index].label) }

        func health(_ id: String) -> ValueHealth? { app.values.health(now: MonotonicClock.now()).first { $0.id == id } }

        /// Turns the loop until `done` (at most `Patience.seconds`).
        func turn(until done: () -> Bool) throws {
            let deadline = MonotonicClock.now() + Patience.seconds
            while !done(), MonotonicClock.now() < deadline {
                // The test runner's other threads may take a child's SIGCHLD (AppTests.turn does the same).
                raise(SIGCHLD)
                try runtime.runOnce(timeout: 0.02)
            }
        }
    }

    static func item(_ id: String, _ value: String) -> String {
        "[[screens.main.sections.items]]\nid = \"\(id)\"\nlabel = \"\(id) {value}\"\naction = \"back\"\nvalue = \(value)\n\n"
    }

    @Test func valuesFromACommandAndAFileUpdateOnScreen() throws {
        let r = try Running(items: Self.item("cmd", #"{ command = ["/bin/cat", "DIR/temp"], every = 0.2, format = "%.1f", unit = "°C" }"#)
                            + Self.item("file", #"{ file = "DIR/temp", every = 0.2 }"#))
        try r.turn { r.label(0) == "cmd 21.5 °C" && r.label(1) == "file 21.5" }
        #expect(r.label(0) == "cmd 21.5 °C" && r.label(1) == "file 21.5")
        r.scratch.write("temp", "22.25\n")
        try r.turn { r.label(0) == "cmd 22.2 °C" && r.label(1) == "file 22.25" }
        #expect(r.label(0) == "cmd 22.2 °C" && r.label(1) == "file 22.25")
        #expect(r.health("cmd")?.state == .ok && r.health("file")?.state == .ok)
        let status = String(decoding: readBytes(r.scratch.path + "/run/status.json"), as: UTF8.self)
        #expect(status.contains(#""values": [{"id": "cmd", "state": "ok", "why": null, "age": "#), "\(status)")
    }

    /// A value only the API sets is never read: no probe runs, the placeholder stays until a set;
    /// a reload that gives it a file while its screen is shown has it read at once.
    @Test func anAPIValueIsNotReadUntilAReloadGivesItASource() throws {
        let r = try Running(items: Self.item("api", #"{ api = true, unit = "°C" }"#))
        // Some turns of the loop: nothing to read.
        for _ in 0..<10 { try r.runtime.runOnce(timeout: 0.02) }
        #expect(r.label(0) == "api —" && r.runtime.probes.running == 0)
        #expect(r.runtime.probes.nextDeadline(panelOff: false) == nil)
        #expect(r.runtime.control.handle(.setValue(id: "api", text: "19"), from: .bus) == .success(.done))
        try r.turn { r.label(0) == "api 19 °C" }
        #expect(r.label(0) == "api 19 °C")
        let text = String(decoding: readBytes(r.scratch.path + "/kiosk.toml"), as: UTF8.self)
            .replacing(#"{ api = true, unit = "°C" }"#, with: #"{ file = "\#(r.scratch.path)/temp", every = 60, unit = "°C" }"#)
        let check = ConfigReader(path: r.scratch.write("kiosk.toml", text)).check()
        #expect(r.app.apply(check, now: MonotonicClock.now()))
        r.runtime.control.changed?()
        try r.turn { r.label(0) == "api 21.5 °C" }
        #expect(r.label(0) == "api 21.5 °C")
    }

    /// A reading in flight whose value a reload drops ends at once with everything it started,
    /// not at its timeout (10 minutes here), and what it would have said is not used.
    @Test func aReloadThatDropsAValueEndsItsReading() throws {
        // Its group's id where launched programs may write (not beside the kept status folder).
        let noted = "/dev/shm/kiosk-test-\(getpid())-reading"
        defer { unlink(noted) }
        let r = try Running(items: Self.item("slow", #"{ command = ["/bin/sh", "-c", "echo $$ > \#(noted); sleep 1000 & sleep 1000; echo 5"], every = 60, timeout = 600 }"#)
                            + Self.item("kept", #"{ file = "DIR/temp", every = 60 }"#))
        func written() -> pid_t? { pid_t(String(decoding: readBytes(noted), as: UTF8.self).split(separator: "\n").first ?? "") }
        try r.turn { written() != nil && r.runtime.probes.running == 1 }
        let group = try #require(written())
        #expect(group > 0 && kill(-group, 0) == 0, "the reading's group is not running")
        let text = String(decoding: readBytes(r.scratch.path + "/kiosk.toml"), as: UTF8.self)
        let without = text.components(separatedBy: "[[screens.main.sections.items]]").filter { !$0.contains("\"slow\"") }
            .joined(separator: "[[screens.main.sections.items]]")
        let check = ConfigReader(path: r.scratch.write("kiosk.toml", without)).check()
        #expect(check.problems.isEmpty, "\(check.report)")
        #expect(r.app.apply(check, now: MonotonicClock.now()))
        r.runtime.control.changed?()
        try r.turn { r.runtime.probes.running == 0 && kill(-group, 0) != 0 }
        #expect(r.runtime.probes.running == 0)
        #expect(kill(-group, 0) != 0, "the dropped reading's group still runs")
        #expect(r.health("kept")?.state == .ok)
    }

    /// A file outside /sys is watched: written in place or replaced by a rename, it shows at
    /// once, long before its `every` (60 s) would read it again.
    @Test func aWatchedFileShowsAtOnce() throws {
        let r = try Running(items: Self.item("file", #"{ file = "DIR/temp", every = 60 }"#))
        try r.turn { r.label(0) == "file 21.5" }
        r.scratch.write("temp", "23\n")
        try r.turn { r.label(0) == "file 23" }
        #expect(r.label(0) == "file 23")
        r.scratch.write("temp.new", "24\n")
        rename(r.scratch.path + "/temp.new", r.scratch.path + "/temp")
        try r.turn { r.label(0) == "file 24" }
        #expect(r.label(0) == "file 24")
    }

    @Test func badCommandsAndFilesAreShownStaleAndNeverBlockTheLoop() throws {
        let r = try Running(items:
            Self.item("hang", #"{ command = ["/bin/sleep", "30"], every = 0.2, timeout = 0.5 }"#)
            + Self.item("flood", #"{ command = ["/usr/bin/seq", "1", "2000000"], every = 5, timeout = 5 }"#)
            + Self.item("fails", #"{ command = ["/bin/false"], every = 5 }"#)
            + Self.item("gone", #"{ command = ["DIR/gone.sh"], every = 0.2 }"#)
            + Self.item("binary", #"{ file = "DIR/binary", every = 0.2 }"#)
            + Self.item("vanish", #"{ file = "DIR/temp", every = 0.2 }"#))
        r.scratch.write("binary", bytes: [0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1])
        // The loop goes on while `sleep` hangs: another value is read and shown before the hang's
        // timeout ends it.
        var readWhileHanging = false
        try r.turn {
            if r.health("hang")?.state == .pending, r.label(3) == "gone 1" { readWhileHanging = true }
            return r.health("hang")?.state == .failed && r.health("flood")?.state == .ok && r.health("gone")?.state == .ok
                && r.label(0) == "hang ⚠ —" && r.label(1) == "flood 1"
        }
        #expect(readWhileHanging)
        #expect(r.health("hang")?.why == "timed out after 0.5 s (killed)")
        #expect(r.label(0) == "hang ⚠ —")
        // 13.9 MB printed, the first line kept.
        #expect(r.label(1) == "flood 1")
        #expect(r.health("fails") == ValueHealth(id: "fails", state: .failed, why: "exited with status 1", age: nil))
        #expect(r.health("binary")?.why == "not text (binary data)" && r.label(4) == "binary ⚠ —")
        // The program and the file disappear: the last good value stays, marked.
        unlink(r.scratch.path + "/gone.sh")
        unlink(r.scratch.path + "/temp")
        // (The labels follow the health within `KioskApp.valueRebuildInterval`.)
        try r.turn { r.health("gone")?.state == .failed && r.health("vanish")?.state == .failed && r.label(3) == "gone ⚠ 1" }
        #expect(r.health("gone")?.why?.hasPrefix("cannot start \(r.scratch.path)/gone.sh: ") == true, "\(String(describing: r.health("gone")))")
        #expect(r.label(3) == "gone ⚠ 1")
        #expect(r.health("vanish")?.why?.hasPrefix("cannot read \(r.scratch.path)/temp: open") == true, "\(String(describing: r.health("vanish")))")
    }

    /// A command that floods its standard error (13 MB, then a last line, then exit 3) is read to
    /// the end without blocking on a full pipe; the log gets one line for it, with that last line
    /// cut to `errorLineCap` characters, not megabytes; what it said stays out of the value's
    /// state (the status file). Its changing words (a counter) do not log it again, and one whose
    /// reason changes every read is held to the budget's lines a minute.
    @Test func aCommandsStandardErrorIsCappedAndNeverFloodsTheLog() throws {
        let r = try Running(items:
            Self.item("noisy", #"{ command = ["/bin/sh", "-c", "seq 1 2000000 >&2; printf 'disk \\033[31mfull\\033[0m after %s reads %0300d\\n' $$ 0 >&2; exit 3"], every = 0.2, timeout = 60 }"#)
            + Self.item("churn", #"{ command = ["/bin/sh", "-c", "[ -e DIR/churn ] || { echo 0; exit 0; }; echo reading $$ >&2; exit $(( $$ % 200 + 1 ))"], every = 0.05, timeout = 60 }"#))
        var lines: [String] = []
        r.runtime.probes.logLine = { _, line in lines.append(line) }
        // The churn fails only once the noisy one has: on a slow run (aarch64 under qemu-user) it
        // would fill the budget before the noisy command's 13 MB were read.
        try r.turn { r.health("noisy")?.state == .failed && lines.count(where: { $0.contains("\"noisy\"") }) >= 1 }
        r.scratch.write("churn", "")
        try r.turn { lines.count(where: { $0.contains("\"churn\"") }) >= 29 }
        // More reads of both: the noisy one's second failure is the same reason, and the budget holds the churn.
        let until = MonotonicClock.now() + 1.5
        try r.turn { MonotonicClock.now() > until }
        #expect(r.health("noisy")?.why == "exited with status 3", "\(String(describing: r.health("noisy")))")
        let noisy = lines.filter { $0.contains("\"noisy\"") }
        #expect(noisy.count == 1, "\(noisy)")
        let line = try #require(noisy.first)
        #expect(line.hasPrefix("value \"noisy\": exited with status 3 (it said: disk  [31mfull [0m after "), "\(line)")
        #expect(line.utf8.count < 300 && line.hasSuffix("…)"), "\(line.utf8.count) bytes: \(line)")
        #expect(!line.contains("\u{1b}"))
        // 30 lines a minute in all: the churn's changing exit status fills no journal.
        #expect(lines.count <= 30, "\(lines.count) lines: \(lines.suffix(3))")
    }

    @Test func aToggleSwitchesThroughItsCommands() throws {
        let r = try Running(items: """
            [[screens.main.sections.items]]
            id = "lights"
            label = "Lights"
            toggle = { file = "DIR/lights", on = ["DIR/switch.sh", "1"], off = ["DIR/switch.sh", "0"], every = 0.2 }

            """)
        try r.turn { r.label(0) == "Lights  ○ Off" }
        r.app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try r.turn { r.label(0) == "Lights  ● On" }
        #expect(String(decoding: readBytes(r.scratch.path + "/lights"), as: UTF8.self) == "1\n")
        // Switching off fails (the script exits 1 for anything but 1): the old state and a banner.
        r.scratch.write("switch.sh", "#!/bin/sh\nexit 1\n", mode: 0o755)
        r.app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try r.turn { r.app.bannerText != nil }
        #expect(r.app.bannerText == "Lights: could not switch off: exited with status 1")
        #expect(r.label(0) == "Lights  ● On")
    }
}
