import Geometry
import LayoutCore
import Raster
import Text

/// The kiosk without devices: the config, the stack of screens, the banner, what was last done.
/// Input and time go in; effects and frames come out (`FrameSource`). The runtime owns the
/// output, the input devices and the processes; tests drive this directly.
public final class KioskApp: FrameSource {
    public private(set) var config: KioskConfig
    /// Counts configs applied (1 for the first); a monitoring system sees reloads happen.
    public private(set) var generation = 1
    /// False while running a rescue config or after an invalid reload kept the last good one.
    public private(set) var configValid: Bool
    public private(set) var configProblems: [ConfigProblem]
    /// The file the running config was read from, symlinks of its directory resolved (which
    /// release a fleet's `current` pointed at); nil for a built-in or rescue config.
    public private(set) var configSource: String?
    public private(set) var width: Int
    public private(set) var height: Int
    private var resources: ScreenResources
    private(set) var stack: [MenuScreen] = []
    private var banner: Banner?
    public private(set) var lastAction: (label: String, action: String, result: String)?
    /// Actions by how they ended, for `kiosk_actions_total`: `screen`, `back` and `reload` when
    /// chosen, the others when their program ends (or fails to start).
    public private(set) var actionCounts: [ActionOutcome: Int] = [:]
    private var lastInputTime: Double
    private var now: Double
    /// Everything must be drawn (another screen, a banner came or went, a new config).
    private var fullFrameNeeded = true
    /// State changed since the last `draw`.
    private var undrawn = true
    /// Effects asked for since the last `advance`.
    private var effects: [Effect] = []
    /// Something changed that the status file should say.
    public private(set) var statusChanged = true
    public private(set) var screenChanges = 0
    /// Moves the menu by itself until the first input (`kiosk demo`); nil: only input moves it.
    public var autopilot: Autopilot?
    /// The position of the current screen in the last frame drawn.
    public private(set) var drawnPosition = ScrollOffset.zero
    public static let bannerSeconds = 8.0
    /// Wrong PINs, the lockout, and which locked screens are open.
    public private(set) var pinLock: PinLock
    /// While the top screen is a keypad: the screen it guards, and the title it was built with.
    private var keypad: (target: ScreenConfig, title: String)?
    /// The change of screen in motion, if any (`transition` in the config): set when the stack
    /// changes, dropped when it ends or input arrives. `leaving` is the screen it leaves until its
    /// first frame has drawn it.
    private var transition: (state: ScreenTransition, leaving: MenuScreen?)?
    /// The pictures transitions draw from, made at the first one; dropped when the size changes.
    private var transitionFrames: TransitionFrames?

    /// `assets` are `config`'s font and images when already loaded; without them they are loaded here.
    /// `lockStore` keeps the PIN lockout across restarts; nil: in memory only.
    public init(config: KioskConfig, assets: LoadedAssets? = nil, valid: Bool = true, problems: [ConfigProblem] = [],
                source: String? = nil, lockStore: PinLockStore? = nil, width: Int, height: Int, now: Double) throws {
        self.config = config
        configValid = valid
        configSource = source
        configProblems = problems
        self.width = width
        self.height = height
        self.now = now
        resources = ScreenResources(theme: config.theme, assets: try Self.ready(assets, for: config), width: width, height: height)
        lastInputTime = now
        pinLock = PinLock(config.lock, store: lockStore, now: now)
        guard let home = config.screen(named: config.home) ?? config.screens.first else { throw KioskAppError.noScreens }
        stack = [try ScreenFactory.make(home, resources: resources, showsBack: false)]
    }

    public var currentScreen: MenuScreen { stack[stack.count - 1] }
    public var screenNames: [String] { stack.map(\.config.name) }
    public var bannerText: String? { banner?.text }
    /// The change of screen in motion, if any.
    public var currentTransition: ScreenTransition? { transition?.state }

    // MARK: FrameSource

