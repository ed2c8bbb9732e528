/// A token bucket for incoming commands: `perSecond` on average, bursts of up to `burst`; what
/// is over is dropped and counted, so a flood of messages costs the event loop a bounded share
/// of its time. Time is passed in.
public struct MQTTRateLimit: Equatable, Sendable {
    public let perSecond: Double
    public let burst: Double
    private var tokens: Double
    private var last: Double?

    public init(perSecond: Double = 100, burst: Double = 100) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// True when a message arriving at `now` may pass (and takes its token).
    public mutating func admit(at now: Double) -> Bool {
        if let last { tokens = min(burst, tokens + max(0, now - last) * perSecond) }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
