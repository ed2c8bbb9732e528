import Glibc

/// The files other software reads the kiosk's state from: the status file (written when the
/// status changed) and the metrics file (when the values changed, at most once a second), each
/// following its path across reloads. Their contents come from the owners of the values
/// (`KioskStatus`, `KioskMetrics`); this keeps only where and when they are written.
final class ReportFiles {
    /// A status path given to the runtime (a desktop preview), which wins over the config's.
    private let statusOverride: String?
    private var statusFile: StatusFile?
    private var metricsFile: MetricsFile?
    /// Seconds since the Unix epoch at start, for `kiosk_start_time_seconds`.
    let startTime: Double

    init(statusOverride: String?) {
        self.statusOverride = statusOverride
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        startTime = Double(ts.tv_sec) + Double(ts.tv_nsec / 1_000_000) / 1e3
    }

    /// The metrics at `path` (nil: none) as of `now`; `metrics` is asked only when there is a file.
    func updateMetrics(path: String?, now: Double, _ metrics: () -> KioskMetrics) {
        if metricsFile?.path != path { metricsFile = path.map { MetricsFile(path: $0) } }
        metricsFile?.update(metrics(), now: now)
    }

    /// When an owed metrics write is due; nil: nothing owed.
    var nextWrite: Double? { metricsFile?.nextWrite }

    /// The status at the config's `path` (or the override), written if it changed.
    func updateStatus(path: String, _ status: KioskStatus) {
        let path = statusOverride ?? path
        if statusFile?.path != path { statusFile = StatusFile(path: path) }
        statusFile?.update(status)
    }

    /// The last metrics, written whatever the limit (at exit).
    func flushMetrics(_ metrics: () -> KioskMetrics) {
        metricsFile?.flush(metrics())
    }
}
