import CLinux
import Glibc

/// Wakes the event loop from inside the program (an eventfd): a request made while handling one
/// event is carried out as the loop's next event, never from inside the code that made it.
public final class WakeSource {
    public let descriptor: OwnedDescriptor

    public init() throws(SystemError) {
        let fd = try retryingInterrupts("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        descriptor = OwnedDescriptor(taking: fd)
    }

    /// Makes the descriptor readable until `acknowledge()`; signals before then are merged.
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(descriptor.rawValue, $0.baseAddress, 8) }
    }

    public func acknowledge() {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { try? descriptor.read(into: $0) }
    }
}
