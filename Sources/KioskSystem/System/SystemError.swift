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

/// Runs a call that returns -1 and sets errno on failure, calling it again when a signal
/// interrupted it (EINTR).
@discardableResult
public func retryingInterrupts<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    try retryingInterrupts(call, body) { _ in Glibc.errno }
}

/// `retryingInterrupts` for calls that return a negative errno (libdrm's convention) instead of
/// setting errno; libdrm also returns -1 with errno set, so -1 reads errno.
@discardableResult
public func checkingNegativeErrno(_ call: String, _ body: () -> Int32) throws(SystemError) -> Int32 {
    try retryingInterrupts(call, body) { r in r == -1 ? Glibc.errno : -r }
}

/// The one place where EINTR is retried, behind the two front-ends above; `failure` turns a
/// negative result into its errno. The one other place that looks at EINTR is
/// `EventLoop.runOnce`, where an interrupted `epoll_wait` means "nothing ready yet", not "call again".
@inline(__always)
private func retryingInterrupts<T: BinaryInteger>(_ call: String, _ body: () -> T, failure: (T) -> Int32) throws(SystemError) -> T {
    while true {
        let r = body()
        if r >= 0 { return r }
        let e = failure(r)
        if e == EINTR { continue }
        throw SystemError(call, errno: e)
    }
}
