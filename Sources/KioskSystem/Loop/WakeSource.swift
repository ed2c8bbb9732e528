import CLinux
import Glibc

/// Wakes a waiting side from inside the program (an eventfd): the event loop, for a request made
/// while handling one event, carried out as the loop's next event and never from inside the code
/// that made it; or a thread blocked in `acknowledge()` (the config load worker).
///
/// Sendable: the descriptor never changes, and an eventfd's reads and writes are atomic.
public final class WakeSource: Sendable {
    public let descriptor: OwnedDescriptor

    /// `blocking`: `acknowledge()` sleeps until the next `signal()`; otherwise it returns at once
    /// (the loop acknowledges only when epoll said the descriptor is readable).
    public init(blocking: Bool = false) throws(SystemError) {
        let flags = EFD_CLOEXEC | (blocking ? 0 : EFD_NONBLOCK)
        let fd = try retryingInterrupts("eventfd") { eventfd(0, Int32(flags)) }
        descriptor = OwnedDescriptor(taking: fd)
    }

    /// Makes the descriptor readable until `acknowledge()`; signals before then are merged.
    ///
    /// The write can fail with EAGAIN only when the counter is at its maximum (2^64 - 2 signals
    /// not acknowledged): the descriptor is readable then, which is all a signal asks. Any other
    /// error is a bug (a closed descriptor) and is logged.
    public func signal() {
        var one: UInt64 = 1
        do {
            try retryingInterrupts("write(eventfd)") { withUnsafeBytes(of: &one) { Glibc.write(descriptor.rawValue, $0.baseAddress, 8) } }
        } catch where error.errno == EAGAIN {
        } catch {
            Log.error("wake-up lost: \(error)")
        }
    }

    /// Clears the signals so far (blocking: waits for one first).
    public func acknowledge() {
        var count: UInt64 = 0
        // Nothing pending reads as 0 (EAGAIN); an 8-byte read of an open eventfd has no other
        // error, so none is looked at.
        _ = withUnsafeMutableBytes(of: &count) { try? descriptor.read(into: $0) }
    }
}
