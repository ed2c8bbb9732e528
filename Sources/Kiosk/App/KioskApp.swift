import Geometry
import KioskConfiguration
import KioskSystem
import LayoutCore
import MenuScreens
import Raster
import Text

/// The kiosk without devices: input and time go in; effects and frames come out (`FrameSource`).
/// It turns menu events into actions and hands the work to small owners: the running config
/// (`AppliedConfig`), the screens (`Navigator`), the keypad and PIN (`LockFlow`), what was done
/// (`ActionRecord`), the banner. The runtime owns the output, the input devices and the
/// processes; tests drive this directly.
public final class KioskApp: FrameSource {
    private var applied: AppliedConfig
    private let navigator: Navigator
    private var lock: LockFlow
    private var actions = ActionRecord()
    private var banner: Banner?
    /// What is said and when (`[speech]`); nil when the config does not speak.
    private var speech: SpeechCues?
    /// Moves the menu by itself until the first input (`kiosk demo`); nil: only input moves it.
    public var autopilot: Autopilot?
    /// When someone last used the device: idle time (`idle_timeout`) counts from it. Shared
    /// with the runtime, which notes device input here and whose panel power counts from it too.
    public let activity: Activity
    /// The live values and toggle states the labels show; set by the runtime's readings (and
    /// later the control API).
    public let values: LiveValues
    /// The values' revision and the screen the top screen was last built with them for, when, and
    /// the next moment a shown value turns stale.
    private var presented: (revision: Int, screen: ObjectIdentifier?, at: Double, staleAt: Double?) = (-1, nil, -.infinity, nil)
    /// Values that change on the screen shown build it again at most this often (readings that
    /// end one after the other are shown together).
    static let valueRebuildInterval = 0.2
    private var now: Double
    /// When the control API last chose the screen: `idle_timeout` counts from it too, so a screen
    /// shown from outside is not taken away at once on a device nobody touched.
    private var controlledAt = -Double.infinity
    /// How much of the picture is out of date since the last frame the output took.
    public private(set) var frameNeed = FrameNeed.full
    /// Effects asked for since the last `advance`.
    private var effects: [Effect] = []
    public static let bannerSeconds = 8.0
    /// The font, images and icons the open screens draw with (the config's, as last loaded).
    var assets: LoadedAssets { navigator.resources.assets }
    /// Signalled by each config's icon render thread when an icon it rendered can be drawn. Set
    /// by the runtime: from then on no icon is rendered on the caller's (the loop's) thread, and
    /// an icon not rendered yet is drawn once it arrives (`iconsArrived`). nil (tests, `kiosk
    /// render`): icons are rendered where they are drawn.
    public var iconArrivals: WakeSource? {
        didSet { renderIconsInBackground() }
    }

    /// `assets` are `config`'s font and images when already loaded; without them they are loaded here.
    /// `lockStore` keeps the PIN lockout across restarts; nil: in memory only.
    public init(config: KioskConfig, assets: LoadedAssets? = nil, valid: Bool = true, problems: [ConfigProblem] = [],
                source: String? = nil, lockStore: PinLockStore? = nil, width: Int, height: Int, now: Double) throws {
        applied = AppliedConfig(config, valid: valid, problems: problems, source: source)
        self.now = now
        activity = Activity(now: now)
        values = LiveValues(config)
        lock = LockFlow(config.lock, store: lockStore, now: now)
        speech = config.speech.enabled ? SpeechCues(settle: config.speech.settle) : nil
        let resources = ScreenResources(theme: config.theme, assets: try Self.ready(assets, for: config), width: width, height: height)
        guard let home = config.screen(named: config.home) ?? config.screens.first else { throw KioskAppError.noScreens }
        navigator = Navigator(home: try ScreenFactory.make(home, resources: resources, showsBack: false, values: values, now: now), resources: resources,
                              transitionStyle: config.transition)
        cueScreenOpened()
    }

