import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time and a timing loop for benchmarks: runs a body until enough time has passed
/// and reports the median and the minimum of several batches.
enum BenchClock {
    static func nowNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    struct Figure {
        var medianNanoseconds: Double
        var minNanoseconds: Double
        var iterations: Int
    }

    /// Times `body` in `batches` batches, each long enough (~`batchSeconds`) to swamp clock overhead.
    static func measure(batches: Int = 7, batchSeconds: Double = 0.05, _ body: () -> Void) -> Figure {
        // Warm up and size the batch.
        var perBatch = 1
        while true {
            let t0 = nowNanoseconds()
            for _ in 0..<perBatch { body() }
            let elapsed = Double(nowNanoseconds() - t0) / 1e9
            if elapsed >= batchSeconds / 4 || perBatch >= 1 << 24 {
                perBatch = max(1, Int(Double(perBatch) * batchSeconds / max(elapsed, 1e-9)))
                break
            }
            perBatch *= 4
        }
        var samples: [Double] = []
        for _ in 0..<batches {
            let t0 = nowNanoseconds()
            for _ in 0..<perBatch { body() }
            samples.append(Double(nowNanoseconds() - t0) / Double(perBatch))
        }
        samples.sort()
        return Figure(medianNanoseconds: samples[samples.count / 2], minNanoseconds: samples[0], iterations: perBatch * batches)
    }
}

/// Keeps the optimizer from deleting benchmarked work.
@inline(never) func blackHole<T>(_ value: T) { _ = value }

func formatNanoseconds(_ ns: Double) -> String {
    if ns >= 1_000_000 { return (ns / 1_000_000).formatted2 + " ms" }
    if ns >= 1_000 { return (ns / 1_000).formatted2 + " µs" }
    return ns.formatted2 + " ns"
}
