import Foundation
@testable import DRMOutput
import Glibc
@testable import Kiosk
import KioskConfiguration
@testable import KioskSystem
import TestSupport
import Testing

/// The control API over a real D-Bus daemon (a private one, so the test needs no system bus):
/// the runtime takes the name, `busctl` (an independent client) and `ControlClient` (`kiosk ctl`)
/// call it, wrong types and unknown names get clear errors, a flood of calls is answered while
/// frames go on, and a name already taken leaves the kiosk running without the API.
@Suite(.serialized) struct DBusControlTests {
    /// A dbus-daemon with the session policy (everything allowed to its user) on a socket of its
    /// own. It is always ended, a test that fails included (deinit runs when the test's scope
    /// ends): SIGTERM, then SIGKILL after a grace of two seconds (a daemon once ignored SIGTERM
    /// and outlived its test run).
    final class Daemon {
        let scratch = ScratchDirectory()
        private(set) var pid: pid_t
        let address: String
        var socket: String { String(address.dropFirst("unix:path=".count)) }

        init() throws {
            address = "unix:path=\(scratch.path)/bus"
            pid = 0
            try start()
        }

        /// A daemon at `directory`/bus (a kiosk waits for a bus there).
        init(socketIn directory: ScratchDirectory) throws {
            address = "unix:path=\(directory.path)/bus"
            pid = 0
            try start()
        }

        /// A daemon on the address (again, after `kill()`: the bus restarted).
        func start() throws {
            unlink(socket)
            // Started and ended by hand: a runtime's signalfd takes SIGCHLD, which Foundation's
            // Process would wait for.
            pid = try ProcessLauncher.start(Command(argv: ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile",
                                                           "--address=\(address)"]))
            let deadline = MonotonicClock.now() + Patience.seconds
            while access(socket, F_OK) != 0, MonotonicClock.now() < deadline { usleep(10_000) }
        }

        /// Ends the daemon as a crash would (every client's connection drops).
        func crash() {
            guard pid > 0 else { return }
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
        }

        deinit {
            guard pid > 0 else { return }
            Self.end(pid)
        }

