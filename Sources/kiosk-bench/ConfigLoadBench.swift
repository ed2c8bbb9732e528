import Kiosk
#if canImport(Glibc)
import Glibc
import KioskConfiguration
#endif

/// `kiosk-bench --config-loads N [FILE...]`: what one config reload costs off the loop, as the
/// kiosk's load worker does it (`LoadedConfig.load`: read, parse, decode, validate, load the font
/// and decode every image), N times per file with a fresh reader each time (so each load parses,
/// as a reload of a changed file does). Prints ms per load (median and minimum) and the process's
/// RSS before the first load and its peak (VmHWM) after the last. Default files: the example
/// config and the world example. Run one file per process to read one file's peak.
func runConfigLoads(_ arguments: [String]) {
    var args = arguments
    let count = args.first.flatMap { Int($0) } ?? 20
    if !args.isEmpty, Int(args[0]) != nil { args.removeFirst() }
    let files = args.isEmpty ? ["systemd/kiosk.toml", "docs/examples/world.toml"] : args
    #if DEBUG
    print("warning: this is a debug build; run `swift run -c release kiosk-bench` for real figures")
    #endif
    print("VmRSS before: \(procStatus("VmRSS") ?? "?")")
    for file in files {
        var samples: [Double] = []
        var problems = 0
        var valid = true
        for i in 0...count {
            let t0 = BenchClock.nowNanoseconds()
            let loaded = LoadedConfig.load(using: ConfigReader(path: file))
            let elapsed = Double(BenchClock.nowNanoseconds() - t0)
            valid = loaded.check.isValid && loaded.assets != nil
            problems = loaded.check.problems.count
            blackHole(loaded)
            if i > 0 { samples.append(elapsed) }  // the first warms fontconfig's and the page caches
        }
        samples.sort()
        let median = samples.isEmpty ? 0 : samples[samples.count / 2]
        print("config load \(file): \(formatNanoseconds(median)) per load (min \(formatNanoseconds(samples.first ?? 0)), \(samples.count) loads; "
              + "\(valid ? "valid" : "NOT VALID"), \(problems) problem(s))")
    }
    print("VmHWM after: \(procStatus("VmHWM") ?? "?")")
}

/// A field of /proc/self/status ("VmHWM" -> "23456 kB").
func procStatus(_ field: String) -> String? {
    guard let f = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), f) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field + ":") {
            return String(text.dropFirst(field.count + 1).drop { $0 == " " || $0 == "\t" }.prefix { $0 != "\n" })
        }
    }
    return nil
}
