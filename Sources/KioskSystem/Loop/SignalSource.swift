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

    /// Whether any of `signals` arrived and waits (blocked) for the loop: for start-up work that
    /// runs before the loop and must not make a stop wait for it.
    public static func isPending(_ signals: [Int32]) -> Bool {
        var set = sigset_t()
        sigemptyset(&set)
        guard sigpending(&set) == 0 else { return false }
        return signals.contains { sigismember(&set, $0) == 1 }
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

    /// Fires after `delay` seconds, then every `interval` seconds if given. A delay that is not a
    /// number, or below a nanosecond, fires at once; one beyond `longest` waits `longest`.
    public func arm(after delay: Double, interval: Double? = nil) {
        var spec = itimerspec()
        spec.it_value = Self.timespec(delay)
        // A zero value would disarm the timer instead.
        if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
        if let interval, interval > 0 { spec.it_interval = Self.timespec(interval) }
        set(spec)
    }

    public func disarm() { set(itimerspec()) }

    /// The longest delay or interval taken as given: about 31 years.
    static let longest = 1e9

    /// The one call of timerfd_settime. Its errors (EBADF, EFAULT, EINVAL) can only come from a
    /// bug here: `timespec` keeps every value in range. A timer that failed to arm would never
    /// fire, so the failure is logged as an error rather than ignored; there is nothing to retry.
    private func set(_ spec: itimerspec) {
        var spec = spec
        do {
            try retryingInterrupts("timerfd_settime") { timerfd_settime(descriptor.rawValue, 0, &spec, nil) }
        } catch {
            Log.error("timer not set: \(error)")
        }
    }

    /// Expirations since the last read (clears readiness).
    @discardableResult
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        // Nothing pending reads as 0 (EAGAIN); an 8-byte read of an open timerfd has no other
        // error, so none is looked at.
        _ = withUnsafeMutableBytes(of: &count) { try? descriptor.read(into: $0) }
        return count
    }

    /// `s` seconds (NaN and below zero: 0; above `longest`: `longest`) with 0 <= tv_nsec < 1e9.
    static func timespec(_ s: Double) -> Glibc.timespec {
        let clamped = s.isNaN ? 0 : min(max(s, 0), longest)
        let whole = clamped.rounded(.down)
        return Glibc.timespec(tv_sec: Int(whole), tv_nsec: min(Int((clamped - whole) * 1e9), 999_999_999))
    }
}
