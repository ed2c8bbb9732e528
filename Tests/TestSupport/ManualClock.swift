import Foundation

/// A monotonic clock that moves only when a test moves it: what depends on elapsed time (idle,
/// blanking, timeouts) happens when the test says, however slowly the run is scheduled.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    public init(at seconds: Double = 1000) { self.seconds = seconds }

    public var now: Double { lock.withLock { seconds } }

    /// For APIs that take a clock function.
    public var read: @Sendable () -> Double { { [self] in now } }

    public func advance(by interval: Double) {
        precondition(interval >= 0, "a monotonic clock does not go back")
        lock.withLock { seconds += interval }
    }
}