    public var config: KioskConfig { applied.config }
    public var generation: Int { applied.generation }
    public var configValid: Bool { applied.valid }
    public var reloadsApplied: Int { applied.reloadsApplied }
    public var reloadsRefused: Int { applied.reloadsRefused }
    public var width: Int { navigator.width }
    public var height: Int { navigator.height }
    public var currentScreen: MenuScreen { navigator.current }
    public var screenNames: [String] { navigator.names }
    public var bannerText: String? { banner?.text }
    public var lastAction: LastAction? { actions.last }
    public var actionCounts: [ActionOutcome: Int] { actions.counts }
    public var pinLock: PinLock { lock.pinLock }
    /// The change of screen in motion, if any.
    public var currentTransition: ScreenTransition? { navigator.currentTransition }

    // MARK: FrameSource

    public func handle(_ input: MenuInput, now: Double) {
        self.now = now
        activity.note(at: now)
        // Input during a transition is meant for the screen coming in: it arrives at once.
        if navigator.isTransitioning {
            navigator.finishTransition()
            frameNeed.raise(to: .full)
        }
        if let pilot = autopilot {
            // The first touch or turn takes over from the self-scrolling, from where it is.
            autopilot = nil
            if let position = pilot.position(at: now) { currentScreen.jump(to: ScrollOffset(whole: position.nearestItem)) }
        }
        if speech?.moved(touch: { if case .gesture = input { true } else { false } }()) == true { effects.append(.silence) }
        currentScreen.handle(input, now: now)
        frameNeed.raise(to: .changed)
    }

    public func advance(now: Double) -> [Effect] {
        self.now = now
        if let b = banner, b.until <= now {
            banner = nil
            frameNeed.raise(to: .full)
        }
        returnHomeIfIdle()
        relockIdleScreens()
        endUnansweredSwitches(now: now)
        if lock.refresh(on: navigator, now: now) { frameNeed.raise(to: .full) }
        if let pilot = autopilot {
            if let position = pilot.position(at: now) {
                currentScreen.jump(to: position)
                frameNeed.raise(to: .changed)
            } else if let steps = autopilot?.takeSteps(until: now), steps > 0 {
                currentScreen.handle(.command(.next, count: steps), now: now)
            }
        }
        presentValues(now: now)
        if currentScreen.needsFrame || currentScreen.isMoving { frameNeed.raise(to: .changed) }
        let screen = currentScreen
        // Events of a keypad stay the keypad's even after a right PIN replaced it mid-batch.
        let onKeypad = lock.isKeypadShown
        for event in screen.update(now: now) {
            cue(event, on: screen, keypad: onKeypad)
            if onKeypad {
                if lock.isKeypadShown { keypadEvent(event) }
                continue
            }
            Self.log(event, on: screen)
            act(on: event, in: screen)
        }
        if navigator.takeScreenChange() {
            frameNeed.raise(to: .full)
            effects.append(.screenChanged)
            effects.append(.event(.screenChanged(currentScreen.config.name)))
            cueScreenOpened()
        }
        if let due = speech?.take(now: now) {
            Log.info("speech: \(due.secret ? "a key of the keypad" : "\"\(due.text)\"") (settled at \(Int(due.since * 1000)) ms)")
            effects.append(.speak(due.text))
        }
        if navigator.isTransitioning {
            navigator.advanceTransition(now: now)
            // Ended (or could not start): the screen as it is, whole.
            frameNeed.raise(to: navigator.isTransitioning ? .changed : .full)
        }
        defer { effects.removeAll() }
        return effects
    }

    public var isAnimating: Bool { currentScreen.isMoving || autopilot?.isContinuous == true || navigator.isTransitioning }

    public var nextDeadline: Double? {
        let idle = config.idleTimeout.flatMap { $0 > 0 && navigator.stack.count > 1 ? idleSince + $0 : nil }
        // Readings waiting for the rebuild interval (not those waiting for a screen to come to rest:
        // its motion's frames and its release bring passes anyway).
        let valuesDue = presented.at + Self.valueRebuildInterval
        let valuesWaiting = presented.revision != values.revision && valuesDue > now ? valuesDue : nil
        return [idle, banner?.until, autopilot?.nextStep, lock.nextDeadline(now: now, lastInput: activity.lastInput), speech?.deadline,
                values.nextStale(among: shownValueIDs, now: now), valuesWaiting, values.nextUnansweredSwitch].compactMap { $0 }.min()
    }

