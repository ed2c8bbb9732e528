/// When to try the broker again: 1 s after the first failure, doubling to at most 60 s, and
/// back to 1 s once a connection was accepted. A broker that is down costs one attempt a
/// minute; one that comes back is found within a minute. Time is passed in.
public struct MQTTBackoff: Equatable, Sendable {
    public static let first = 1.0
    public static let longest = 60.0

    /// Failures since the last accepted connection.
    public private(set) var failures = 0

    public init() {}

    /// Records a failed attempt (refused, unreachable, or a connection lost) at `now`; returns
    /// when to try again.
    public mutating func failed(at now: Double) -> Double {
        failures += 1
        return now + delay
    }

    public mutating func connected() { failures = 0 }

    /// The wait after the failures so far.
    public var delay: Double {
        guard failures > 0 else { return 0 }
        return min(Self.longest, Self.first * Double(1 << min(failures - 1, 16)))
    }
}