    public func handle(_ input: MenuInput, now: Double) {
        self.now = now
        lastInputTime = now
        // Input during a transition is meant for the screen coming in: it arrives at once.
        finishTransition()
        for screen in stack { pinLock.touched(screen.config.name, now: now) }
        if let pilot = autopilot {
            // The first touch or turn takes over from the self-scrolling, from where it is.
            autopilot = nil
            if let position = pilot.position(at: now) { currentScreen.jump(to: ScrollOffset(whole: position.nearestItem)) }
        }
        currentScreen.handle(input, now: now)
        undrawn = true
    }

    public func advance(now: Double) -> [Effect] {
        self.now = now
        if let t = transition, t.state.isFinished(at: now) { finishTransition() }
        if let b = banner, b.until <= now {
            banner = nil
            fullFrameNeeded = true
            statusChanged = true
        }
        returnHomeIfIdle()
        relockIdleScreens()
        refreshKeypad()
        if let pilot = autopilot {
            if let position = pilot.position(at: now) {
                currentScreen.jump(to: position)
                undrawn = true
            } else if let steps = autopilot?.takeSteps(until: now), steps > 0 {
                currentScreen.handle(.command(.next, count: steps), now: now)
            }
        }
        if currentScreen.needsFrame || currentScreen.isMoving { undrawn = true }
        let screen = currentScreen
        // Events of a keypad stay the keypad's even after a right PIN replaced it mid-batch.
        let guarded = keypad?.target.name
        for event in screen.update(now: now) {
            if let guarded {
                // Which key was chosen or selected would tell the PIN: only leaving is logged.
                if case .back = event, keypad != nil { Log.info("keypad for \(guarded) left") }
                if keypad != nil { actOnKeypad(event) }
                continue
            }
            Self.log(event, on: screen)
            act(on: event, in: screen)
        }
        defer { effects.removeAll() }
        return effects
    }

    public var needsFrame: Bool { undrawn || fullFrameNeeded || transition != nil }
    public var isAnimating: Bool { currentScreen.isMoving || autopilot?.isContinuous == true || transition != nil }

    public var nextDeadline: Double? {
        let idle = config.idleTimeout.flatMap { $0 > 0 && stack.count > 1 ? lastInputTime + $0 : nil }
        return [idle, banner?.until, autopilot?.nextStep, pinLock.nextDeadline, nextCountdownTick].compactMap { $0 }.min()
    }

    public func draw(on canvas: Canvas, full: Bool) -> [PixelRect] {
        let full = full || fullFrameNeeded
        fullFrameNeeded = false
        undrawn = false
        let damage = drawTransition(on: canvas) ?? currentScreen.draw(on: canvas, full: full)
        drawnPosition = currentScreen.position
        var rects = [full ? PixelRect(x: 0, y: 0, width: width, height: height) : damage]
        if let b = banner { rects.append(b.draw(on: canvas, font: resources.font, theme: resources.theme, width: width, height: height)) }
        return rects
    }

    /// A display of another size was connected: lay every open screen out again for it,
    /// keeping the screens and their selections.
    public func resize(width: Int, height: Int) throws {
        guard width != self.width || height != self.height else { return }
        finishTransition()
        transitionFrames = nil
        let guarded = keypad?.target
        (resources, stack) = try rebuild(config: config, assets: resources.assets, width: width, height: height)
        (self.width, self.height) = (width, height)
        banner?.layOut(font: resources.font, width: width, height: height)
        // The rebuilt stack ends below the keypad: put it back (without the digits entered).
        if let guarded {
            keypad = nil
            try showKeypad(for: guarded)
        }
        fullFrameNeeded = true
    }

    public func effectFinished(_ effect: Effect, result: String, failed: Bool, now: Double) {
        lastAction = (effect.label, effect.kind, result)
        actionCounts[ActionOutcome(effect.kind, failed: failed), default: 0] += 1
        statusChanged = true
        if failed { showBanner("\(effect.label): \(result)", now: now) }
    }