    // MARK: Live values

    /// The ids of the values and toggles on the screen shown (none on a keypad): the ones the
    /// runtime keeps reading.
    public var shownValueIDs: [String] {
        guard !lock.isKeypadShown, let screen = config.screen(named: currentScreen.config.name) else { return [] }
        return LivePresentation.ids(on: screen)
    }

    /// Builds the top screen again with the values as they stand, when they changed (or one
    /// turned stale) since it was built. Not while it moves or a finger holds it: its motion
    /// would be cut; the values show when it comes to rest.
    public func presentValues(now: Double) {
        let top = currentScreen
        let stale = values.nextStale(among: shownValueIDs, now: now)
        let sameScreen = presented.screen == ObjectIdentifier(top)
        guard presented.revision != values.revision || !sameScreen || (presented.staleAt.map { now >= $0 } ?? false) else { return }
        // New readings on the same screen wait for the interval; another screen is built at once.
        if sameScreen, now < presented.at + Self.valueRebuildInterval { return }
        guard !lock.isKeypadShown, !top.isMoving, !top.isHeld, !navigator.isTransitioning,
              let written = config.screen(named: top.config.name) else { return }
        let shown = LivePresentation.present(written, values: values, now: now)
        presented = (values.revision, ObjectIdentifier(top), now, stale)
        guard shown != top.config else { return }
        do {
            let screen = try ScreenFactory.make(shown, resources: navigator.resources, showsBack: navigator.stack.count > 1)
            screen.select(top.selectedIndex)
            navigator.swapTop(for: screen)
            presented.screen = ObjectIdentifier(screen)
            frameNeed.raise(to: .full)
        } catch {
            Log.error("live values: \(error)")
        }
    }

    /// A toggle's `on`/`off` command ended; a failure keeps the old state and shows a banner.
    public func toggleSwitched(_ id: String, label: String, failure: String?, now: Double) {
        self.now = now
        actions.count(.toggle, failed: failure != nil)
        if let message = values.switchEnded(id, failure: failure, now: now) {
            actions.record(label, .toggle, message)
            showBanner("\(label): \(message)", now: now)
        } else {
            actions.record(label, .toggle, "switched")
        }
    }

    /// The current screen's scroll position: what a frame drawn now shows.
    public var position: ScrollOffset { currentScreen.position }

    public func draw(on canvas: Canvas, full: Bool) -> [PixelRect] {
        let full = full || frameNeed == .full
        let missing = assets.iconRenders?.iconsNotYetDrawn
        let damage = navigator.draw(on: canvas, full: full, now: now)
        lastFrameLacksIcons = assets.iconRenders?.iconsNotYetDrawn != missing
        var rects = [full ? PixelRect(x: 0, y: 0, width: width, height: height) : damage]
        if let b = banner { rects.append(b.draw(on: canvas, font: navigator.resources.font, theme: navigator.resources.theme, width: width, height: height)) }
        return rects
    }

    public func frameTaken() { frameNeed = .none }

    /// A display of another size was connected: lay every open screen out again for it,
    /// keeping the screens and their selections (a keypad comes back empty).
    public func resize(width: Int, height: Int) throws {
        guard width != self.width || height != self.height else { return }
        let guarded = lock.takeKeypadTarget()
        let rebuilt = try rebuild(config: config, assets: navigator.resources.assets, width: width, height: height)
        navigator.resize(resources: rebuilt.resources, stack: rebuilt.stack)
        banner?.layOut(font: navigator.resources.font, width: width, height: height)
        // The rebuilt stack ends below the keypad: put it back (without the digits entered).
        if let guarded {
            try lock.showKeypad(for: guarded, on: navigator, now: now)
            navigator.finishTransition()
        }
        frameNeed.raise(to: .full)
    }

