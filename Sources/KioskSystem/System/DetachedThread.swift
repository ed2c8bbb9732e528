import Glibc

/// Runs `body` on a new detached thread with every signal blocked (the thread inherits the
/// mask), so that signals keep going to the event loop's signalfd. For work the loop must not
/// wait for: a config load, a screenshot's PNG encoding.
public func startDetachedThread(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var all = sigset_t(), previous = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_SETMASK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let context = Unmanaged.passRetained(Box(body))
    var thread = pthread_t()
    let err = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context.toOpaque())
    guard err == 0 else {
        context.release()
        throw SystemError("pthread_create", errno: err)
    }
    pthread_detach(thread)
}
