import KioskConfiguration

/// How a live value stands, as the status file says it.
public enum ValueState: String, Sendable, Equatable {
    /// Not read yet (its screen was never shown).
    case pending
    case ok
    /// The last good reading is older than `stale_after`.
    case stale
    /// The last attempt failed (the last good text, if any, is still shown, marked).
    case failed
}

/// One value's health for the status file and the metrics.
public struct ValueHealth: Sendable, Equatable {
    public var id: String
    public var state: ValueState
    /// Why it is stale or failed.
    public var why: String?
    /// Seconds since the last good reading; nil: none yet.
    public var age: Double?

    public init(id: String, state: ValueState, why: String? = nil, age: Double? = nil) {
        self.id = id
        self.state = state
        self.why = why
        self.age = age
    }
}

/// Why a value could not be set from outside (the control API, `kiosk render --value`).
public enum LiveValueError: Error, Equatable, CustomStringConvertible {
    case unknownID(String)
    case notAToggle(String)
    case reading(String, String)

    public var description: String {
        switch self {
        case .unknownID(let id): return "no item with a value or toggle has id \"\(id)\""
        case .notAToggle(let id): return "\"\(id)\" is not a toggle"
        case .reading(let id, let why): return "\(id): \(why)"
        }
    }
}

/// The live values and toggle states of the running config, by item id: the one owner of what
/// labels show beside their text. Readings come in through `set`/`failed` (from the runtime's
/// probes, or from the control API for `api = true`); time is passed in, so staleness is tested by moving it.
public final class LiveValues {
    private var values: [String: ValueSource] = [:]
    private var toggles: [String: ToggleConfig] = [:]
    private var readings: [String: Reading] = [:]
    private var switches: [String: ToggleSwitch] = [:]
    /// Each toggle's words for on and off (its own, or the theme's).
    private var words: [String: ToggleWords] = [:]
    /// Bumped on every change of what a label would show (not on the passing of time).
    public private(set) var revision = 0

    struct Reading {
        var text: String?
        var readAt: Double?
        var failure: String?
    }

    public init(_ config: KioskConfig) { configure(config) }

    /// Another config: sources by id; readings of an id whose source did not change are kept.
    public func configure(_ config: KioskConfig) {
        var newValues: [String: ValueSource] = [:], newToggles: [String: ToggleConfig] = [:]
        var newWords: [String: ToggleWords] = [:]
        for screen in config.screens {
            if let id = screen.id, let v = screen.value { newValues[id] = v }
            for item in screen.items {
                guard let id = item.id else { continue }
                if let v = item.value { newValues[id] = v }
                if let t = item.toggle {
                    newToggles[id] = t
                    newWords[id] = ToggleWords(on: t.onLabel ?? config.theme.toggleOnLabel, off: t.offLabel ?? config.theme.toggleOffLabel)
                }
            }
        }
        words = newWords
        readings = readings.filter { id, _ in newValues[id] != nil && newValues[id] == values[id] }
        switches = switches.filter { id, _ in newToggles[id] != nil && newToggles[id] == toggles[id] }
        values = newValues
        toggles = newToggles
        revision += 1
    }

    public var ids: [String] { (Array(values.keys) + Array(toggles.keys)).sorted() }
    public func source(_ id: String) -> ValueSource? { values[id] }
    public func toggle(_ id: String) -> ToggleConfig? { toggles[id] }

    // MARK: Readings in

    /// A reading's raw bytes for value `id`: parsed and formatted as its source says.
    public func set(_ id: String, bytes: some Collection<UInt8>, now: Double) throws(LiveValueError) {
        guard let source = values[id] else { throw .unknownID(id) }
        switch ValueReading.parse(bytes, for: source) {
        case .success(let text): store(id, Reading(text: text, readAt: now, failure: nil))
        case .failure(let problem):
            failed(id, why: problem.description, now: now)
            throw .reading(id, problem.description)
        }
    }

    public func set(_ id: String, text: String, now: Double) throws(LiveValueError) {
        try set(id, bytes: Array(text.utf8), now: now)
    }

    /// The attempt to read `id` failed: the last good text stays, marked.
    public func failed(_ id: String, why: String, now: Double) {
        if values[id] != nil {
            var r = readings[id] ?? Reading()
            r.failure = why
            store(id, r)
        } else if toggles[id] != nil {
            var s = switches[id] ?? ToggleSwitch()
            s.readFailed(why)
            storeSwitch(id, s)
        }
    }

