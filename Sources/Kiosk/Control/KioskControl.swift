import KioskSystem
import KioskConfiguration

/// The one door through which software on the device drives the kiosk, whatever carries the
/// request (D-Bus, `kiosk ctl`, MQTT). Every request passes the `ActionGate` first (locks, what
/// the broker may do). It holds no state of its own: each request goes to the owner
/// of what it changes (the screens and the banner: `KioskApp`; values and toggles: `LiveValues`;
/// the panel: `PanelPower`), and each answer is built from them when asked.
///
/// How a transport uses it, all on the runtime's event loop thread (never from another thread):
/// 1. Decode the caller's message into a `ControlRequest`; arguments of the wrong type are the
///    transport's to refuse (with its own error), before they get here.
/// 2. `handle(request, from: caller)`: `.success(.done)` or `.success(.state(...))`, or a `ControlError`
///    whose `name` maps to the transport's error name and whose `description` is the message
///    for the caller. Bounds (text length, seconds) are checked here, once for every transport.
/// 3. `subscribe` once to get `ControlEvent`s (screen, selection, activation) after the pass
///    that caused them; keep the returned token and `unsubscribe` it when the transport closes.
/// The runtime draws the result at its next pass (`changed` asks for it): a request never draws
/// or waits itself.
public final class KioskControl {
    private let app: KioskApp
    private let power: PanelPower?
    private let clock: () -> Double
    private var subscribers: [Int: (ControlEvent) -> Void] = [:]
    private var nextToken = 0
    /// Its log lines: a caller repeating requests all day fills no journal.
    private var logBudget = LogBudget(lines: 30, per: 60)
    /// The gate for the config and the locks as they were at the last request: made again when either changed.
    private var gate: (generation: Int, locked: [String], gate: ActionGate)?
    /// Something a request changed must reach the screen: the runtime asks for a pass.
    var changed: (() -> Void)?
    /// A disk image's updates (nil: the runtime reads none; requests are refused as not an image).
    var updates: ImageUpdateRequests?
    /// Brings what moves by itself with time (a relock after `relock_after`, the return home, a
    /// banner's end) up to the request's moment before the request is gated or carried out: the
    /// runtime runs its pass's first step here (`Runtime.settle`). So a request is taken as part
    /// of a pass, never against a state that pass has not caught up with: a screen whose relock
    /// is due is locked to a request that arrives before the timer's pass. nil: the app moves
    /// only by its caller's passes (the tests of the app alone).
    var settle: ((Double) -> Void)?

    /// Longest notification text taken (the banner shows three lines; the rest is cut there).
    public static let maximumNotifyCharacters = 1000
    /// The same in bytes, checked first: counting the characters of a 20 MB text takes seconds.
    public static let maximumNotifyBytes = 4 * maximumNotifyCharacters
    /// Longest text a value is set to, in bytes (a reading is a number or a few words).
    public static let maximumValueBytes = 1024
    /// Longest a notification stays (an hour): a longer one is a mistake, not a message.
    public static let maximumNotifySeconds = 3600.0
    /// Longest screen name or id read from a caller, in bytes (ids are at most 64; names are short).
    static let maximumNameBytes = 256

    /// `power` is nil where the runtime has no panel to switch (tests of the app alone).
    init(app: KioskApp, power: PanelPower?, clock: @escaping () -> Double) {
        self.app = app
        self.power = power
        self.clock = clock
    }

    /// A door to the app alone, with no panel to switch (the fuzz harnesses drive it so).
    public convenience init(app: KioskApp, clock: @escaping () -> Double) {
        self.init(app: app, power: nil, clock: clock)
    }

    /// Carries `request` from `caller` out now, or says why not.
    public func handle(_ request: ControlRequest, from caller: ControlCaller) -> Result<ControlReply, ControlError> {
        let now = clock()
        do throws(ControlError) {
            // Sizes first: the gate looks names up, and nothing from outside is looked up, logged
            // or echoed before its size is known to be sane.
            try Self.checkSizes(request)
            settle?(now)
            try currentGate().check(request, from: caller)
            let reply = try carryOut(request, now: now)
            if case .done = reply { changed?() }
            return .success(reply)
        } catch {
            return .failure(error)
        }
    }

    private func currentGate() -> ActionGate {
        let locked = app.lockedScreens
        if let gate, gate.generation == app.generation, gate.locked == locked { return gate.gate }
        let made = ActionGate(config: app.config, isLocked: { locked.contains($0.name) })
        gate = (app.generation, locked, made)
        return made
    }

