@testable import KioskConfiguration
import Testing
@testable import Kiosk

/// The keypad's rules with time moved by hand; the PIN check is a closure, the PIN "1234".
@Suite struct PinLockTests {
    static func verify(_ pin: String) -> Bool { pin == "1234" }

    /// The lock behind a reference, so that `#expect` can call its mutating members.
    final class Keypad {
        var lock: PinLock
        init(_ config: LockConfig) { lock = PinLock(config) }
        func press(_ key: PinLock.Key, now: Double) -> PinLock.Outcome { lock.press(key, now: now, verify: PinLockTests.verify) }
        func type(_ digits: String, now: Double) -> PinLock.Outcome {
            for c in digits.utf8 { _ = press(.digit(c - 0x30), now: now) }
            return press(.ok, now: now)
        }
        func advance(now: Double) -> Bool { lock.advance(now: now) }
        func relockIdle(now: Double, lastInput: Double = 0) -> [String] { lock.relockIdle(now: now, lastInput: lastInput) }
    }

    @Test func rightPinUnlocksAndClearsTheEntry() {
        let k = Keypad(LockConfig())
        for d: UInt8 in [1, 2, 9] { #expect(k.press(.digit(d), now: 0) == .edited) }
        #expect(k.lock.enteredCount == 3)
        #expect(k.press(.delete, now: 0) == .edited)
        #expect(k.press(.digit(3), now: 0) == .edited)
        #expect(k.press(.digit(4), now: 0) == .edited)
        #expect(k.press(.ok, now: 0) == .unlocked)
        #expect(k.lock.enteredCount == 0)
        #expect(k.lock.failures == 0)
    }

    @Test func emptyOkAndDeleteAreNoAttempts() {
        let k = Keypad(LockConfig(attempts: 1))
        #expect(k.press(.delete, now: 0) == .edited)
        #expect(k.press(.ok, now: 0) == .edited)
        #expect(k.lock.failures == 0)
        #expect(k.lock.lockedOutUntil == nil)
    }

    @Test func entryStopsAtTwelveDigits() {
        let k = Keypad(LockConfig())
        for _ in 0..<20 { _ = k.press(.digit(7), now: 0) }
        #expect(k.lock.enteredCount == 12)
    }

    @Test func wrongPinsLockOutAndLockoutsDouble() {
        let k = Keypad(LockConfig(attempts: 3, lockout: 60))
        #expect(k.type("1111", now: 0) == .wrong(remaining: 2))
        #expect(k.type("2222", now: 1) == .wrong(remaining: 1))
        #expect(k.type("3333", now: 2) == .lockedOut(seconds: 60))
        #expect(k.lock.lockoutRemaining(now: 2) == 60)
        #expect(k.lock.lockoutRemaining(now: 31.5) == 31)
        // Even the right PIN is refused during a lockout, key by key.
        #expect(k.press(.digit(1), now: 30) == .refused)
        #expect(k.press(.ok, now: 61.9) == .refused)
        #expect(k.lock.nextDeadline(lastInput: 0) == 62)
        #expect(k.advance(now: 62))
        #expect(k.lock.lockoutRemaining(now: 62) == nil)
        #expect(k.type("1111", now: 63) == .wrong(remaining: 2))
        #expect(k.type("1111", now: 63) == .wrong(remaining: 1))
        #expect(k.type("1111", now: 63) == .lockedOut(seconds: 120))
        #expect(k.lock.lockoutRemaining(now: 64) == 119)
        #expect(k.lock.failures == 6)
        // After the lockout the right PIN opens, and the next lockout is back to the first length.
        #expect(k.type("1234", now: 183) == .unlocked)
        for _ in 0..<2 { _ = k.type("0000", now: 200) }
        #expect(k.type("0000", now: 200) == .lockedOut(seconds: 60))
        #expect(k.lock.failures == 9)
    }

    @Test func doublingStopsAtADay() {
        let k = Keypad(LockConfig(attempts: 1, lockout: 50_000))
        #expect(k.type("1", now: 0) == .lockedOut(seconds: 50_000))
        #expect(k.type("1", now: 50_000) == .lockedOut(seconds: 86_400))
        #expect(k.type("1", now: 200_000) == .lockedOut(seconds: 86_400))
    }

    @Test func unlockedScreensRelockWhenIdle() {
        let k = Keypad(LockConfig(relockAfter: 60))
        k.lock.unlock("admin", now: 10)
        k.lock.unlock("service", now: 20)
        #expect(k.lock.nextDeadline(lastInput: 0) == 70)
        #expect(k.relockIdle(now: 69.9) == [])
        #expect(k.relockIdle(now: 70) == ["admin"])
        // Input (the device's last, `Activity`'s) restarts the idle time of every open screen.
        #expect(k.lock.nextDeadline(lastInput: 50) == 110)
        #expect(k.relockIdle(now: 109.9, lastInput: 50) == [])
        #expect(k.lock.isUnlocked("service"))
        #expect(k.relockIdle(now: 110, lastInput: 50) == ["service"])
        #expect(k.lock.nextDeadline(lastInput: 50) == nil)
        k.lock.unlock("admin", now: 120)
        k.lock.relock("admin")
        #expect(!k.lock.isUnlocked("admin"))
    }

    @Test func relockAfterZeroRelocksOnlyWhenLeft() {
        let k = Keypad(LockConfig(relockAfter: 0))
        k.lock.unlock("admin", now: 0)
        #expect(k.relockIdle(now: 1e9) == [])
        #expect(k.lock.nextDeadline(lastInput: 0) == nil)
        #expect(k.lock.isUnlocked("admin"))
    }
}
