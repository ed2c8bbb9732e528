import Glibc
@testable import Kiosk
@testable import KioskSystem
import Testing

/// The loop's timer and wake-up descriptors: every delay the runtime can compute arms the timer
/// (timerfd_settime is never handed a value it refuses), and a wake-up signalled many times is one.
@Suite struct LoopSourceTests {
    @Test func timespecIsAlwaysInRange() {
        for s in [0, 1e-10, 0.5, 1.999_999_999_9, 2, 1e12, -3, .infinity, -.infinity, .nan] as [Double] {
            let t = TimerSource.timespec(s)
            #expect(t.tv_sec >= 0 && t.tv_nsec >= 0 && t.tv_nsec < 1_000_000_000, "\(s): \(t.tv_sec) s \(t.tv_nsec) ns")
        }
        #expect(TimerSource.timespec(2.25).tv_sec == 2 && TimerSource.timespec(2.25).tv_nsec == 250_000_000)
        #expect(TimerSource.timespec(1e12).tv_sec == Int(TimerSource.longest))
    }

    /// A delay that is not a number, or negative, fires at once; a negative interval is one-shot
    /// (timerfd_settime would refuse it with EINVAL and the timer would never fire).
    @Test func oddDelaysStillFire() throws {
        let loop = try EventLoop()
        let timer = try TimerSource()
        var fired = 0
        try loop.watch(timer.descriptor.rawValue) {
            fired += 1
            timer.acknowledge()
        }
        for (delay, interval) in [(Double.nan, nil), (-1, nil), (0, -5)] as [(Double, Double?)] {
            let before = fired
            timer.arm(after: delay, interval: interval)
            try loop.runOnce(timeout: 1)
            #expect(fired == before + 1, "arm(after: \(delay), interval: \(String(describing: interval)))")
        }
        try loop.runOnce(timeout: 0.05)
        #expect(fired == 3, "a negative interval repeated")
        timer.arm(after: 0.01)
        timer.disarm()
        try loop.runOnce(timeout: 0.05)
        #expect(fired == 3, "disarmed but fired")
    }

    @Test func wakeSignalledManyTimesIsOneEvent() throws {
        let loop = try EventLoop()
        let wake = try WakeSource()
        var woken = 0
        try loop.watch(wake.descriptor.rawValue) {
            woken += 1
            wake.acknowledge()
        }
        for _ in 0..<1000 { wake.signal() }
        try loop.runOnce(timeout: 1)
        try loop.runOnce(timeout: 0.02)
        #expect(woken == 1)
    }
}
