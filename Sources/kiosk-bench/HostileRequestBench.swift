import DRMOutput
import Kiosk
import KioskConfiguration
import KioskSystem
#if canImport(Glibc)
import Glibc
#endif

/// `kiosk-bench --hostile-requests`: what oversized requests from outside cost a running kiosk (a
/// Runtime on a headless output, as `kiosk run` has it, with the D-Bus API on a private
/// dbus-daemon and `[mqtt]` on a private Mosquitto): for each request, what the caller got back,
/// the kiosk's peak resident memory while it came (VmHWM, reset before each) against its resident
/// memory before, the longest the event loop went without turning, and how long a GetState
/// takes after it. The senders are other processes (this program as a D-Bus client,
/// mosquitto_pub), so the peaks are the kiosk's own. BENCHMARKS.md, "Trust".
func runHostileRequestBenchmark(_ arguments: [String]) {
    #if DEBUG
    print("warning: this is a debug build; run `swift run -c release kiosk-bench` for real figures")
    #endif
    // The allocator as `kiosk run` sets it: a freed 20 MB block is given back, not kept as heap.
    FreedMemory.pinAllocatorSettings()
    var template = Array("/tmp/kiosk-bench-hostile-XXXXXX".utf8CString)
    let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    var started: [pid_t] = []
    defer {
        for pid in started { kill(pid, SIGKILL); waitpid(pid, nil, 0) }
        for name in (try? Directory.names(in: dir)) ?? [] { unlink(dir + "/" + name) }
        rmdir(dir)
    }
    do {
        let bus = "unix:path=\(dir)/bus"
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        started.append(try ProcessLauncher.start(Command(argv: ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile",
                                                                  "--address=\(bus)"]), output: null, errors: null))
        let port = 20000 + Int(getpid() % 20000)
        let mosquitto = access("/usr/sbin/mosquitto", X_OK) == 0 && access("/usr/bin/mosquitto_pub", X_OK) == 0
        if mosquitto {
            try writeFile(dir + "/mosquitto.conf", "listener \(port) 127.0.0.1\nallow_anonymous true\n")
            started.append(try ProcessLauncher.start(Command(argv: ["/usr/sbin/mosquitto", "-c", dir + "/mosquitto.conf"]),
                                                     output: null, errors: null))
        } else {
            print("hostile-requests: no mosquitto and mosquitto_pub (apt install mosquitto mosquitto-clients): the MQTT rows are left out")
        }
        let mqtt = mosquitto ? "[mqtt]\nbroker = \"mqtt://127.0.0.1:\(port)\"\nclient_id = \"kiosk-bench\"\ntopic_prefix = \"bench\"\n" : ""
        try writeFile(dir + "/kiosk.toml", """
            home = "main"
            status_file = "\(dir)/status.json"
            [control]
            dbus = true
            \(mqtt)
            [screens.main]
            style = "list"
            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "reading"
            label = "Reading {value}"
            action = "back"
            value = { api = true }
            publish = true

            """)
        let check = ConfigReader(path: dir + "/kiosk.toml").check()
        guard let config = check.config else {
            print("hostile-requests: the bench config is invalid: \(check.report)")
            return
        }
        let output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
        let app = try KioskApp(config: config, width: 800, height: 480, now: MonotonicClock.now())
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: Runtime.Options(controlBus: .address(bus)), startup: StartupTimeline())
        try runtime.start()
        // Until the API is on the bus and the broker link is up (or 10 s).
        let ready = MonotonicClock.now() + 10
        while MonotonicClock.now() < ready, runtime.controlAPI != .ready || (mosquitto && runtime.mqttHealth?.state != .connected) {
            try runtime.runOnce(timeout: 0.05)
        }
        let settle = MonotonicClock.now() + 1
        while MonotonicClock.now() < settle { try runtime.runOnce(timeout: 0.05) }
        print("hostile-requests: D-Bus API \(runtime.controlAPI), MQTT \(runtime.mqttHealth?.state.rawValue ?? "off"); "
              + "the kiosk's VmRSS \(statusKiB("VmRSS")) KiB")

        // A sender: another process, while the loop turns here; its output is the caller's answer.
        func measure(_ name: String, _ argv: [String]) throws {
            let rssBefore = statusKiB("VmRSS")
            resetPeak()
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw SystemError.last("pipe") }
            let pid = try ProcessLauncher.start(Command(argv: argv), output: fds[1], errors: fds[1])
            close(fds[1])
            var said: [UInt8] = []
            var longest = 0.0
            var last = MonotonicClock.now()
            var exited = false
            let end = MonotonicClock.now() + 60
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
            while MonotonicClock.now() < end {
                try runtime.runOnce(timeout: 0.01)
                let now = MonotonicClock.now()
                longest = max(longest, now - last)
                last = now
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(fds[0], &buffer, buffer.count)
                if n > 0 { said += buffer[..<n] }
                if !exited, waitpid(pid, nil, WNOHANG) == pid { exited = true }
                if exited, n <= 0 { break }
            }
            close(fds[0])
            if !exited { kill(pid, SIGKILL); waitpid(pid, nil, 0) }
            // A second more of passes: the message may reach the kiosk after its sender ended.
            let more = MonotonicClock.now() + 1
            while MonotonicClock.now() < more {
                try runtime.runOnce(timeout: 0.01)
                let now = MonotonicClock.now()
                longest = max(longest, now - last)
                last = now
            }
            let peak = statusKiB("VmHWM")
            let t0 = MonotonicClock.now()
            _ = runtime.control.handle(.state, from: .bus)
            let state = MonotonicClock.now() - t0
            let answer = String(decoding: said, as: UTF8.self).split(separator: "\n").first.map { String($0.prefix(110)) } ?? "(nothing)"
            print("hostile-requests \(name): peak RSS \(peak) KiB (+\(peak - rssBefore) over \(rssBefore)), "
                  + "longest loop gap \(ms(longest)) ms, GetState after it \(ms(state)) ms; the caller got: \(answer)")
        }
        let executable = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : "/proc/self/exe"
        try measure("D-Bus SetValue of 20 MB", [executable, "--dbus-call", bus, "set-value", "20000000"])
        try measure("D-Bus Notify of 20 MB", [executable, "--dbus-call", bus, "notify", "20000000"])
        try measure("D-Bus SetValue of 20 MB, again", [executable, "--dbus-call", bus, "set-value", "20000000"])
        if mosquitto {
            let big = dir + "/payload"
            for (label, bytes) in [("1 MB", 1_000_000), ("100 MB", 100_000_000)] {
                let fd = open(big, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                let chunk = [UInt8](repeating: UInt8(ascii: "7"), count: 1 << 20)
                var left = bytes
                while left > 0 {
                    let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, min(left, chunk.count)) }
                    guard n > 0 else { break }
                    left -= n
                }
                close(fd)
                try measure("MQTT value message of \(label)", ["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)",
                                                                "-t", "bench/cmd/value/reading", "-f", big])
            }
            if case .success(.state(let state)) = runtime.control.handle(.state, from: .bus) {
                let text = state.values.first { $0.id == "reading" }?.text ?? "none"
                print("hostile-requests: the kiosk's VmRSS at the end \(statusKiB("VmRSS")) KiB")
            print("hostile-requests: the value afterwards: \"\(text.prefix(40))\" (\(text.utf8.count) bytes; refused messages leave it as it was)")
            }
        }
    } catch {
        print("hostile-requests: \(error)")
    }
}

/// `kiosk-bench --dbus-call ADDRESS set-value|notify BYTES`: the D-Bus sender of
/// `--hostile-requests`, a process of its own. Prints the kiosk's answer.
func runDBusCall(_ arguments: [String]) {
    guard arguments.count == 3, let bytes = Int(arguments[2]) else {
        print("usage: kiosk-bench --dbus-call ADDRESS set-value|notify BYTES")
        return
    }
    let text = String(repeating: "7", count: bytes)
    let request: ControlRequest = arguments[1] == "notify" ? .notify(text: text, seconds: 5, level: .info) : .setValue(id: "reading", text: text)
    do {
        _ = try ControlClient(address: arguments[0], timeout: 60).send(request)
        print("done")
    } catch {
        print("refused: \(error)")
    }
}

/// A line of /proc/self/status, in KiB.
private func statusKiB(_ key: String) -> Int {
    let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let n = read(fd, &bytes, bytes.count)
    let text = String(decoding: bytes[..<max(n, 0)], as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// Resets VmHWM to the current RSS (`clear_refs` 5).
private func resetPeak() {
    let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = write(fd, "5", 1)
    close(fd)
}

private func ms(_ seconds: Double) -> String { "\((seconds * 10_000).rounded() / 10)" }