    // MARK: Menu events

    /// One log line per menu event: what operators and the VM tests read.
    static func log(_ event: MenuEvent, on screen: MenuScreen) {
        switch event {
        case .selected(let i): Log.info("selected item \(i)")
        case .activated(let i):
            let items = screen.config.items
            Log.info("activated item \(i)" + (items.indices.contains(i) ? ": \"\(items[i].label)\" (\(items[i].action.kind))" : ""))
        case .tapped(let i): Log.info("tap on item \(i)")
        case .back: Log.info("back")
        case .released(let v, let moved): Log.info("drag released at \(v.formatted2) items/s: moving \(moved) items")
        }
    }

    private func act(on event: MenuEvent, in screen: MenuScreen) {
        switch event {
        case .selected:
            statusChanged = true
        case .tapped, .released:
            break
        case .back:
            goBack()
        case .activated(let index):
            let items = screen.config.items
            guard items.indices.contains(index) else { return }
            activate(items[index])
        }
    }

    private func activate(_ item: MenuItem) {
        statusChanged = true
        switch item.action {
        case .screen(let name):
            guard let target = config.screen(named: name) else {
                showBanner("No screen named \(name)", now: now)
                actionCounts[ActionOutcome("screen", failed: true), default: 0] += 1
                return
            }
            do {
                if target.pinHash != nil, !pinLock.isUnlocked(name) {
                    try showKeypad(for: target)
                    lastAction = (item.label, "screen", "locked: PIN asked for \(name)")
                    return
                }
                let leaving = currentScreen
                stack.append(try ScreenFactory.make(target, resources: resources, showsBack: true))
                screenShown(.push, leaving: leaving)
                lastAction = (item.label, "screen", "opened \(name)")
                actionCounts[ActionOutcome("screen", failed: false), default: 0] += 1
            } catch {
                showBanner("Cannot open \(name): \(error)", now: now)
                actionCounts[ActionOutcome("screen", failed: true), default: 0] += 1
            }
        case .back:
            goBack()
            lastAction = (item.label, "back", "ok")
            actionCounts[ActionOutcome("back", failed: false), default: 0] += 1
        case .exec(let command):
            ask(.exec(command, label: item.label), for: item, "started")
        case .spawn(let command):
            ask(.spawn(command, label: item.label), for: item, "started")
        case .reload:
            // Its outcome is `kiosk_config_reloads_total`'s.
            ask(.reload, for: item, "requested")
            actionCounts[ActionOutcome("reload", failed: false), default: 0] += 1
        case .poweroff:
            ask(.poweroff, for: item, "requested")
        case .reboot:
            ask(.reboot, for: item, "requested")
        }
    }

    /// Asks the runtime for `effect` on behalf of `item`; the status says so until it ends.
    private func ask(_ effect: Effect, for item: MenuItem, _ result: String) {
        lastAction = (item.label, item.action.kind, result)
        effects.append(effect)
    }

    private func goBack() {
        guard stack.count > 1 else { return }
        let leaving = stack.removeLast()
        left(leaving)
        screenShown(.pop, leaving: leaving)
    }

    /// A screen taken off the stack: a keypad forgets its digits, an opened locked screen locks.
    private func left(_ screen: MenuScreen) {
        if let k = keypad, screen.config.name == Keypad.name(for: k.target.name) {
            keypad = nil
            pinLock.clearEntry()
        }
        if screen.config.pinHash != nil, pinLock.isUnlocked(screen.config.name) {
            pinLock.relock(screen.config.name)
            Log.info("screen \(screen.config.name) locked again: left")
        }
    }

    /// The stack changed from showing `leaving`: the change moves as the config's `transition` says.
    private func screenShown(_ change: ScreenChange, leaving: MenuScreen) {
        fullFrameNeeded = true
        statusChanged = true
        screenChanges += 1
        // A slide moves in the reading direction of the deeper screen (the one opened or left).
        let deeper = change == .pop ? leaving : currentScreen
        transition = ScreenTransition(change, style: config.transition, start: now, rightToLeft: deeper.config.isRightToLeft)
            .map { ($0, leaving) }
    }