    public func effectFinished(_ action: ActionRequest, result: String, failed: Bool, now: Double) {
        actions.record(action.label, action.kind, result)
        actions.count(action.kind, failed: failed)
        if failed { showBanner("\(action.label): \(result)", now: now) }
    }

    // MARK: Menu events

    /// One log line per menu event: what operators and the VM tests read.
    static func log(_ event: MenuEvent, on screen: MenuScreen) {
        switch event {
        case .selected(let i): Log.info("selected item \(i)")
        case .activated(let i):
            let items = screen.config.items
            Log.info("activated item \(i)" + (items.indices.contains(i) ? ": \"\(LiveLabel.plain(items[i].label))\" (\(items[i].action.kind))" : ""))
        case .tapped(let i): Log.info("tap on item \(i)")
        case .back: Log.info("back")
        case .released(let v, let moved): Log.info("drag released at \(v.formatted2) items/s: moving \(moved) items")
        }
    }

    /// What `event` on `screen` gives `[speech]` to say.
    private func cue(_ event: MenuEvent, on screen: MenuScreen, keypad: Bool) {
        guard speech != nil else { return }
        let items = screen.config.items
        switch event {
        case .selected(let i) where items.indices.contains(i):
            if keypad {
                speech?.keypadSettled(on: items[i].label, now: now)
            } else {
                speech?.settled(on: Self.spoken(items[i]), now: now)
            }
        case .activated(let i), .tapped(let i):
            if keypad, let key = Keypad.key(at: i) {
                if case .digit = key { speech?.keypadPressed(digit: true, now: now) } else { speech?.keypadPressed(digit: false, now: now) }
            }
        default:
            break
        }
    }

    /// The screen on top opened: its title and selected item are said.
    private func cueScreenOpened() {
        let top = currentScreen
        let items = top.config.items
        speech?.screenOpened(title: top.config.title.map(LiveLabel.plain) ?? top.config.name,
                             focused: items.indices.contains(top.selectedIndex) ? Self.spoken(items[top.selectedIndex]) : nil,
                             keypad: lock.isKeypadShown, now: now)
    }

    /// An item as said: its label as shown, with its live value.
    static func spoken(_ item: MenuItem) -> String { LiveLabel.plain(item.label).trimmingWhitespace }

    private func act(on event: MenuEvent, in screen: MenuScreen) {
        switch event {
        case .selected(let index):
            navigator.settled(on: index)
            let items = screen.config.items
            if items.indices.contains(index) { effects.append(.event(.selectionChanged(index: index, label: LiveLabel.plain(items[index].label)))) }
        case .tapped, .released:
            break
        case .back:
            goBack()
        case .activated(let index):
            // The items as written: the screen's labels carry their values.
            let written = config.screen(named: screen.config.name)?.items
            let items = written?.count == screen.config.items.count ? written! : screen.config.items
            guard items.indices.contains(index) else { return }
            activate(items[index])
        }
    }

    private func activate(_ item: MenuItem) {
        effects.append(.event(.itemActivated(id: item.id, label: Self.plainLabel(item))))
        switch item.action {
        case .screen(let name):
            open(name, for: item)
        case .back:
            goBack()
            actions.record(item.label, .back, "ok")
            actions.count(.back, failed: false)
        case .exec(let command):
            ask(.exec(command, label: item.label), for: item, "started")
        case .spawn(let command):
            ask(.spawn(command, label: item.label), for: item, "started")
        case .reload:
            // Its outcome is `kiosk_config_reloads_total`'s.
            ask(.reload, for: item, "requested")
            actions.count(.reload, failed: false)
        case .poweroff:
            ask(.poweroff, for: item, "requested")
        case .reboot:
            ask(.reboot, for: item, "requested")
        case .toggle:
            guard let id = item.id, let toggle = values.toggle(id) else { return }
            guard let on = values.beginSwitch(id, now: now) else {
                Log.info("\"\(id)\" is still switching; press ignored")
                return
            }
            switchStarted(item, id: id, toggle: toggle, on: on)
        }
    }

