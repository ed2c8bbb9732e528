import KioskConfiguration
import KioskSystem

/// The keypad's rules, with time passed in so that tests move it by hand: the digits entered so
/// far, wrong PINs in a row, the lockout after `attempts` of them (doubling with each lockout),
/// and which locked screens are open and when they relock. Checking a PIN is the caller's
/// (`verify`), so that this stays free of libcrypt. The digits are never logged nor shown.
/// With a `PinLockStore`, wrong PINs in a row, the lockout count and the running lockout are
/// written at each change and read back at start, so that a restart or a power cut does not
/// give an attacker fresh tries; while running, a lockout is timed on the monotonic clock.
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
    /// The running lockout's full length: a restart gives back at most this much.
    public private(set) var lockoutSeconds = 0.0
    /// Where the values above outlive the process; nil: memory only (previews, tests).
    private var store: PinLockStore?
    /// Open locked screens, by name, with the time each was unlocked. Their idle time counts from
    /// that or from the device's last input (`Activity`), whichever is later.
    public private(set) var unlocked: [String: Double] = [:]

    /// No doubling past a day (or the configured lockout, if longer).
    public static let longestLockout = 86_400.0

    /// `now` is the monotonic time; with a `store`, the state it kept is taken up (see `restore`).
    public init(_ config: LockConfig, store: PinLockStore? = nil, now: Double = 0) {
        self.config = config
        if let store { restore(from: store, now: now) }
    }

    /// Takes up the stored state: a lockout goes on for what is left of it (`PinLockRecord.Lockout.remaining`);
    /// a state written before that cannot be read counts as one full lockout, logged; nothing
    /// stored on a first start is no failures. Then the state is written back, with this boot's
    /// clocks (and the marker on a first start). A folder that cannot be had leaves the lock in memory.
    private mutating func restore(from store: PinLockStore, now: Double) {
        switch store.load() {
        case .unavailable(let error):
            Log.warning("cannot keep the PIN lockout state in \(store.directory) (\(error)): wrong PINs and lockouts are counted in memory only, and a restart forgets them")
            return
        case .firstStart:
            Log.info("PIN lockout state: first start, nothing kept yet in \(store.directory)")
        case .saved(let record):
            wrongInARow = record.wrongInARow
            lockouts = record.lockouts
            if let lockout = record.lockout {
                let left = store.remaining(lockout, now: now)
                lockedOutUntil = now + left
                lockoutSeconds = lockout.seconds
                Log.warning("PIN lockout restored from \(store.path): \(Int(left.rounded(.up))) s left of \(Int(lockout.seconds)) s")
            } else if wrongInARow > 0 {
                Log.notice("PIN lockout state restored from \(store.path): \(wrongInARow) wrong PIN(s) in a row")
            }
        case .lost(let error):
            // Unknown is not "no failures": one lockout of the configured length, counted for the doubling.
            wrongInARow = 0
            lockouts = 1
            lockoutSeconds = config.lockout
            lockedOutUntil = now + config.lockout
            Log.error("PIN lockout state \(store.path) is \(error): the keypad is locked out for \(Int(config.lockout)) s")
        }
        self.store = store
        persist(now: now)
    }

    /// Writes the kept values (a no-op without a store).
    private mutating func persist(now: Double) {
        guard var store else { return }
        let lockout = lockedOutUntil.map { (until: $0, seconds: lockoutSeconds) }
        store.save(store.record(wrongInARow: wrongInARow, lockouts: lockouts, lockout: lockout, now: now))
        self.store = store
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
        lockoutSeconds = 0
        wrongInARow = 0
        persist(now: now)
        return true
    }

    /// An attempt is counted on disk before its PIN is checked, and a lockout or an unlock before
    /// this returns: cutting the power while the check runs, or on seeing its result, undoes
    /// nothing. Digits are never written.
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
            wrongInARow += 1
            persist(now: now)
            if verify(pin) {
                wrongInARow = 0
                lockouts = 0
                persist(now: now)
                return .unlocked
            }
            failures += 1
            guard wrongInARow >= config.attempts else { return .wrong(remaining: config.attempts - wrongInARow) }
            let seconds = min(config.lockout * Double(1 << min(lockouts, 30)), max(config.lockout, Self.longestLockout))
            lockouts += 1
            lockoutSeconds = seconds
            lockedOutUntil = now + seconds
            persist(now: now)
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

    /// The screen was left: it needs the PIN again.
    public mutating func relock(_ screen: String) { unlocked[screen] = nil }

    /// A new config: only the screens still open stay unlocked.
    public mutating func keepUnlocked(only open: [String]) {
        unlocked = unlocked.filter { open.contains($0.key) }
    }

    /// Relocks the screens idle for `relock_after` seconds (never when it is 0) since they were
    /// unlocked or since `lastInput`, whichever is later; returns them, sorted.
    public mutating func relockIdle(now: Double, lastInput: Double) -> [String] {
        guard config.relockAfter > 0 else { return [] }
        let idle = unlocked.filter { now >= Swift.max($0.value, lastInput) + config.relockAfter }.keys.sorted()
        for name in idle { unlocked[name] = nil }
        return idle
    }

    /// When the next relock or the end of the lockout falls due.
    public func nextDeadline(lastInput: Double) -> Double? {
        let relock = config.relockAfter > 0 ? unlocked.values.min().map { Swift.max($0, lastInput) + config.relockAfter } : nil
        return [relock, lockedOutUntil].compactMap { $0 }.min()
    }
}