    /// Toggle `id`'s state as read (or set from outside). For a toggle that asks the control API
    /// to switch it (no commands), the state set is the answer: the switch asked for ends.
    public func setToggle(_ id: String, on: Bool, now: Double) throws(LiveValueError) {
        guard let toggle = toggles[id] else { throw values[id] != nil ? .notAToggle(id) : .unknownID(id) }
        var s = switches[id] ?? ToggleSwitch()
        if toggle.asksTheAPI, s.target != nil { _ = s.ended(failure: nil, at: now) }
        s.read(on, at: now)
        storeSwitch(id, s)
    }

    /// Switches asked of the control API that got no answer within their toggle's `timeout`
    /// by `now`: each ends, its old state kept; returns their ids and the banner's message.
    public func unansweredSwitches(now: Double) -> [(id: String, message: String)] {
        var ended: [(String, String)] = []
        for (id, toggle) in toggles where toggle.asksTheAPI {
            guard var s = switches[id], s.target != nil, let since = s.since, now >= since + toggle.timeout else { continue }
            if let message = s.ended(failure: "no answer from the control API in \(Int(toggle.timeout.rounded(.up))) s", at: now) {
                ended.append((id, message))
            }
            storeSwitch(id, s)
        }
        return ended.sorted { $0.0 < $1.0 }
    }

    /// When the next switch asked of the control API runs out of time.
    public var nextUnansweredSwitch: Double? {
        toggles.compactMap { id, toggle in
            toggle.asksTheAPI && switches[id]?.target != nil ? switches[id]?.since.map { $0 + toggle.timeout } : nil
        }.min()
    }

    /// Asks to switch toggle `id` (to `target`, or else to the opposite of its state): the target
    /// state, or nil while a switch is already running.
    public func beginSwitch(_ id: String, to target: Bool? = nil, now: Double) -> Bool? {
        guard var s = switches[id] ?? (toggles[id] != nil ? ToggleSwitch() : nil) else { return nil }
        let target = s.begin(to: target, at: now)
        storeSwitch(id, s)
        return target
    }

    /// The switch command of `id` ended; returns the banner text when it failed.
    @discardableResult
    public func switchEnded(_ id: String, failure: String?, now: Double) -> String? {
        guard var s = switches[id] else { return nil }
        let message = s.ended(failure: failure, at: now)
        storeSwitch(id, s)
        return message
    }

    public func isSwitching(_ id: String) -> Bool { switches[id]?.target != nil }

    private func store(_ id: String, _ r: Reading) {
        let old = readings[id]
        readings[id] = r
        if old?.text != r.text || (old?.failure == nil) != (r.failure == nil) { revision += 1 }
    }

    private func storeSwitch(_ id: String, _ s: ToggleSwitch) {
        let old = switches[id]
        switches[id] = s
        let words = words[id] ?? ToggleWords()
        if old?.shown(words) != s.shown(words) || (old?.failure == nil) != (s.failure == nil) { revision += 1 }
    }

    // MARK: State out

    public func state(_ id: String, now: Double) -> ValueState {
        if let source = values[id] {
            guard let r = readings[id] else { return .pending }
            if r.failure != nil { return .failed }
            if let at = r.readAt, now - at > source.staleAfter { return .stale }
            return r.text == nil ? .pending : .ok
        }
        if let t = toggles[id] {
            guard let s = switches[id] else { return .pending }
            if s.failure != nil { return .failed }
            if let at = s.readAt, now - at > t.stateSource.staleAfter { return .stale }
            return s.isOn == nil ? .pending : .ok
        }
        return .pending
    }

    /// A toggle's last known state; nil while unknown.
    public func isOn(_ id: String) -> Bool? { switches[id]?.isOn }

    /// What the label of item `id` shows for its value or switch, marked when not ok.
    public func shownText(_ id: String, now: Double) -> String? {
        if values[id] != nil {
            let text = readings[id]?.text ?? LiveLabel.missing
            switch state(id, now: now) {
            case .ok: return text
            case .pending: return LiveLabel.missing
            case .stale, .failed: return LiveLabel.staleMark + " " + text
            }
        }
        if toggles[id] != nil {
            let s = switches[id] ?? ToggleSwitch()
            let shown = s.shown(words[id] ?? ToggleWords())
            // A switch in progress shows that, marked or not.
            let doubtful = state(id, now: now) == .stale || state(id, now: now) == .failed
            return doubtful && s.target == nil ? LiveLabel.staleMark + " " + shown : shown
        }
        return nil
    }

