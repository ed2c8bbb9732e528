import Glibc

/// A failed system or library call: its name and errno, so a log line says what failed and why.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The error the last failed call left in `errno`.
    public static func last(_ call: String) -> SystemError { SystemError(call, errno: Glibc.errno) }

    public var description: String {
        let text = strerror(errno).map { String(cString: $0) } ?? "errno \(errno)"
        return "\(call): \(text)"
    }
}

/// Runs a call that returns -1 and sets errno on failure, retrying when a signal interrupted it.
/// The one place where EINTR is handled.
@discardableResult
public func retryingInterrupts<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let r = body()
        if r >= 0 { return r }
        let e = Glibc.errno
        if e == EINTR { continue }
        throw SystemError(call, errno: e)
    }
}

/// Calls that return a negative errno (libdrm's convention) instead of setting errno.
@discardableResult
public func checkingNegativeErrno(_ call: String, _ body: () -> Int32) throws(SystemError) -> Int32 {
    while true {
        let r = body()
        if r >= 0 { return r }
        // libdrm returns -errno from ioctls, or -1 with errno set.
        let e = r == -1 ? Glibc.errno : -r
        if e == EINTR { continue }
        throw SystemError(call, errno: e)
    }
}