    private func carryOut(_ request: ControlRequest, now: Double) throws(ControlError) -> ControlReply {
        switch request {
        case .showScreen(let name):
            try app.show(screen: name, now: now)
            logBudget.write(.info, "control: screen \(name) shown", now: now)
        case .press(let id):
            try app.press(id: id, now: now)
            logBudget.write(.info, "control: \(id) pressed", now: now)
        case .goHome:
            app.goHome(now: now)
            logBudget.write(.info, "control: home", now: now)
        case .notify(let text, let seconds, let level):
            guard !text.isEmpty, text.contains(where: { !$0.isWhitespace }) else { throw .badArgument("the notification text is empty") }
            guard text.count <= Self.maximumNotifyCharacters else {
                throw .badArgument("the notification text has \(text.count) characters; at most \(Self.maximumNotifyCharacters)")
            }
            guard seconds.isFinite, seconds > 0, seconds <= Self.maximumNotifySeconds else {
                throw .badArgument("seconds must be more than 0 and at most \(Int(Self.maximumNotifySeconds)), got \(seconds)")
            }
            app.notify(text, level: level, seconds: seconds, now: now)
            if app.config.control.notifyWakes { power?.wake(by: "notification", now: now) }
        case .setValue(let id, let text):
            let values = app.values
            guard let source = values.source(id) else {
                throw values.toggle(id) != nil ? .badArgument("\"\(id)\" is a toggle: set it with SetToggle (on or off)") : .unknownItem(id)
            }
            guard source.origin == .api else { throw .readFromSource(id, source: source.origin.summary) }
            // Refused text is the caller's mistake: the value keeps what it showed.
            if case .failure(let problem) = ValueReading.parse(Array(text.utf8), for: source) {
                throw .badArgument("\(id): \(problem)")
            }
            do { try values.set(id, text: text, now: now) } catch { throw .badArgument(error.description) }
        case .setToggle(let id, let on):
            if let toggle = app.values.toggle(id), toggle.state != .api {
                try app.switchToggle(id: id, on: on, now: now)
                logBudget.write(.info, "control: \(id) switched \(on ? "on" : "off")", now: now)
                return .done
            }
            do {
                try app.values.setToggle(id, on: on, now: now)
            } catch {
                switch error {
                case .notAToggle: throw .notAToggle(id)
                case .unknownID: throw .unknownItem(id)
                case .reading(_, let why): throw .badArgument(why)
                }
            }
        case .state:
            return .state(state(now: now))
        case .update(let source, let reboot, let force):
            guard let updates else { throw .notAnImage }
            let control = app.config.control
            guard let source = source ?? control.updateSource else {
                throw .badArgument("no source given, and the config offers none ([control] update_source)")
            }
            try updates.request(source: source, reboot: reboot ?? control.updateReboot, force: force, idleFor: now - app.activity.lastInput)
        case .image:
            guard let image = updates?.status else { throw .notAnImage }
            return .image(image)
        }
        return .done
    }

    /// The sizes of what a caller sent, before anything else reads it.
    private static func checkSizes(_ request: ControlRequest) throws(ControlError) {
        switch request {
        case .showScreen(let name): try check(name: name, "screen name")
        case .press(let id), .setToggle(let id, _): try check(name: id, "id")
        case .setValue(let id, let text):
            try check(name: id, "id")
            guard text.utf8.count <= maximumValueBytes else {
                throw .badArgument("\(id): the value has \(text.utf8.count) bytes; at most \(maximumValueBytes)")
            }
        case .notify(let text, _, _):
            guard text.utf8.count <= maximumNotifyBytes else {
                throw .badArgument("the notification text has \(text.utf8.count) bytes; at most \(maximumNotifyBytes)")
            }
        case .update(let source?, _, _):
            guard source.utf8.count <= UpdateSource.maximumBytes else {
                throw .badArgument("the source has \(source.utf8.count) bytes; at most \(UpdateSource.maximumBytes)")
            }
        case .goHome, .state, .image, .update(nil, _, _): break
        }
    }

    /// A name from a caller: not empty, not absurdly long (it is echoed in messages). Bytes are
    /// counted, not characters: counting those is as long as the text.
    private static func check(name: String, _ what: String) throws(ControlError) {
        if name.isEmpty { throw .badArgument("the \(what) is empty") }
        if name.utf8.count > maximumNameBytes { throw .badArgument("the \(what) has \(name.utf8.count) bytes; at most \(maximumNameBytes)") }
    }

    /// What is shown now, from each part's owner.
    public func state(now: Double) -> ControlState {
        let menu = app.menuStatus
        let values = app.values
        let shown = values.health(now: now).map { health in
            ControlState.Value(id: health.id, text: values.shownText(health.id, now: now) ?? "",
                               health: health, isToggle: values.toggle(health.id) != nil)
        }
        return ControlState(screen: menu.screen ?? app.currentScreen.config.name, selection: menu.selection, selectedLabel: menu.selectedLabel,
                            displayOn: power.map { !$0.isOff } ?? true, values: shown, generation: app.generation)
    }

    // MARK: Events

    /// `handler` gets every event from now on, on the loop's thread; returns the token to unsubscribe.
    public func subscribe(_ handler: @escaping (ControlEvent) -> Void) -> Int {
        nextToken += 1
        subscribers[nextToken] = handler
        return nextToken
    }

    public func unsubscribe(_ token: Int) { subscribers[token] = nil }

    /// Hands `event` to every subscriber (the runtime, after the pass that made it).
    func publish(_ event: ControlEvent) {
        for token in subscribers.keys.sorted() { subscribers[token]?(event) }
    }
}
