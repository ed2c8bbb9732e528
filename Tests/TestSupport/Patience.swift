import Glibc

/// How long a test waits for something that should happen. A passing test moves on as soon as it
/// happens; only a failing one waits this long. Long because the aarch64 tests run under
/// qemu-user at the idle scheduling policy beside VM guests (scripts/test), where a test can get
/// no CPU at all for tens of seconds.
public enum Patience {
    public static let seconds: Double = 300
    public static let milliseconds = Int32(seconds * 1000)
}

/// Checks `done` every 10 ms until it holds, for at most `seconds`; whether it came to hold.
public func waitUntil(seconds: Double = Patience.seconds, _ done: () -> Bool) -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if done() { return true }
        usleep(10_000)
    }
    return done()
}