        /// SIGTERM, and SIGKILL when `pid` has not ended after `grace` seconds; reaped either way.
        static func end(_ pid: pid_t, grace: Double = 2) {
            Glibc.kill(pid, SIGTERM)
            var status: Int32 = 0
            let deadline = MonotonicClock.now() + grace
            while waitpid(pid, &status, WNOHANG) == 0 {
                if MonotonicClock.now() > deadline {
                    Glibc.kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    return
                }
                usleep(10_000)
            }
        }
    }

    /// The test buses' end: a process that ignores SIGTERM (as a dbus-daemon once did) is killed.
    @Test func aBusIgnoringTERMIsKilledAfterItsGrace() throws {
        let scratch = ScratchDirectory()
        let trapped = scratch.path + "/trapped"
        let pid = try ProcessLauncher.start(Command(argv: ["/bin/sh", "-c", "trap '' TERM; : > \"$1\"; while :; do sleep 1; done", "sh", trapped]))
        let deadline = MonotonicClock.now() + Patience.seconds
        while access(trapped, F_OK) != 0, MonotonicClock.now() < deadline { usleep(10_000) }
        let started = MonotonicClock.now()
        Daemon.end(pid, grace: 0.5)
        #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH)
        #expect(MonotonicClock.now() - started >= 0.5)
    }

    static let toml = """
        home = "main"

        [screens.main]
        style = "list"
        title = "Boiler room"

        [[screens.main.sections]]
        [[screens.main.sections.items]]
        id = "pressure"
        label = "Pressure {value}"
        action = "back"
        value = { api = true, format = "%.1f", unit = "bar" }

        [[screens.main.sections.items]]
        label = "Pumps"
        action = "screen"
        screen = "pumps"

        [screens.pumps]
        style = "list"
        title = "Pumps"

        [[screens.pumps.sections]]
        [[screens.pumps.sections.items]]
        label = "Back"
        action = "back"

        """

    final class Running {
        let scratch = ScratchDirectory()
        let app: KioskApp
        let runtime: Runtime
        let output: HeadlessOutput

        init(bus: String, toml: String = DBusControlTests.toml, imageDisk: ImageDisk? = nil) throws {
            let check = ConfigReader(path: scratch.write("kiosk.toml", toml), displayName: "kiosk.toml",
                                     searchPath: "/usr/bin:/bin").check()
            let config = try #require(check.config)
            app = try KioskApp(config: config, width: 320, height: 240, now: MonotonicClock.now())
            output = try HeadlessOutput(panelWidth: 320, panelHeight: 240, rotation: .none)
            runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(statusFile: scratch.path + "/status.json", controlBus: .address(bus),
                                                           imageDisk: imageDisk),
                                  startup: StartupTimeline())
            try runtime.start()
        }

        func turn(until done: () -> Bool) throws {
            let deadline = MonotonicClock.now() + Patience.seconds
            while !done(), MonotonicClock.now() < deadline { try runtime.runOnce(timeout: 0.02) }
        }

        /// Runs `busctl` against the bus while the loop turns; its exit status and what it printed
        /// (stdout and stderr). Started and reaped as the kiosk starts programs: the runtime's
        /// signalfd takes SIGCHLD, so Foundation's Process would never see it end.
        func busctl(_ bus: String, _ args: [String]) throws -> (status: Int32, out: String) {
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            defer { close(fds[0]) }
            let command = Command(argv: ["/bin/sh", "-c", "exec /usr/bin/busctl \"$@\" 2>&1", "busctl", "--address=\(bus)", "--timeout=\(Int(Patience.seconds))"] + args)
            let pid = try ProcessLauncher.start(command, output: fds[1])
            close(fds[1])
            var code: Int32?
            try turn {
                if let ended = ProcessLauncher.reap([pid]).first { code = ended.code ?? -1 }
                return code != nil
            }
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
                if n <= 0 { break }
                out += buffer.prefix(n)
            }
            return (code ?? -1, String(decoding: out, as: UTF8.self))
        }
    }

    static let call = ["call", DBusNames.service, DBusNames.path, DBusNames.interface]

    @Test func busctlDrivesTheKiosk() throws {
        let daemon = try Daemon()
        let k = try Running(bus: daemon.address)
        try k.turn { k.runtime.controlAPI == .ready }
        #expect(k.runtime.controlAPI == .ready)

        var r = try k.busctl(daemon.address, Self.call + ["ShowScreen", "s", "pumps"])
        #expect(r.status == 0, "\(r.out)")
        try k.turn { k.app.screenNames == ["main", "pumps"] }
        #expect(k.app.screenNames == ["main", "pumps"])

        r = try k.busctl(daemon.address, Self.call + ["Notify", "sds", "Boiler serviced at 14:00", "6", "warning"])
        #expect(r.status == 0, "\(r.out)")
        #expect(k.app.bannerText == "Warning: Boiler serviced at 14:00")

        r = try k.busctl(daemon.address, Self.call + ["SetValue", "ss", "pressure", "1.234"])
        #expect(r.status == 0, "\(r.out)")
        r = try k.busctl(daemon.address, Self.call + ["GetState"])
        #expect(r.out.hasPrefix("sisbua(sssb) \"pumps\" 0 \"Back\" true 1 1 \"pressure\" \"1.2 bar\" \"ok\" false"), "\(r.out)")

        // Errors the caller can read.
        r = try k.busctl(daemon.address, Self.call + ["ShowScreen", "s", "boiler"])
        #expect(r.status != 0 && r.out.contains("no screen named \"boiler\"; the screens are: main, pumps"), "\(r.out)")
        r = try k.busctl(daemon.address, Self.call + ["ShowScreen", "i", "3"])
        #expect(r.status != 0 && r.out.contains("ShowScreen takes (name), signature \"s\"; got \"i\""), "\(r.out)")
        r = try k.busctl(daemon.address, Self.call + ["Notify", "sds", "x", "5", "loud"])
        #expect(r.status != 0 && r.out.contains("level must be info, warning or error"), "\(r.out)")
        r = try k.busctl(daemon.address, Self.call + ["SetToggle", "sb", "pressure", "true"])
        #expect(r.status != 0 && r.out.contains("\"pressure\" is a value, not a toggle"), "\(r.out)")
        r = try k.busctl(daemon.address, Self.call + ["Reboot"])
        #expect(r.status != 0 && r.out.contains("Unknown method"), "\(r.out)")
        r = try k.busctl(daemon.address, ["introspect", DBusNames.service, DBusNames.path])
        #expect(r.status == 0 && r.out.contains(".ShowScreen") && r.out.contains(".ScreenChanged"), "\(r.out)")

        r = try k.busctl(daemon.address, Self.call + ["GoHome"])
        #expect(r.status == 0, "\(r.out)")
        try k.turn { k.app.screenNames == ["main"] }
        // The status file says the API is up.
        let status = StatusReport(path: k.scratch.path + "/status.json")
        #expect(status.status?.controlAPI == .ready)
    }

    /// `requests` sent one after the other by `kiosk ctl`'s client on a thread of its own (its
    /// call waits; the kiosk's loop must turn meanwhile), each one's outcome.
    static func send(_ requests: [ControlRequest], over address: String, to k: Running) throws -> [Result<ControlReply, ControlClientError>] {
        final class Outcome: @unchecked Sendable {
            var results: [Result<ControlReply, ControlClientError>] = []
            var done = false
        }
        let outcome = Outcome()
        let thread = Thread {
            for request in requests {
                do throws(ControlClientError) {
                    outcome.results.append(.success(try ControlClient(address: address, timeout: Patience.seconds).send(request)))
                } catch {
                    outcome.results.append(.failure(error))
                }
            }
            outcome.done = true
        }
        thread.start()
        try k.turn { outcome.done }
        return outcome.results
    }

    @Test func controlClientCallsAndReadsTheState() throws {
        let daemon = try Daemon()
        let k = try Running(bus: daemon.address)
        try k.turn { k.runtime.controlAPI == .ready }
        let results = try Self.send([.showScreen("pumps"), .setValue(id: "pressure", text: "2"), .state, .showScreen("nope")],
                                    over: daemon.address, to: k)
        try #require(results.count == 4)
        #expect(results[0] == .success(.done))
        guard case .success(.state(let s)) = results[2] else {
            Issue.record("no state: \(results[2])")
            return
        }
        #expect(s.screen == "pumps" && s.displayOn && s.generation == 1)
        #expect(s.values.map(\.text) == ["2.0 bar"])
        #expect(results[3] == .failure(.refused("UnknownScreen", "no screen named \"nope\"; the screens are: main, pumps")))
    }

    /// A 20 MB argument is measured where it lies in the message and refused by its length; it
    /// is never copied out (the kiosk's peak memory: BENCHMARKS.md, "Trust"), and the next call
    /// is answered as usual.
    @Test func aHugeArgumentIsRefusedByItsLength() throws {
        let daemon = try Daemon()
        let k = try Running(bus: daemon.address)
        try k.turn { k.runtime.controlAPI == .ready }
        let results = try Self.send([.setValue(id: "pressure", text: String(repeating: "9", count: 20_000_000)), .setValue(id: "pressure", text: "3")],
                                    over: daemon.address, to: k)
        try #require(results.count == 2)
        #expect(results[0] == .failure(.refused("InvalidArgs", "the value has 20000000 bytes; no argument of this API takes more than 65536")))
        #expect(results[1] == .success(.done))
    }

    @Test func aFloodOfCallsIsAnsweredWhileFramesGoOn() throws {
        let daemon = try Daemon()
        let k = try Running(bus: daemon.address)
        try k.turn { k.runtime.controlAPI == .ready }
        final class Outcome: @unchecked Sendable {
            var answered = 0, refused = 0
            var done = false
        }
        let outcome = Outcome()
        let address = daemon.address
        let thread = Thread {
            guard let client = try? ControlClient(address: address, timeout: Patience.seconds) else { outcome.done = true; return }
            for i in 0..<1000 {
                let request: ControlRequest = i % 2 == 0 ? .setValue(id: "pressure", text: "\(i)") : .showScreen("missing\(i)")
                switch Result(catching: { () throws(ControlClientError) in try client.send(request) }) {
                case .success: outcome.answered += 1
                case .failure: outcome.refused += 1
                }
            }
            outcome.done = true
        }
        let framesBefore = k.output.presentedFrames
        let started = MonotonicClock.now()
        thread.start()
        try k.turn { outcome.done }
        let seconds = MonotonicClock.now() - started
        #expect(outcome.answered == 500 && outcome.refused == 500)
        // The loop was never starved: the values set come to the screen. (How many frames fall
        // inside the flood depends on the host's speed: values are redrawn at most every 0.2 s.)
        try k.turn { k.output.presentedFrames > framesBefore }
        #expect(k.output.presentedFrames > framesBefore, "no frame after the calls")
        print("1000 D-Bus calls answered in \(String(format: "%.2f", seconds)) s")
    }

    @Test func aNameAlreadyTakenLeavesTheKioskRunningWithoutTheAPI() throws {
        let daemon = try Daemon()
        let first = try Running(bus: daemon.address)
        try first.turn { first.runtime.controlAPI == .ready }
        let second = try Running(bus: daemon.address)
        try second.turn { second.runtime.controlAPI != .starting }
        guard case .unavailable(let why) = second.runtime.controlAPI else {
            Issue.record("the second kiosk's API: \(second.runtime.controlAPI)")
            return
        }
        #expect(why.contains("org.kiosk.Kiosk1 is taken by another process"))
        try second.turn { second.output.presentedFrames > 0 }
        #expect(second.output.presentedFrames > 0)
        // The status file follows at the end of the next pass.
        let path = second.scratch.path + "/status.json"
        try second.turn { StatusReport(path: path).status?.controlAPI?.word == "unavailable" }
        let status = StatusReport(path: path)
        #expect(status.status?.controlAPI == second.runtime.controlAPI && status.text.contains("is taken by another process"))
    }

    @Test func noBusLeavesTheKioskRunningWithoutTheAPIAndItConnectsWhenTheBusComes() throws {
        let scratch = ScratchDirectory()
        let k = try Running(bus: "unix:path=\(scratch.path)/bus")
        guard case .retrying(let why) = k.runtime.controlAPI else {
            Issue.record("the API: \(k.runtime.controlAPI)")
            return
        }
        #expect(why.contains("cannot connect to the bus at unix:path="))
        try k.turn { k.output.presentedFrames > 0 }
        #expect(k.output.presentedFrames > 0)
        // The bus comes up at that address: the next retry (1 s after the first) finds it.
        let daemon = try Daemon(socketIn: scratch)
        _ = daemon
        try k.turn { k.runtime.controlAPI == .ready }
        #expect(k.runtime.controlAPI == .ready && k.runtime.controlAPIConnects == 1)
    }

    /// The bus daemon goes away under a running kiosk and comes back: the kiosk notices the hang-up,
    /// says so in its status, connects again and takes its name back; callers reach it again.
    @Test func aLostBusIsReconnected() throws {
        let daemon = try Daemon()
        let k = try Running(bus: daemon.address)
        try k.turn { k.runtime.controlAPI == .ready }
        #expect(k.runtime.controlAPIConnects == 1)
        daemon.crash()
        try k.turn { k.runtime.controlAPI.word == "retrying" }
        guard case .retrying(let why) = k.runtime.controlAPI else {
            Issue.record("after the bus went away: \(k.runtime.controlAPI)")
            return
        }
        #expect(why.contains("the bus connection ended") || why.contains("cannot connect"), "\(why)")
        let path = k.scratch.path + "/status.json"
        try k.turn { StatusReport(path: path).status?.controlAPI?.word == "retrying" }
        #expect(StatusReport(path: path).text.contains("control API") && StatusReport(path: path).text.contains("retrying"))
        // The menu goes on meanwhile.
        let frames = k.output.presentedFrames
        k.app.notify("Bus restarting", level: .info, seconds: 5, now: MonotonicClock.now())
        k.runtime.control.changed?()
        try k.turn { k.output.presentedFrames > frames }
        #expect(k.output.presentedFrames > frames)
        try daemon.start()
        try k.turn { k.runtime.controlAPI == .ready }
        #expect(k.runtime.controlAPI == .ready && k.runtime.controlAPIConnects == 2)
        let r = try k.busctl(daemon.address, Self.call + ["ShowScreen", "s", "pumps"])
        #expect(r.status == 0, "\(r.out)")
        try k.turn { k.app.screenNames == ["main", "pumps"] }
        #expect(k.app.screenNames == ["main", "pumps"])
        try k.turn { StatusReport(path: path).status?.controlAPI == .ready }
        #expect(StatusReport(path: path).status?.controlAPI == .ready)
    }

    /// `[control] dbus` changed by a reload: the name is given up, then taken again.
    @Test func aReloadTurnsTheAPIOffAndOn() throws {
        let daemon = try Daemon()
        let k = try Running(bus: daemon.address)
        try k.turn { k.runtime.controlAPI == .ready }
        func reload(dbus: Bool) throws {
            let text = Self.toml + "\n[control]\ndbus = \(dbus)\n"
            let check = ConfigReader(path: k.scratch.write("kiosk.toml", text), displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check()
            #expect(k.app.apply(check, now: MonotonicClock.now()))
            k.runtime.control.changed?()
        }
        try reload(dbus: false)
        try k.turn { k.runtime.controlAPI == .off }
        #expect(k.runtime.controlAPI == .off)
        var r = try k.busctl(daemon.address, Self.call + ["GoHome"])
        #expect(r.status != 0 && r.out.contains("org.kiosk.Kiosk1"), "the name is still served: \(r.out)")
        try reload(dbus: true)
        try k.turn { k.runtime.controlAPI == .ready }
        r = try k.busctl(daemon.address, Self.call + ["ShowScreen", "s", "pumps"])
        #expect(r.status == 0, "\(r.out)")
        #expect(k.runtime.controlAPIConnects == 2)
    }
}
