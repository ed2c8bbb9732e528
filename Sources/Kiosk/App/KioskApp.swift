import LayoutCore
import Raster

/// What the app asks the runtime to do: things that touch processes or the machine.
public enum AppRequest: Equatable, Sendable {
    /// Hand the display and input to `command` until it exits.
    case exec(Command, label: String)
    /// Start `command` in the background.
    case spawn(Command, label: String)
    case reload
    case poweroff
    case reboot
}

/// The kiosk without devices: the config, the stack of screens, the banner, what was last done.
/// Input and time go in; frames and requests come out. The runtime owns the display, the input
/// devices and the processes; tests drive this directly.
public final class KioskApp {
    public private(set) var config: KioskConfig
    /// Counts configs applied (1 for the first); a monitoring system sees reloads happen.
    public private(set) var generation = 1
    /// False while running a rescue config or after an invalid reload kept the last good one.
    public private(set) var configValid: Bool
    public private(set) var configProblems: [ConfigProblem]
    public private(set) var width: Int
    public private(set) var height: Int
    private var resources: ScreenResources
    private(set) var stack: [MenuScreen] = []
    private var banner: (text: String, until: Double)?
    private var bannerShown = false
    public private(set) var lastAction: (label: String, action: String, result: String)?
    private var lastInputTime: Double
    private var fullFrameNeeded = true
    /// Requests for the runtime, taken with `takeRequests()`.
    private var requests: [AppRequest] = []
    /// Something changed that the status file should say.
    public private(set) var statusChanged = true
    public static let bannerSeconds = 8.0

    /// `assets` are `config`'s font and images when already loaded; without them they are loaded here.
    public init(config: KioskConfig, assets: LoadedAssets? = nil, valid: Bool = true, problems: [ConfigProblem] = [],
                width: Int, height: Int, now: Double) throws {
        self.config = config
        configValid = valid
        configProblems = problems
        self.width = width
        self.height = height
        resources = ScreenResources(theme: config.theme, assets: try Self.ready(assets, for: config), width: width, height: height)
        lastInputTime = now
        try openHome()
    }

    public var currentScreen: MenuScreen { stack[stack.count - 1] }
    public var screenNames: [String] { stack.map(\.config.name) }
    public var isMoving: Bool { currentScreen.isMoving }
    public var needsFrame: Bool { fullFrameNeeded || currentScreen.needsFrame || bannerExpired }
    public var bannerText: String? { banner?.text }
    private var now: Double = 0
    private var bannerExpired: Bool { banner.map { $0.until <= now } ?? false }

    private func openHome() throws {
        guard let home = config.screen(named: config.home) ?? config.screens.first else {
            throw KioskAppError.noScreens
        }
        stack = [try makeScreen(home, showsBack: false)]
        fullFrameNeeded = true
    }

    private func makeScreen(_ screen: ScreenConfig, showsBack: Bool) throws -> MenuScreen {
        try ScreenFactory.make(screen, resources: resources, showsBack: showsBack)
    }

    // MARK: Input and time

    public func handle(_ input: MenuInput, now: Double) {
        self.now = now
        lastInputTime = now
        currentScreen.handle(input, now: now)
    }

    /// Returns to the home screen after `config.idleTimeout` seconds without input.
    /// Returns the time at which it should be called again (nil: never).
    public func checkIdle(now: Double) -> Double? {
        self.now = now
        guard let timeout = config.idleTimeout, timeout > 0 else { return nil }
        let due = lastInputTime + timeout
        if now >= due {
            if stack.count > 1 {
                Log.info("idle for \(Int(timeout)) s: back to \(config.home)")
                stack.removeSubrange(1...)
                fullFrameNeeded = true
                statusChanged = true
            }
            lastInputTime = now
            return now + timeout
        }
        return due
    }

    /// Draws the current screen at `now` and acts on what happened. Returns the damage.
    public func render(into target: PixelBuffer, now: Double) -> [PixelRect] {
        self.now = now
        var full = fullFrameNeeded
        if bannerExpired {
            banner = nil
            full = true
        }
        fullFrameNeeded = false
        let screen = currentScreen
        let (damage, events) = screen.render(into: target, now: now, full: full)
        var rects = [full ? PixelRect(x: 0, y: 0, width: width, height: height) : damage]
        for e in events { act(on: e, in: screen, now: now) }
        if fullFrameNeeded {
            // The event changed screens: draw the new one now rather than a frame later.
            fullFrameNeeded = false
            _ = currentScreen.render(into: target, now: now, full: true)
            rects = [PixelRect(x: 0, y: 0, width: width, height: height)]
        }
        if let b = banner {
            rects.append(drawBanner(b.text, into: target))
        }
        return rects
    }

