import CLinux
import Glibc

/// Signals delivered as readable events (signalfd), so handlers run in the loop, not in a signal context.
public final class SignalSource {
    public let descriptor: OwnedDescriptor
    public let signals: [Int32]

    /// Blocks `signals` for the process and opens a signalfd for them.
    public init(_ signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        try retryingInterrupts("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        let fd = try retryingInterrupts("signalfd") { signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
        descriptor = OwnedDescriptor(taking: fd)
        self.signals = signals
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while true {
            let n = withUnsafeMutableBytes(of: &info) { (try? descriptor.read(into: $0)) ?? 0 }
            guard n == MemoryLayout<signalfd_siginfo>.size else { break }
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}

/// A one-shot or repeating timer on CLOCK_MONOTONIC as a file descriptor.
public final class TimerSource {
    public let descriptor: OwnedDescriptor

    public init() throws(SystemError) {
        let fd = try retryingInterrupts("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK)) }
        descriptor = OwnedDescriptor(taking: fd)
    }

    /// Fires after `delay` seconds, then every `interval` seconds if given.
    public func arm(after delay: Double, interval: Double? = nil) {
        var spec = itimerspec()
        spec.it_value = Self.timespec(max(delay, 1e-9))
        if let interval { spec.it_interval = Self.timespec(interval) }
        timerfd_settime(descriptor.rawValue, 0, &spec, nil)
    }

    public func disarm() {
        var spec = itimerspec()
        timerfd_settime(descriptor.rawValue, 0, &spec, nil)
    }

    /// Expirations since the last read (clears readiness).
    @discardableResult
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { try? descriptor.read(into: $0) }
        return count
    }

    private static func timespec(_ s: Double) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(s), tv_nsec: Int((s - Double(Int(s))) * 1e9))
    }
}