    /// Ends the transition in motion: the next frame shows the screen as it is.
    private func finishTransition() {
        guard transition != nil else { return }
        transition = nil
        fullFrameNeeded = true
    }

    /// The frame of the transition in motion, or nil when none runs or its pictures cannot be
    /// made (then the screen is shown at once).
    private func drawTransition(on canvas: Canvas) -> PixelRect? {
        guard let t = transition else { return nil }
        if transitionFrames == nil {
            do {
                transitionFrames = try TransitionFrames(width: width, height: height)
            } catch {
                Log.error("transition: \(error)")
                transition = nil
                return nil
            }
        }
        guard let frames = transitionFrames else { return nil }
        if let leaving = t.leaving {
            frames.begin(leaving: leaving)
            transition?.leaving = nil
        }
        return frames.draw(t.state, coming: currentScreen, on: canvas, now: now)
    }

    /// Returns to the home screen after `config.idleTimeout` seconds without input.
    private func returnHomeIfIdle() {
        guard let timeout = config.idleTimeout, timeout > 0, stack.count > 1, now >= lastInputTime + timeout else { return }
        Log.info("idle for \(Int(timeout)) s: back to \(config.home)")
        let leaving = currentScreen
        for screen in stack.dropFirst().reversed() { left(screen) }
        stack.removeSubrange(1...)
        screenShown(.pop, leaving: leaving)
    }

    // MARK: Locked screens

    private func showKeypad(for target: ScreenConfig) throws {
        pinLock.clearEntry()
        let title = Keypad.title(for: target, lock: pinLock, now: now)
        let leaving = currentScreen
        let screen = try ScreenFactory.make(Keypad.screen(for: target, title: title), resources: resources, showsBack: true)
        // It opens on the middle key, where it goes back after each digit: a few detents from every key.
        screen.select(Keypad.restingIndex)
        stack.append(screen)
        keypad = (target, title)
        screenShown(.push, leaving: leaving)
    }

    /// A key of the keypad: never logged, never in `lastAction`; only what it led to is.
    private func actOnKeypad(_ event: MenuEvent) {
        guard let k = keypad else { return }
        switch event {
        case .selected, .tapped, .released:
            return
        case .back:
            goBack()
            return
        case .activated(let index):
            guard let key = Keypad.key(at: index), let hash = k.target.pinHash else { return }
            let name = k.target.name
            let outcome = pinLock.press(key, now: now, verify: hash.matches)
            // The highlight must not stay on the digit just chosen (a screenshot, a passer-by):
            // it goes back to the middle key, a few detents from every other.
            if case .digit = key { currentScreen.select(Keypad.restingIndex) }
            switch outcome {
            case .edited, .refused:
                break
            case .wrong(let remaining):
                Log.notice("wrong PIN for screen \(name)")
                showBanner("Wrong PIN: \(remaining) \(remaining == 1 ? "try" : "tries") left", now: now)
            case .lockedOut(let seconds):
                Log.warning("keypad locked out for \(Int(seconds)) s after \(config.lock.attempts) wrong PINs (screen \(name))")
                banner = nil
            case .unlocked:
                Log.notice("screen \(name) unlocked")
                pinLock.unlock(name, now: now)
                keypad = nil
                let leaving = stack.removeLast()
                do {
                    stack.append(try ScreenFactory.make(k.target, resources: resources, showsBack: true))
                    lastAction = (name, "screen", "opened \(name)")
                    actionCounts[ActionOutcome("screen", failed: false), default: 0] += 1
                } catch {
                    pinLock.relock(name)
                    showBanner("Cannot open \(name): \(error)", now: now)
                    actionCounts[ActionOutcome("screen", failed: true), default: 0] += 1
                }
                screenShown(.replace, leaving: leaving)
                return
            }
            statusChanged = true
            refreshKeypad()
        }
    }

