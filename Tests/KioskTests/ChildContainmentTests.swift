import Foundation
import Glibc
@testable import Kiosk
@testable import KioskConfiguration
import TestSupport
import Testing

/// What the kiosk starts is contained: a child holds descriptors 0, 1 and 2 only, and what a
/// value command forks ends with it, at its timeout, and when the kiosk stops.
@Suite(.serialized) struct ChildContainmentTests {
    /// Runs `sh -c script` as a probe with its output to a pipe; waits (up to 10 s) until it is
    /// reaped and returns its output.
    func probe(_ children: ChildProcesses, _ script: String) throws -> String {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let pid = try children.startProbe(Command(argv: ["sh", "-c", script]), output: fds[1])
        close(fds[1])
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[..<n]
        }
        close(fds[0])
        #expect(ChildConfinementTests.ended(pid, children))
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `pid` is gone or a zombie (killed, waiting for its new parent to reap it).
    func ended(_ pid: pid_t) -> Bool {
        guard let f = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 512)
        guard fgets(&line, 512, f) != nil else { return true }
        let text = String(cString: line)
        guard let close = text.lastIndex(of: ")") else { return true }
        return text[text.index(close, offsetBy: 2)] == "Z"
    }

    /// A descriptor the kiosk (or a library of it) opened without close-on-exec is not passed on.
    @Test func childSeesOnlyItsStandardDescriptors() throws {
        var leaky: [Int32] = [0, 0]
        #expect(pipe(&leaky) == 0)  // no O_CLOEXEC, as libmosquitto's socketpair
        defer { close(leaky[0]); close(leaky[1]) }
        let children = ChildProcesses()
        let out = try probe(children, "for n in \(leaky[0]) \(leaky[1]) 3 4 5 6 7 8 9; do [ -e /proc/self/fd/$n ] && echo \"open $n\"; done; echo done")
        #expect(out == "done\n", "the child held: \(out)")
    }

    /// `sh -c 'sleep 1000 >/dev/null & echo $!'` returns at once and leaves its sleep: the sleep
    /// ends with it.
    @Test func whatAProbeLeavesBehindEndsWithIt() throws {
        let children = ChildProcesses()
        let out = try probe(children, "sleep 1000 >/dev/null & echo $!")
        let left = try #require(pid_t(out.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(waitUntil { ended(left) }, "the probe's child \(left) outlived it")
        if !ended(left) { kill(left, SIGKILL) }
    }

    /// A probe past its timeout is killed with everything it started.
    @Test func aTimedOutProbeEndsWithItsChildren() throws {
        let children = ChildProcesses()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let pid = try children.startProbe(Command(argv: ["sh", "-c", "sleep 1000 & echo $!; wait"]), output: fds[1])
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fds[0], &buffer, buffer.count)
        close(fds[0])
        let sleeper = try #require(pid_t(String(decoding: buffer[..<max(n, 0)], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        children.kill(probe: pid)
        #expect(ChildConfinementTests.ended(pid, children))
        #expect(waitUntil { ended(sleeper) }, "the timed-out probe's child \(sleeper) survived")
        if !ended(sleeper) { kill(sleeper, SIGKILL) }
    }

    /// When the kiosk stops, a background program's group ends (SIGTERM), what it forked included.
    @Test func backgroundProgramsEndWhenTheKioskStops() throws {
        let children = ChildProcesses()
        let marker = "/tmp/kiosk-containment-\(getpid())"
        defer { unlink(marker) }
        let pid = try children.start(.spawn(Command(argv: ["sh", "-c", "sleep 1000 & echo $! > \(marker); wait"]), label: "bg"))
        #expect(waitUntil { access(marker, R_OK) == 0 && ((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").hasSuffix("\n") })
        let sleeper = try #require(pid_t(((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(getpgid(pid) == pid, "the background program does not lead its own group")
        children.endAll()
        #expect(waitUntil { !children.reap().isEmpty || ended(pid) })
        #expect(waitUntil { ended(sleeper) }, "the background program's child \(sleeper) survived the kiosk's stop")
        if !ended(sleeper) { kill(sleeper, SIGKILL) }
    }
}