    /// The widest text `shownText` can give item `id`: what its layout keeps room for (nil: no value or toggle).
    public func reservedText(_ id: String) -> String? {
        if let source = values[id] { return LiveLabel.reservedValue(format: source.format, unit: source.unit) }
        if toggles[id] != nil { return (words[id] ?? ToggleWords()).reserved }
        return nil
    }

    /// The next moment a value among `ids` turns stale by itself (a frame is due then).
    public func nextStale(among ids: [String], now: Double) -> Double? {
        ids.compactMap { id -> Double? in
            if let source = values[id], source.staleAfter.isFinite, let r = readings[id], r.failure == nil, let at = r.readAt, at + source.staleAfter >= now {
                return at + source.staleAfter + 0.001
            }
            if let t = toggles[id], t.stateSource.staleAfter.isFinite, let s = switches[id], s.failure == nil, let at = s.readAt, at + t.stateSource.staleAfter >= now {
                return at + t.stateSource.staleAfter + 0.001
            }
            return nil
        }.min()
    }

    public func health(now: Double) -> [ValueHealth] {
        ids.map { id in
            let state = state(id, now: now)
            var why: String?
            var readAt: Double?
            if values[id] != nil {
                why = readings[id]?.failure
                readAt = readings[id]?.readAt
            } else {
                why = switches[id]?.failure
                readAt = switches[id]?.readAt
            }
            if state == .pending, values[id]?.origin == .api || toggles[id]?.state == .api {
                why = "not set yet: only the control API sets it (api = true)"
            }
            if state == .stale {
                let limit = values[id]?.staleAfter ?? toggles[id]?.stateSource.staleAfter ?? 0
                why = "no reading for more than \(Int(limit.rounded(.up))) s"
            }
            return ValueHealth(id: id, state: state, why: why, age: readAt.map { max(0, now - $0) })
        }
    }
}

/// A toggle's state machine: known on/off (or unknown), a switch in progress towards a target,
/// and a failed switch falling back to the state before it.
struct ToggleSwitch: Equatable {
    private(set) var isOn: Bool?
    private(set) var readAt: Double?
    /// Set while an `on`/`off` command runs (or the control API is asked): the item is busy.
    private(set) var target: Bool?
    /// When the switch began.
    private(set) var since: Double?
    private(set) var failure: String?

    mutating func read(_ on: Bool, at now: Double) {
        guard target == nil else { return }  // the switch in progress decides
        isOn = on
        readAt = now
        failure = nil
    }

    mutating func readFailed(_ why: String) {
        guard target == nil else { return }
        failure = why
    }

    /// Starts a switch to `wanted`, or else to the opposite of the known state (on when unknown);
    /// nil when busy.
    mutating func begin(to wanted: Bool? = nil, at now: Double? = nil) -> Bool? {
        guard target == nil else { return nil }
        let to = wanted ?? !(isOn ?? false)
        target = to
        since = now
        return to
    }

    /// The switch ended: the new state, or the old one kept and the banner's message.
    mutating func ended(failure why: String?, at now: Double) -> String? {
        guard let to = target else { return nil }
        target = nil
        since = nil
        if let why {
            return "could not switch \(to ? "on" : "off"): \(why)"
        }
        isOn = to
        readAt = now
        failure = nil
        return nil
    }

    /// The switch drawn in a symbol and the author's words (never colour alone); unknown: the
    /// mark of a value never read.
    func shown(_ words: ToggleWords) -> String {
        if let to = target { return "◌ " + (to ? words.on : words.off) + "…" }
        switch isOn {
        case true?: return "● " + words.on
        case false?: return "○ " + words.off
        case nil: return LiveLabel.missing
        }
    }
}

/// What a toggle says for its two states.
struct ToggleWords: Equatable {
    var on = "On"
    var off = "Off"

    /// The widest a toggle's text gets: the stale mark, a symbol, the longer word and "…".
    var reserved: String {
        LiveLabel.staleMark + " ◌ " + (on.count >= off.count ? on : off) + "…"
    }
}
