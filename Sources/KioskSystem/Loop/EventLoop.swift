import CLinux
import Glibc

/// One thread, one epoll: every source (DRM fd, input, inotify, signals, timers) is a file
/// descriptor with a handler. When nothing is ready the process sleeps in `epoll_wait`.
public final class EventLoop {
    private let epoll: OwnedDescriptor
    private var handlers: [Int32: () -> Void] = [:]
    public private(set) var isStopped = false

    public init() throws(SystemError) {
        epoll = OwnedDescriptor(taking: try retryingInterrupts("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    /// Calls `handler` whenever `fd` is readable.
    public func watch(_ fd: Int32, _ handler: @escaping () -> Void) throws(SystemError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        try retryingInterrupts("epoll_ctl(ADD)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, &event) }
        handlers[fd] = handler
    }

    /// Calls `handler` whenever `fd` has any of `events` (EPOLLIN, EPOLLOUT), errors and hang-ups too.
    public func watch(_ fd: Int32, events: UInt32, _ handler: @escaping () -> Void) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        try retryingInterrupts("epoll_ctl(ADD)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, &event) }
        handlers[fd] = handler
    }

    /// Another set of events for a watched `fd`.
    public func modify(_ fd: Int32, events: UInt32) throws(SystemError) {
        guard handlers[fd] != nil else { return }
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        try retryingInterrupts("epoll_ctl(MOD)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_MOD, fd, &event) }
    }

    public func unwatch(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, nil)
    }

    public func stop() { isStopped = true }

    /// Waits for at most `timeout` seconds (nil: forever) and runs the handlers of what is ready.
    public func runOnce(timeout: Double? = nil) throws(SystemError) {
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        let ms: Int32 = timeout.map { Int32(max(0, min($0 * 1000, 1e9)).rounded(.up)) } ?? -1
        let r = events.withUnsafeMutableBufferPointer { epoll_wait(epoll.rawValue, $0.baseAddress!, Int32($0.count), ms) }
        // The one call not retried through `retryingInterrupts`: an interrupted wait (a stop and
        // continue, a debugger; signals themselves arrive through a signalfd) means nothing is
        // ready yet, and returning lets the caller work out its next timeout instead of waiting
        // the whole old one again.
        if r < 0 {
            let e = errno
            if e == EINTR { return }
            throw SystemError("epoll_wait", errno: e)
        }
        for e in events.prefix(Int(r)) {
            handlers[e.data.fd]?()
        }
    }

    public func run() throws(SystemError) {
        while !isStopped { try runOnce() }
    }
}

/// Seconds on CLOCK_MONOTONIC: the `now` that layouts and physics are given.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