    private func act(on event: MenuEvent, in screen: MenuScreen, now: Double) {
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
            activate(items[index], now: now)
        }
    }

    private func activate(_ item: MenuItem, now: Double) {
        Log.info("activated \"\(item.label)\" (\(item.action.kind))")
        statusChanged = true
        switch item.action {
        case .screen(let name):
            guard let target = config.screen(named: name) else {
                showBanner("No screen named \(name)", now: now)
                return
            }
            do {
                stack.append(try makeScreen(target, showsBack: true))
                fullFrameNeeded = true
                lastAction = (item.label, "screen", "opened \(name)")
            } catch {
                showBanner("Cannot open \(name): \(error)", now: now)
            }
        case .back:
            goBack()
            lastAction = (item.label, "back", "ok")
        case .exec(let command):
            lastAction = (item.label, "exec", "started")
            requests.append(.exec(command, label: item.label))
        case .spawn(let command):
            lastAction = (item.label, "spawn", "started")
            requests.append(.spawn(command, label: item.label))
        case .reload:
            lastAction = (item.label, "reload", "requested")
            requests.append(.reload)
        case .poweroff:
            lastAction = (item.label, "poweroff", "requested")
            requests.append(.poweroff)
        case .reboot:
            lastAction = (item.label, "reboot", "requested")
            requests.append(.reboot)
        }
    }

    private func goBack() {
        guard stack.count > 1 else { return }
        stack.removeLast()
        fullFrameNeeded = true
        statusChanged = true
    }

    public func takeRequests() -> [AppRequest] {
        defer { requests.removeAll() }
        return requests
    }

    /// The runtime reports how an action ended (a program exited, failed to start, ...).
    public func actionFinished(label: String, action: String, result: String, failed: Bool, now: Double) {
        lastAction = (label, action, result)
        statusChanged = true
        if failed { showBanner("\(label): \(result)", now: now) }
    }

    // MARK: Banner

    public func showBanner(_ text: String, now: Double, seconds: Double = KioskApp.bannerSeconds) {
        banner = (text, now + seconds)
        fullFrameNeeded = true
    }

    private func drawBanner(_ text: String, into target: PixelBuffer) -> PixelRect {
        let h = Double(height), w = Double(width)
        let size = max(12, h * 0.035)
        let bar = Rect(x: 0, y: h - size * 2.2, width: w, height: size * 2.2)
        let canvas = Canvas(target)
        // Opaque: it is drawn again over itself on frames that do not redraw what lies under it.
        canvas.fill(bar, color: resources.theme.banner)
        let metrics = resources.font.lineMetrics(size: size)
        canvas.drawText(text, font: resources.font, size: size,
                        at: Point(x: size, y: bar.midY + (metrics.ascent - metrics.descent) / 2),
                        color: resources.theme.bannerText, maxWidth: w - 2 * size)
        return PixelRect(covering: bar)
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
            let first = check.problems.first { $0.severity == .error }?.description ?? "invalid config"
            showBanner("Config not applied: \(first)", now: now)
            return false
        }
        do {
            (resources, stack) = try rebuild(config: new, assets: try Self.ready(assets, for: new), width: width, height: height)
            config = new
            generation += 1
            configValid = true
            configProblems = check.problems
            banner = nil
            fullFrameNeeded = true
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

    /// A display of another size was connected: lay every open screen out again for it,
    /// keeping the screens and their selections.
    public func resize(width: Int, height: Int) throws {
        guard width != self.width || height != self.height else { return }
        (resources, stack) = try rebuild(config: config, assets: resources.assets, width: width, height: height)
        (self.width, self.height) = (width, height)
        fullFrameNeeded = true
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
            guard let c = new.screen(named: screen.config.name) else { break }
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
            ("screen", .string(screen.config.name)),
            ("screens", .array(screenNames.map { .string($0) })),
            ("selection", .int(screen.selectedIndex)),
            ("selected_label", items.indices.contains(screen.selectedIndex) ? .string(items[screen.selectedIndex].label) : .null),
            ("banner", banner.map { .string($0.text) } ?? .null),
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
