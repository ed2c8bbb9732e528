/// At most `lines` log lines from one source in each `window` of seconds: a caller repeating a
/// request thousands of times a second fills no log and no disk. What was held back is counted
/// and said with the source's first line of a later window ("… 1204 more held back").
public struct LogBudget: Sendable {
    public let lines: Int
    public let window: Double
    private var windowStart = -Double.infinity
    private var written = 0
    private var held = 0

    public init(lines: Int, per window: Double) {
        self.lines = lines
        self.window = window
    }

    /// Writes `message` at `level` if the budget allows it at `now` (a monotonic time in seconds).
    public mutating func write(_ level: Log.Level, _ message: @autoclosure () -> String, now: Double) {
        write(level, message(), now: now) { Log.write($0, $1) }
    }

    /// The same, the line going to `sink` (a test's recorder) instead of the log.
    public mutating func write(_ level: Log.Level, _ message: @autoclosure () -> String, now: Double,
                               to sink: (Log.Level, String) -> Void) {
        guard level <= Log.threshold else { return }
        if let line = admit(message(), now: now) { sink(level, line) }
    }

    /// The line to write at `now` (with what was held back before it), or nil when over budget.
    mutating func admit(_ message: String, now: Double) -> String? {
        if now >= windowStart + window || now < windowStart {
            windowStart = now
            written = 0
        }
        guard written < lines else {
            held += 1
            return nil
        }
        written += 1
        defer { held = 0 }
        return held == 0 ? message : "\(message) (… \(held) more held back)"
    }
}