    /// A switch `LiveValues.beginSwitch` has started, by a press or from outside: recorded, and
    /// its `on` or `off` command run as an effect.
    private func switchStarted(_ item: MenuItem, id: String, toggle: ToggleConfig, on: Bool) {
        guard let command = on ? toggle.on : toggle.off else {
            // No command of its own: whoever sets it through the control API is asked, and the
            // switch runs until it answers by setting the state (or its timeout passes).
            actions.record(item.label, .toggle, on ? "asked to switch on" : "asked to switch off")
            effects.append(.event(.toggleRequested(id: id, on: on)))
            return
        }
        actions.record(item.label, .toggle, on ? "switching on" : "switching off")
        effects.append(.switchToggle(id: id, command: command, label: Self.plainLabel(item)))
    }

    /// Switches asked of the control API that got no answer in time end: the old state stays and
    /// a banner says so.
    private func endUnansweredSwitches(now: Double) {
        for (id, message) in values.unansweredSwitches(now: now) {
            let label = config.screens.lazy.flatMap(\.items).first { $0.id == id }.map(Self.plainLabel) ?? id
            actions.count(.toggle, failed: true)
            actions.record(label, .toggle, message)
            showBanner("\(label): \(message)", now: now)
        }
    }

    /// An item's label without its value's placeholder (for banners and logs).
    static func plainLabel(_ item: MenuItem) -> String {
        item.label.replacing(LiveLabel.placeholder, with: "").trimmingWhitespace
    }

    /// Opens screen `name` for `item`, or the keypad in front of it.
    private func open(_ name: String, for item: MenuItem) {
        guard let target = config.screen(named: name) else {
            showBanner("No screen named \(name)", now: now)
            actions.count(.screen, failed: true)
            return
        }
        do {
            if lock.isLocked(target) {
                try lock.showKeypad(for: target, on: navigator, now: now)
                actions.record(item.label, .screen, "locked: PIN asked for \(name)")
                return
            }
            navigator.push(try ScreenFactory.make(target, resources: navigator.resources, showsBack: true, values: values, now: now), now: now)
            actions.record(item.label, .screen, "opened \(name)")
            actions.count(.screen, failed: false)
        } catch {
            showBanner("Cannot open \(name): \(error)", now: now)
            actions.count(.screen, failed: true)
        }
    }

    /// Asks the runtime for `action` on behalf of `item`; the status says so until it ends.
    private func ask(_ action: ActionRequest, for item: MenuItem, _ result: String) {
        actions.record(item.label, item.action.kind, result)
        effects.append(.run(action))
    }

    private func goBack() {
        if let left = navigator.pop(now: now) { lock.left(left) }
    }

    /// Where `idle_timeout` counts from: the last input, or the control API's last change of screen.
    private var idleSince: Double { max(activity.lastInput, controlledAt) }

    /// Returns to the home screen after `idle_timeout` seconds without input.
    private func returnHomeIfIdle() {
        guard let timeout = config.idleTimeout, timeout > 0, navigator.stack.count > 1, now >= idleSince + timeout else { return }
        Log.info("idle for \(Int(timeout)) s: back to \(config.home)")
        for screen in navigator.pop(from: 1, now: now) { lock.left(screen) }
    }

    // MARK: Locked screens

    /// A key of the keypad: never logged, never in the last action; only what it led to is.
    private func keypadEvent(_ event: MenuEvent) {
        let top = navigator.current
        defer {
            // A digit or the countdown made a new keypad; the keypad left or opened its screen.
            if navigator.current !== top { frameNeed.raise(to: .full) }
        }
        switch lock.handle(event, on: navigator, now: now) {
        case .nothing:
            break
        case .back:
            goBack()
        case .wrong(let remaining):
            showBanner("Wrong PIN: \(remaining) \(remaining == 1 ? "try" : "tries") left", now: now)
        case .lockedOut:
            banner = nil
            frameNeed.raise(to: .full)
        case .opened(let name):
            actions.record(name, .screen, "opened \(name)")
            actions.count(.screen, failed: false)
        case .failedToOpen(let name, let error):
            showBanner("Cannot open \(name): \(error)", now: now)
            actions.count(.screen, failed: true)
        }
    }