    /// Builds the keypad again when its title changed (a digit, the countdown), keeping the selected key.
    private func refreshKeypad() {
        _ = pinLock.advance(now: now)
        guard let k = keypad else { return }
        let title = Keypad.title(for: k.target, lock: pinLock, now: now)
        guard title != k.title else { return }
        let selected = currentScreen.selectedIndex
        do {
            let screen = try ScreenFactory.make(Keypad.screen(for: k.target, title: title), resources: resources, showsBack: true)
            screen.select(selected)
            stack[stack.count - 1] = screen
            keypad = (k.target, title)
            fullFrameNeeded = true
            statusChanged = true
        } catch {
            Log.error("keypad: \(error)")
        }
    }

    /// During a lockout, the next whole second of the countdown.
    private var nextCountdownTick: Double? {
        guard keypad != nil, let until = pinLock.lockedOutUntil, until > now else { return nil }
        return until - (until - now).rounded(.up) + 1
    }

    /// Locks again the opened screens idle for `relock_after`, leaving them (and what is above them).
    private func relockIdleScreens() {
        let relocked = pinLock.relockIdle(now: now)
        guard !relocked.isEmpty else { return }
        for name in relocked { Log.info("screen \(name) locked again after \(Int(config.lock.relockAfter)) s idle") }
        guard let first = stack.indices.dropFirst().first(where: { relocked.contains(stack[$0].config.name) }) else { return }
        let leaving = currentScreen
        for screen in stack[first...].reversed() { left(screen) }
        stack.removeSubrange(first...)
        screenShown(.pop, leaving: leaving)
    }

    /// Screens with a `pin_hash` that are not open now.
    public var lockedScreens: [String] {
        config.screens.filter { $0.pinHash != nil && !pinLock.isUnlocked($0.name) }.map(\.name)
    }

    // MARK: Banner

    public func showBanner(_ text: String, now: Double, seconds: Double = KioskApp.bannerSeconds) {
        banner = Banner(text, until: now + seconds, font: resources.font, width: width, height: height)
        fullFrameNeeded = true
        statusChanged = true
    }

    // MARK: Config

    /// Applies a checked config: a valid one replaces the running one without a restart, keeping
    /// each open screen and its selection where they still exist; an invalid one keeps the last
    /// good config and shows a banner. Returns true when applied. `assets` are the new config's
    /// font and images when already loaded (off the event loop); without them they are loaded here.
    @discardableResult
    public func apply(_ check: ConfigCheck, assets: LoadedAssets? = nil, now: Double) -> Bool {
        self.now = now
        statusChanged = true
        guard let new = check.config else {
            configValid = false
            configProblems = check.problems
            // The error first, then where it is: a narrow panel may not show the whole line.
            let first = check.problems.first { $0.severity == .error }?.messageFirst ?? "invalid config"
            showBanner("Config not applied: \(first)", now: now)
            return false
        }
        // A screen whose PIN changed locks again: whoever opened it may not know the new one.
        for screen in new.screens where screen.pinHash != config.screen(named: screen.name)?.pinHash {
            pinLock.relock(screen.name)
        }
        do {
            let leaving = currentScreen
            (resources, stack) = try rebuild(config: new, assets: try Self.ready(assets, for: new), width: width, height: height)
            // The rebuilt stack ends below a keypad: the PIN is asked again once the screen is opened again.
            if keypad != nil {
                keypad = nil
                pinLock.clearEntry()
            }
            config = new
            pinLock.config = new.lock
            pinLock.keepUnlocked(only: stack.map(\.config.name))
            generation += 1
            configValid = true
            configSource = check.source
            configProblems = check.problems
            banner = nil
            screenShown(.replace, leaving: leaving)
            Log.info("config generation \(generation) applied")
            return true
        } catch {
            showBanner("Config not applied: \(error)", now: now)
            return false
        }
    }

