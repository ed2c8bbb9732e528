import KioskConfiguration
import KioskSystem
import MenuScreens

/// Screens behind a PIN, as the menu goes through them: the keypad put over the stack when a
/// locked screen is opened, its keys, the screen it opens on the right PIN, the countdown of a
/// lockout, and relocking (on leaving, after `relock_after` idle, when the PIN changes). The
/// digits are never logged and the keys never reported; the rules themselves are `PinLock`'s.
struct LockFlow {
    private(set) var pinLock: PinLock
    /// The keypad on top of the stack, if any.
    private(set) var keypad: KeypadSession?

    /// A keypad on screen: the screen it guards, and the title it was built with.
    struct KeypadSession {
        let target: ScreenConfig
        var title: String
    }

    /// What a key of the keypad led to, for the app to show or record.
    enum Outcome {
        case nothing
        /// The keypad's back: leave it.
        case back
        case wrong(remaining: Int)
        case lockedOut
        /// The right PIN: the screen replaced the keypad.
        case opened(String)
        /// The right PIN, but the screen could not be built; the keypad is gone.
        case failedToOpen(String, any Error)
    }

    /// `store` keeps the lockout across restarts (nil: memory only); `now` is the monotonic time.
    init(_ config: LockConfig, store: PinLockStore? = nil, now: Double = 0) {
        pinLock = PinLock(config, store: store, now: now)
    }

    var isKeypadShown: Bool { keypad != nil }

    /// A screen with a PIN that is not open now.
    func isLocked(_ screen: ScreenConfig) -> Bool { screen.pinHash != nil && !pinLock.isUnlocked(screen.name) }

    /// Screens of `config` with a `pin_hash` that are not open now.
    func lockedScreens(in config: KioskConfig) -> [String] { config.screens.filter(isLocked).map(\.name) }

    /// Puts the keypad for `target` over the stack, on its middle key.
    mutating func showKeypad(for target: ScreenConfig, on navigator: Navigator, now: Double) throws {
        pinLock.clearEntry()
        let title = Keypad.title(for: target, lock: pinLock, now: now)
        let screen = try ScreenFactory.make(Keypad.screen(for: target, title: title), resources: navigator.resources, showsBack: true)
        // It opens on the middle key, where it goes back after each digit: a few detents from every key.
        screen.select(Keypad.restingIndex)
        navigator.push(screen, now: now)
        keypad = KeypadSession(target: target, title: title)
    }

    /// An event of the keypad on top of the stack.
    mutating func handle(_ event: MenuEvent, on navigator: Navigator, now: Double) -> Outcome {
        guard let k = keypad else { return .nothing }
        switch event {
        case .selected, .tapped, .released:
            return .nothing
        case .back:
            // Which key was chosen or selected would tell the PIN: only leaving is logged.
            Log.info("keypad for \(k.target.name) left")
            return .back
        case .activated(let index):
            guard let key = Keypad.key(at: index), let hash = k.target.pinHash else { return .nothing }
            let name = k.target.name
            let outcome = pinLock.press(key, now: now, verify: hash.matches)
            // The highlight must not stay on the digit just chosen (a screenshot, a passer-by):
            // it goes back to the middle key, a few detents from every other.
            if case .digit = key { navigator.current.select(Keypad.restingIndex) }
            var result = Outcome.nothing
            switch outcome {
            case .edited, .refused:
                break
            case .wrong(let remaining):
                Log.notice("wrong PIN for screen \(name)")
                result = .wrong(remaining: remaining)
            case .lockedOut(let seconds):
                Log.warning("keypad locked out for \(Int(seconds)) s after \(pinLock.config.attempts) wrong PINs (screen \(name))")
                result = .lockedOut
            case .unlocked:
                Log.notice("screen \(name) unlocked")
                pinLock.unlock(name, now: now)
                keypad = nil
                do {
                    navigator.replaceTop(with: try ScreenFactory.make(k.target, resources: navigator.resources, showsBack: true), now: now)
                    return .opened(name)
                } catch {
                    pinLock.relock(name)
                    navigator.pop(now: now)
                    return .failedToOpen(name, error)
                }
            }
            refresh(on: navigator, now: now)
            return result
        }
    }

    /// A screen taken off the stack: a keypad forgets its digits, an opened locked screen locks.
    mutating func left(_ screen: MenuScreen) {
        if let k = keypad, screen.config.name == Keypad.name(for: k.target.name) {
            keypad = nil
            pinLock.clearEntry()
        }
        if screen.config.pinHash != nil, pinLock.isUnlocked(screen.config.name) {
            pinLock.relock(screen.config.name)
            Log.info("screen \(screen.config.name) locked again: left")
        }
    }

    /// Ends a lockout whose time is up, and builds the keypad again when its title changed (a
    /// digit, the countdown), keeping the selected key. True when it was built again.
    @discardableResult
    mutating func refresh(on navigator: Navigator, now: Double) -> Bool {
        _ = pinLock.advance(now: now)
        guard let k = keypad else { return false }
        let title = Keypad.title(for: k.target, lock: pinLock, now: now)
        guard title != k.title else { return false }
        let selected = navigator.current.selectedIndex
        do {
            let screen = try ScreenFactory.make(Keypad.screen(for: k.target, title: title), resources: navigator.resources, showsBack: true)
            screen.select(selected)
            navigator.swapTop(for: screen)
            keypad?.title = title
            return true
        } catch {
            Log.error("keypad: \(error)")
            return false
        }
    }

    /// The opened screens idle for `relock_after` (since `lastInput`, `Activity`'s), locked again now (logged).
    mutating func relockIdle(now: Double, lastInput: Double) -> [String] {
        let relocked = pinLock.relockIdle(now: now, lastInput: lastInput)
        for name in relocked { Log.info("screen \(name) locked again after \(Int(pinLock.config.relockAfter)) s idle") }
        return relocked
    }

    /// A new config: a screen whose PIN changed locks again (whoever opened it may not know the
    /// new one), the keypad is gone (the stack was rebuilt below it), only `open` screens stay open.
    mutating func configure(old: KioskConfig, new: KioskConfig) {
        for screen in new.screens where screen.pinHash != old.screen(named: screen.name)?.pinHash {
            pinLock.relock(screen.name)
        }
        pinLock.config = new.lock
    }

    /// After the stack was rebuilt: only the screens in `open` stay unlocked; a keypad that was on
    /// top is gone, its digits forgotten.
    mutating func rebuilt(open: [String]) {
        if keypad != nil {
            keypad = nil
            pinLock.clearEntry()
        }
        pinLock.keepUnlocked(only: open)
    }

    /// The keypad's target, to put the keypad back over a stack rebuilt at another size.
    mutating func takeKeypadTarget() -> ScreenConfig? {
        defer { keypad = nil }
        return keypad?.target
    }

    /// The next moment something here changes by itself: a relock, the end of a lockout, the
    /// next whole second of a lockout's countdown on the keypad.
    func nextDeadline(now: Double, lastInput: Double) -> Double? {
        var tick: Double?
        if keypad != nil, let until = pinLock.lockedOutUntil, until > now { tick = until - (until - now).rounded(.up) + 1 }
        return [pinLock.nextDeadline(lastInput: lastInput), tick].compactMap { $0 }.min()
    }
}