    /// Locks again the opened screens idle for `relock_after`, leaving them (and what is above them).
    private func relockIdleScreens() {
        let relocked = lock.relockIdle(now: now, lastInput: activity.lastInput)
        guard !relocked.isEmpty,
              let first = navigator.stack.indices.dropFirst().first(where: { relocked.contains(navigator.stack[$0].config.name) }) else { return }
        for screen in navigator.pop(from: first, now: now) { lock.left(screen) }
    }

    /// Screens with a `pin_hash` that are not open now.
    public var lockedScreens: [String] { lock.lockedScreens(in: config) }

    // MARK: Control

    /// Shows screen `name` for the control API: goes back to it when it is open, else the stack
    /// becomes home and it. `KioskControl`'s gate has refused a screen behind a PIN already: no
    /// keypad is ever put up from outside.
    public func show(screen name: String, now: Double) throws(ControlError) {
        self.now = now
        guard let target = config.screen(named: name) else { throw .unknownScreen(name, known: config.screens.map(\.name)) }
        if let open = navigator.stack.firstIndex(where: { $0.config.name == name }) {
            // Already open (an unlocked locked screen too): go back to it.
            for screen in navigator.pop(from: open + 1, now: now) { lock.left(screen) }
        } else {
            let screen: MenuScreen
            do {
                screen = try ScreenFactory.make(target, resources: navigator.resources, showsBack: true, values: values, now: now)
            } catch {
                throw .badArgument("screen \(name) cannot be shown: \(error)")
            }
            for left in navigator.replaceAboveHome(with: screen, now: now) { lock.left(left) }
        }
        controlledAt = now
        frameNeed.raise(to: .full)
    }

    /// The state a preview asks for (`kiosk render`, `LayoutProbe`): screen `name` opened above
    /// home as a press on an item opens it (its back button drawn), or with `keypad` the keypad
    /// its PIN puts up first; item (or key) `selection` selected. At rest: no transition runs.
    /// The next draw reports what it lays out to `report`.
    func preview(screen name: String, keypad: Bool = false, selection: Int? = nil, reportingTo report: LayoutReport? = nil) throws(PreviewError) {
        navigator.resources.layoutReport = report
        guard let target = config.screen(named: name) else {
            throw PreviewError("no screen named \(name); screens: \(config.screens.map(\.name).joined(separator: ", "))")
        }
        do {
            if keypad {
                guard target.pinHash != nil else { throw PreviewError("screen \(name) has no pin_hash, so no keypad") }
                try lock.showKeypad(for: target, on: navigator, now: now)
            } else if name != navigator.stack[0].config.name {
                navigator.push(try ScreenFactory.make(target, resources: navigator.resources, showsBack: true, values: values, now: now), now: now)
            } else if report != nil {
                // Home drew its chrome (the title) when the app was made, before there was a report.
                navigator.swapTop(for: try ScreenFactory.make(target, resources: navigator.resources, showsBack: false, values: values, now: now))
            }
        } catch let error as PreviewError {
            throw error
        } catch {
            throw PreviewError("screen \(name) cannot be shown: \(error)")
        }
        navigator.finishTransition()
        if let selection {
            let count = currentScreen.config.items.count
            guard (0..<count).contains(selection) else {
                throw PreviewError("--select \(selection): \(currentScreen.config.name) has \(count) items (0 to \(count - 1))")
            }
            currentScreen.select(selection)
        }
        frameNeed.raise(to: .full)
    }

    /// Back to the home screen (for the control API), leaving every screen above it.
    public func goHome(now: Double) {
        self.now = now
        for screen in navigator.pop(from: 1, now: now) { lock.left(screen) }
        frameNeed.raise(to: .full)
    }

