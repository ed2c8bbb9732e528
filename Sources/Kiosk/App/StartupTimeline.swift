import Glibc
import KioskSystem

/// Where start-up time goes, from the creation of the process to the first frame on screen:
/// phases marked as they end, logged once as one line ("start-up: fork→main 40 ms, config
/// 60 ms, ..."). fork→main (under systemd: the sandbox set up in the forked child, exec, loading,
/// the Swift runtime, argument parsing) comes from the process's start time in
/// /proc/self/stat, so it has the kernel's clock-tick resolution.
public struct StartupTimeline {
    private var marks: [(phase: String, at: Double)] = []
    private let processStart: Double?
    private let origin: Double
    private var last: Double

    public init(now: Double = MonotonicClock.now()) {
        let start = Self.processStartTime().flatMap { $0 <= now ? $0 : nil }
        processStart = start
        origin = start ?? now
        last = now
        if start != nil { marks.append(("fork→main", now)) }
    }

    /// Marks the end of `phase`: the time since the previous mark is put down to it.
    public mutating func mark(_ phase: String, now: Double = MonotonicClock.now()) {
        marks.append((phase, now))
        last = now
    }

    /// The duration of the last phase marked, in seconds.
    public var lastPhase: Double {
        guard let l = marks.last else { return 0 }
        let before = marks.count > 1 ? marks[marks.count - 2].at : origin
        return l.at - before
    }

    /// "fork→main 40 ms, config 60 ms, ..., total 900 ms": each phase's own duration.
    public var summary: String {
        var parts: [String] = []
        var previous = origin
        for m in marks {
            parts.append("\(m.phase) \(Self.ms(m.at - previous))")
            previous = m.at
        }
        let total = "\(processStart == nil ? "total since main" : "total since fork") \(Self.ms(last - origin))"
        return (parts + [total]).joined(separator: ", ")
    }

    static func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }

    /// The process's start on CLOCK_MONOTONIC (field 22 of /proc/self/stat is in clock ticks
    /// since boot, CLOCK_BOOTTIME; the difference to CLOCK_MONOTONIC is time spent suspended).
    static func processStartTime() -> Double? {
        guard let f = fopen("/proc/self/stat", "r") else { return nil }
        defer { fclose(f) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), f) != nil else { return nil }
        let line = buffer.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // The command name (field 2) may contain spaces and parentheses: count after the last ')'.
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 is fields[19].
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard hz > 0 else { return nil }
        var boot = timespec(), mono = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let suspended = (Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9) - (Double(mono.tv_sec) + Double(mono.tv_nsec) / 1e9)
        return ticks / hz - suspended
    }
}