    /// `assets` if given, else `config`'s loaded here; the images left out are logged.
    private static func ready(_ assets: LoadedAssets?, for config: KioskConfig) throws(RasterError) -> LoadedAssets {
        let ready: LoadedAssets
        if let assets { ready = assets } else { ready = try LoadedAssets.load(for: config) }
        for line in ready.problems { Log.warning(line) }
        return ready
    }

    /// The screens of `config` at a size, replacing the open ones: home, then the open screens
    /// that still exist (up to the first that does not), each keeping its selection where the
    /// selected item is still there.
    private func rebuild(config new: KioskConfig, assets: LoadedAssets, width: Int, height: Int) throws -> (ScreenResources, [MenuScreen]) {
        let newResources = ScreenResources(theme: new.theme, assets: assets, width: width, height: height)
        let old = stack
        let homeName = new.screen(named: new.home)?.name ?? new.screens.first?.name
        guard let homeConfig = homeName.flatMap(new.screen(named:)) else { throw KioskAppError.noScreens }
        var newStack: [MenuScreen] = [try ScreenFactory.make(homeConfig, resources: newResources, showsBack: false)]
        for screen in old.dropFirst() {
            // A keypad is not a config screen: it ends the kept stack, as does a newly locked screen.
            guard let c = new.screen(named: screen.config.name), c.pinHash == nil || pinLock.isUnlocked(c.name) else { break }
            newStack.append(try ScreenFactory.make(c, resources: newResources, showsBack: true))
        }
        for (i, screen) in newStack.enumerated() where i < old.count && old[i].config.name == screen.config.name {
            screen.select(Self.keptSelection(old: old[i], new: screen))
        }
        return (newResources, newStack)
    }

    /// The selected item's new index: the same label if it is still there, else the same position (clamped).
    static func keptSelection(old: MenuScreen, new: MenuScreen) -> Int {
        let oldItems = old.config.items, newItems = new.config.items
        guard oldItems.indices.contains(old.selectedIndex), !newItems.isEmpty else { return 0 }
        let label = oldItems[old.selectedIndex].label
        if let same = newItems.firstIndex(where: { $0.label == label }) { return same }
        return min(old.selectedIndex, newItems.count - 1)
    }

    // MARK: Status

    public func status(extra: [String: StatusValue] = [:]) -> StatusDocument {
        statusChanged = false
        let screen = currentScreen
        let items = screen.config.items
        var doc: [(String, StatusValue)] = [
            ("generation", .int(generation)),
            ("config_valid", .bool(configValid)),
            ("config_errors", .array(configProblems.filter { $0.severity == .error }.map { .string($0.description) })),
            ("config_source", configSource.map { .string($0) } ?? .null),
            ("screen", .string(screen.config.name)),
            ("screens", .array(screenNames.map { .string($0) })),
            // On a keypad the selected key could tell a digit: neither is said.
            ("selection", keypad == nil ? .int(screen.selectedIndex) : .null),
            ("selected_label", keypad == nil && items.indices.contains(screen.selectedIndex) ? .string(items[screen.selectedIndex].label) : .null),
            ("banner", banner.map { .string($0.text) } ?? .null),
            ("locked_screens", .array(lockedScreens.map { .string($0) })),
            ("pin_failures", .int(pinLock.failures)),
        ]
        if let a = lastAction {
            doc.append(("last_action", .object([("item", .string(a.label)), ("action", .string(a.action)), ("result", .string(a.result))])))
        } else {
            doc.append(("last_action", .null))
        }
        for (k, v) in extra.sorted(by: { $0.key < $1.key }) { doc.append((k, v)) }
        return StatusDocument(fields: doc)
    }
}

public enum KioskAppError: Error, CustomStringConvertible {
    case noScreens
    public var description: String { "the config has no screens" }
}