    /// Activates the item with `id` as a press on it would, for the control API (a Home Assistant
    /// button, `[mqtt]`); `KioskControl`'s gate has checked the lock and `publish` already.
    public func press(id: String, now: Double) throws(ControlError) {
        self.now = now
        guard let item = config.screens.lazy.flatMap(\.items).first(where: { $0.id == id }) else { throw .badArgument("no item has id \"\(id)\"") }
        activate(item)
        controlledAt = now
        frameNeed.raise(to: .full)
    }

    /// Switches toggle `id` to `on` from outside, as a press would: its `on`/`off` command runs
    /// (nothing when it is known to be there already). For a toggle read from a command or a file;
    /// an `api = true` toggle's state is set, not switched (`LiveValues.setToggle`).
    public func switchToggle(id: String, on: Bool, now: Double) throws(ControlError) {
        self.now = now
        guard let toggle = values.toggle(id),
              let item = config.screens.lazy.flatMap(\.items).first(where: { $0.id == id && $0.toggle != nil }) else {
            throw values.source(id) != nil ? .notAToggle(id) : .unknownItem(id)
        }
        if values.isOn(id) == on, !values.isSwitching(id) { return }
        guard values.beginSwitch(id, to: on, now: now) != nil else {
            throw .badArgument("\"\(id)\" is still switching; ask again when that ends")
        }
        switchStarted(item, id: id, toggle: toggle, on: on)
        frameNeed.raise(to: .changed)
    }

    /// A message from outside over whatever is shown (the keypad too), its level as a word first.
    /// It takes the banner's place, as any newer message does.
    public func notify(_ text: String, level: NotifyLevel, seconds: Double, now: Double) {
        self.now = now
        showBanner("\(level.word): \(text)", now: now, seconds: seconds)
    }

    // MARK: Banner

    public func showBanner(_ text: String, now: Double, seconds: Double = KioskApp.bannerSeconds) {
        banner = Banner(text, until: now + seconds, font: navigator.resources.font, width: width, height: height,
                        scale: navigator.resources.textScale)
        frameNeed.raise(to: .full)
    }

    /// Icons rendered in the background arrived (`iconArrivals`): the frame is drawn again with them.
    public func iconsArrived() { frameNeed.raise(to: .full) }

    /// Icon renders asked for by drawing and not yet arrived.
    public var iconRendersPending: Int { assets.iconRenders?.pending ?? 0 }

    /// The last frame drawn was drawn while icons were still being rendered (some may be missing
    /// from it): a screenshot waits for one that was not.
    public private(set) var lastFrameLacksIcons = false

    private func renderIconsInBackground() {
        guard let iconArrivals, let service = assets.iconRenders else { return }
        do {
            try service.renderInBackground(arrivals: iconArrivals)
        } catch {
            Log.error("cannot render icons off the event loop: \(error); they are rendered where they are drawn")
        }
    }

    // MARK: Config

    /// Applies a checked config: a valid one replaces the running one without a restart, keeping
    /// each open screen and its selection where they still exist; an invalid one keeps the last
    /// good config and shows a banner. Returns true when applied. `assets` are the new config's
    /// font and images when already loaded (off the event loop); without them they are loaded here.
    /// When applied, the runtime is told the settings it owns with `.settingsChanged`.
    @discardableResult
    public func apply(_ check: ConfigCheck, assets: LoadedAssets? = nil, now: Double) -> Bool {
        self.now = now
        guard let new = check.config else {
            applied.refused(problems: check.problems)
            // The error first, then where it is: a narrow panel may not show the whole line.
            let first = check.problems.first { $0.severity == .error }?.messageFirst ?? "invalid config"
            showBanner("Config not applied: \(first)", now: now)
            return false
        }
        lock.configure(old: config, new: new)
        values.configure(new)
        if new.speech.enabled {
            if speech == nil { speech = SpeechCues(settle: new.speech.settle) } else { speech?.settle = new.speech.settle }
        } else {
            if speech?.moved(touch: false) == true { effects.append(.silence) }
            speech = nil
        }
        do {
            let rebuilt = try rebuild(config: new, assets: try Self.ready(assets, for: new), width: width, height: height)
            navigator.transitionStyle = new.transition
            navigator.replaceAll(resources: rebuilt.resources, stack: rebuilt.stack, now: now)
            lock.rebuilt(open: navigator.names)
            renderIconsInBackground()
            applied.applied(new, from: check)
            banner = nil
            frameNeed.raise(to: .full)
            effects.append(.settingsChanged(RuntimeSettings(new)))
            Log.info("config generation \(generation) applied")
            return true
        } catch {
            applied.refused(problems: nil)
            showBanner("Config not applied: \(error)", now: now)
            return false
        }
    }

