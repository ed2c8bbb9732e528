/// The keypad's rules, with time passed in so that tests move it by hand: the digits entered so
/// far, wrong PINs in a row, the lockout after `attempts` of them (doubling with each lockout),
/// and which locked screens are open and when they relock. Checking a PIN is the caller's
/// (`verify`), so that this stays free of libcrypt. The digits are never logged nor shown.
public struct PinLock: Sendable {
    public enum Key: Sendable, Equatable {
        case digit(UInt8)
        case delete
        case ok
    }

    public enum Outcome: Sendable, Equatable {
        /// A digit added or removed, or a key ignored (too many digits, nothing to delete).
        case edited
        /// OK with a wrong PIN: `remaining` tries before a lockout.
        case wrong(remaining: Int)
        /// OK with a wrong PIN that used up the tries: locked out for `seconds`.
        case lockedOut(seconds: Double)
        /// Any key during a lockout: nothing happens.
        case refused
        case unlocked
    }

    public var config: LockConfig
    /// Digits entered so far.
    public private(set) var entered: [UInt8] = []
    /// Wrong PINs since the last lockout or unlock.
    public private(set) var wrongInARow = 0
    /// Wrong PINs since the kiosk started: the status file's `pin_failures`.
    public private(set) var failures = 0
    /// Lockouts since the last unlock: the next one lasts `lockout * 2^lockouts`.
    public private(set) var lockouts = 0
    public private(set) var lockedOutUntil: Double?
    /// Open locked screens, by name, with the time of their last input.
    public private(set) var unlocked: [String: Double] = [:]

    /// No doubling past a day (or the configured lockout, if longer).
    public static let longestLockout = 86_400.0

    public init(_ config: LockConfig) {
        self.config = config
    }

    public var enteredCount: Int { entered.count }

    /// Seconds of lockout left at `now`, rounded up; nil when not locked out.
    public func lockoutRemaining(now: Double) -> Int? {
        guard let until = lockedOutUntil, now < until else { return nil }
        return Int((until - now).rounded(.up))
    }

    /// Ends a lockout whose time is up; true when one ended.
    public mutating func advance(now: Double) -> Bool {
        guard let until = lockedOutUntil, now >= until else { return false }
        lockedOutUntil = nil
        wrongInARow = 0
        return true
    }

    public mutating func press(_ key: Key, now: Double, verify: (String) -> Bool) -> Outcome {
        _ = advance(now: now)
        if lockedOutUntil != nil { return .refused }
        switch key {
        case .digit(let d):
            if d <= 9, entered.count < PinHash.lengths.upperBound { entered.append(d) }
            return .edited
        case .delete:
            if !entered.isEmpty { entered.removeLast() }
            return .edited
        case .ok:
            guard !entered.isEmpty else { return .edited }
            let pin = String(decoding: entered.map { $0 + 0x30 }, as: UTF8.self)
            clearEntry()
            if verify(pin) {
                wrongInARow = 0
                lockouts = 0
                return .unlocked
            }
            failures += 1
            wrongInARow += 1
            guard wrongInARow >= config.attempts else { return .wrong(remaining: config.attempts - wrongInARow) }
            let seconds = min(config.lockout * Double(1 << min(lockouts, 30)), max(config.lockout, Self.longestLockout))
            lockouts += 1
            lockedOutUntil = now + seconds
            return .lockedOut(seconds: seconds)
        }
    }

    /// Forgets the digits entered (the keypad was left).
    public mutating func clearEntry() {
        for i in entered.indices { entered[i] = 0 }
        entered.removeAll()
    }

    // MARK: Unlocked screens

    public func isUnlocked(_ screen: String) -> Bool { unlocked[screen] != nil }

    public mutating func unlock(_ screen: String, now: Double) { unlocked[screen] = now }

    /// Input on an unlocked screen restarts its relock timer.
    public mutating func touched(_ screen: String, now: Double) {
        if unlocked[screen] != nil { unlocked[screen] = now }
    }

    /// The screen was left: it needs the PIN again.
    public mutating func relock(_ screen: String) { unlocked[screen] = nil }

    /// A new config: only the screens still open stay unlocked.
    public mutating func keepUnlocked(only open: [String]) {
        unlocked = unlocked.filter { open.contains($0.key) }
    }

    /// Relocks the screens idle for `relock_after` seconds (never when it is 0); returns them, sorted.
    public mutating func relockIdle(now: Double) -> [String] {
        guard config.relockAfter > 0 else { return [] }
        let idle = unlocked.filter { now >= $0.value + config.relockAfter }.keys.sorted()
        for name in idle { unlocked[name] = nil }
        return idle
    }

    /// When the next relock or the end of the lockout falls due.
    public var nextDeadline: Double? {
        let relock = config.relockAfter > 0 ? unlocked.values.min().map { $0 + config.relockAfter } : nil
        return [relock, lockedOutUntil].compactMap { $0 }.min()
    }
}
