import DRMOutput
import Kiosk
import KioskConfiguration
import KioskSystem
#if canImport(Glibc)
import Glibc
#endif

/// `kiosk-bench --live-values [SECONDS] [COUNT]`: the CPU that COUNT (default 20) live values
/// refreshing every second cost a running kiosk (a Runtime on a headless output, as `kiosk run`
/// has it), measured with getrusage over SECONDS (default 20): the kiosk process itself and its
/// children (the value commands), for values from a command (`/bin/date +%s.%N`: a new value at
/// every reading, so the screen is built again every second), from a file (rewritten four times a
/// second), and for the same screen without values. Prints CPU as a percentage of one core.
/// With BROKER (`HOST:PORT`, `kiosk-bench --live-values 20 20 127.0.0.1:1883`), the command case
/// again with `[mqtt]`: every new value is published (the link thread's CPU is the process's).
func runLiveValueBenchmark(_ arguments: [String]) {
    let seconds = arguments.first.flatMap(Double.init) ?? 20
    let count = arguments.dropFirst().first.flatMap(Int.init) ?? 20
    let broker = arguments.dropFirst(2).first
    #if DEBUG
    print("warning: this is a debug build; run `swift run -c release kiosk-bench` for real figures")
    #endif
    var template = Array("/tmp/kiosk-bench-live-XXXXXX".utf8CString)
    let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    defer {
        for name in ["kiosk.toml", "value", "status.json"] { unlink(dir + "/" + name) }
        rmdir(dir)
    }
    do {
        try writeFile(dir + "/value", "21.5\n")
        for kind in ["none", "file", "command"] + (broker == nil ? [] : ["command+mqtt"]) {
            var items = ""
            for i in 0..<count {
                items += "[[screens.main.sections.items]]\nid = \"v\(i)\"\nlabel = \"Value \(i) {value}\"\naction = \"back\"\n"
                switch kind {
                case "file": items += "value = { file = \"\(dir)/value\", every = 1, format = \"%.1f\" }\n"
                case "command", "command+mqtt": items += "value = { command = [\"/bin/date\", \"+%s.%N\"], every = 1, format = \"%.2f\" }\n"
                default: items = items.replacing("{value}", with: "21.5")
                }
            }
            let mqtt = kind == "command+mqtt" ? "[mqtt]\nbroker = \"\(broker ?? "")\"\nclient_id = \"kiosk-bench\"\n" : ""
            try writeFile(dir + "/kiosk.toml", "home = \"main\"\nstatus_file = \"\(dir)/status.json\"\n" + mqtt
                          + "[screens.main]\nstyle = \"list\"\n[[screens.main.sections]]\n" + items)
            let check = ConfigReader(path: dir + "/kiosk.toml").check()
            guard let config = check.config else {
                print("live-values: the bench config is invalid: \(check.report)")
                return
            }
            let output = try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
            let app = try KioskApp(config: config, width: 800, height: 480, now: MonotonicClock.now())
            let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                      options: Runtime.Options(), startup: StartupTimeline())
            try runtime.start()
            // One second to settle (the first readings), then the measured span.
            let settle = MonotonicClock.now() + 1
            while MonotonicClock.now() < settle { try runtime.runOnce(timeout: 0.1) }
            let before = (own: cpuSeconds(RUSAGE_SELF.rawValue), children: cpuSeconds(RUSAGE_CHILDREN.rawValue))
            let start = MonotonicClock.now()
            var written = start
            while MonotonicClock.now() - start < seconds {
                try runtime.runOnce(timeout: 0.05)
                if MonotonicClock.now() - written >= 0.25 {
                    written = MonotonicClock.now()
                    try writeFile(dir + "/value", "\(written)\n")
                }
            }
            let elapsed = MonotonicClock.now() - start
            let own = cpuSeconds(RUSAGE_SELF.rawValue) - before.own, children = cpuSeconds(RUSAGE_CHILDREN.rawValue) - before.children
            let ok = app.values.health(now: MonotonicClock.now()).filter { $0.state == .ok }.count
            let label = kind == "none" ? "\(count) fixed labels (no values)"
                : kind == "command+mqtt" ? "\(count) values from a command, every 1 s, published to MQTT (\(runtime.mqttHealth?.state.rawValue ?? "no link"))"
                : "\(count) values from a \(kind), every 1 s"
            print("live-values \(label): kiosk \(percent(own, elapsed)) CPU, children \(percent(children, elapsed)) CPU "
                  + "over \(Int(elapsed)) s; \(ok)/\(kind == "none" ? 0 : count) ok")
        }
    } catch {
        print("live-values: \(error)")
    }
}

private func cpuSeconds(_ who: __rusage_who_t) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

private func percent(_ cpu: Double, _ elapsed: Double) -> String {
    let p = cpu / elapsed * 100
    return p < 10 ? "\((p * 100).rounded() / 100)%" : "\((p * 10).rounded() / 10)%"
}