    /// What the runtime's own owners take from the config (input, power, files).
    public var runtimeSettings: RuntimeSettings { RuntimeSettings(config) }

    /// `assets` if given, else `config`'s loaded here; the images left out are logged.
    private static func ready(_ assets: LoadedAssets?, for config: KioskConfig) throws(TextError) -> LoadedAssets {
        let ready: LoadedAssets
        if let assets { ready = assets } else { ready = try LoadedAssets.load(for: config) }
        for line in ready.problems { Log.warning(line) }
        return ready
    }

    /// The screens of `config` at a size, replacing the open ones: home, then the open screens
    /// that still exist (up to the first that does not, or that is locked), each carrying over
    /// what the user had on it (`carryOver`).
    private func rebuild(config new: KioskConfig, assets: LoadedAssets, width: Int, height: Int) throws -> (resources: ScreenResources, stack: [MenuScreen]) {
        let resources = ScreenResources(theme: new.theme, assets: assets, width: width, height: height)
        let old = navigator.stack
        let homeName = new.screen(named: new.home)?.name ?? new.screens.first?.name
        guard let homeConfig = homeName.flatMap(new.screen(named:)) else { throw KioskAppError.noScreens }
        var stack: [MenuScreen] = [try ScreenFactory.make(homeConfig, resources: resources, showsBack: false, values: values, now: now)]
        for screen in old.dropFirst() {
            // A keypad is not a config screen: it ends the kept stack, as does a newly locked screen.
            guard let c = new.screen(named: screen.config.name), !lock.isLocked(c) else { break }
            stack.append(try ScreenFactory.make(c, resources: resources, showsBack: true, values: values, now: now))
        }
        for (i, screen) in stack.enumerated() where i < old.count && old[i].config.name == screen.config.name {
            Self.carryOver(from: old[i], to: screen, now: now)
        }
        return (resources, stack)
    }

    /// What the user had on `old` goes on on `new`: the selection and, while a finger holds the
    /// menu (a config applied mid-drag), the finger's hold, so that its next moves drag the new
    /// menu and its release settles it. A held menu keeps its exact position when the new one
    /// counts positions the same way (same shape, same items).
    static func carryOver(from old: MenuScreen, to new: MenuScreen, now: Double) {
        if old.isHeld, type(of: old) == type(of: new), old.config.items.count == new.config.items.count {
            new.jump(to: old.position)
        } else {
            new.select(keptSelection(old: old, new: new))
        }
        if old.isHeld { new.takeHold(now: now) }
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

    /// The running config as the status file says it; `path` is the file the runtime watches.
    public func configStatus(path: String?) -> ConfigStatus { applied.status(path: path) }

    /// What the menu shows. On a keypad the selected key could tell a digit: neither is said.
    public var menuStatus: MenuStatus {
        let items = currentScreen.config.items
        let selection = lock.isKeypadShown ? nil : navigator.settledSelection
        return MenuStatus(screen: currentScreen.config.name, screens: screenNames, selection: selection,
                          selectedLabel: selection.flatMap { items.indices.contains($0) ? LiveLabel.plain(items[$0].label) : nil },
                          banner: banner?.text, lastAction: actions.last)
    }

    public var lockStatus: LockStatus { LockStatus(lockedScreens: lockedScreens, pinFailures: lock.pinLock.failures) }
}

/// Why a preview's state cannot be drawn (`KioskApp.preview`).
public struct PreviewError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

public enum KioskAppError: Error, CustomStringConvertible {
    case noScreens
    public var description: String { "the config has no screens" }
}
