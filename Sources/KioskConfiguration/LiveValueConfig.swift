/// Where a live value (`value = { ... }`) or a toggle's state (`toggle = { ... }`) comes from.
public enum ValueOrigin: Sendable, Equatable {
    /// A program's standard output (values) or exit status (toggles), run every `every` seconds.
    case command(Command)
    /// A file's first line, read every `every` seconds (sysfs files cannot be watched).
    case file(String)
    /// Never read: only the control API (D-Bus `SetValue`/`SetToggle`, MQTT) sets it (`api = true`).
    case api

    /// The source as a message names it (`command /usr/bin/sensors`, `file /run/x`).
    public var summary: String {
        switch self {
        case .command(let c): "command \(c.argv.first ?? "")"
        case .file(let path): "file \(path)"
        case .api: "the control API"
        }
    }
}

/// `value = { command = [...], every = 2, timeout = 1, stale_after = 6, format = "%.1f", unit = "°C" }`,
/// `value = { file = "/sys/...", scale = 0.001 }` or `value = { api = true, unit = "%" }`: the text an item (or a screen's title) shows
/// with its label, refreshed while its screen is shown.
public struct ValueSource: Sendable, Equatable {
    public var origin: ValueOrigin
    /// Seconds between refreshes while the screen is shown.
    public var every: Double
    /// Seconds a command may run before it is killed and the value counts as failed.
    public var timeout: Double
    /// Seconds after the last good reading when the value is drawn as stale; infinite (never) by
    /// default for `api = true`.
    public var staleAfter: Double
    /// How a number is written (`%.1f`); nil: the text as read.
    public var format: ValueFormat?
    /// Multiplies a number before it is formatted (sysfs gives millidegrees: 0.001).
    public var scale: Double?
    /// Written after the value, after a space (`°C`).
    public var unit: String?

    public init(origin: ValueOrigin, every: Double = ValueSource.defaultEvery, timeout: Double = ValueSource.defaultTimeout,
                staleAfter: Double? = nil, format: ValueFormat? = nil, scale: Double? = nil, unit: String? = nil) {
        self.origin = origin
        self.every = every
        self.timeout = timeout
        // A value only the API sets is as fresh as its last set until a config says otherwise.
        self.staleAfter = staleAfter ?? (origin == .api ? .infinity : Self.defaultStaleAfter(every: every, timeout: timeout))
        self.format = format
        self.scale = scale
        self.unit = unit
    }

    public static let defaultEvery = 2.0
    public static let defaultTimeout = 1.0
    /// Three refreshes missed (and the last one's timeout).
    public static func defaultStaleAfter(every: Double, timeout: Double) -> Double { 3 * every + timeout }
}

/// `toggle = { state = [...], on = [...], off = [...] }` (or `file = "..."`, or `api = true`, for
/// the state): an item drawn as a switch. The state command's exit status 0 means on, 1 off (anything else: unknown);
/// a state file holds `1`/`on`/`true`/`yes` or `0`/`off`/`false`/`no`.
public struct ToggleConfig: Sendable, Equatable {
    public var state: ValueOrigin
    /// The commands that switch it; nil for an `api = true` toggle without them: a press then
    /// asks the control API (D-Bus `ToggleRequested`, MQTT `P/event/toggle`) and waits for its answer.
    public var on: Command?
    public var off: Command?
    public var every: Double
    /// For the state command and for `on` and `off` alike.
    public var timeout: Double
    /// The words for its states (`on_label = "Aan"`); nil: the theme's.
    public var onLabel: String?
    public var offLabel: String?

    public init(state: ValueOrigin, on: Command?, off: Command?, every: Double = ValueSource.defaultEvery,
                timeout: Double = ToggleConfig.defaultTimeout, onLabel: String? = nil, offLabel: String? = nil) {
        self.state = state
        self.on = on
        self.off = off
        self.every = every
        self.timeout = timeout
        self.onLabel = onLabel
        self.offLabel = offLabel
    }

    /// The longest state word: it stands in a label beside the item's own words.
    public static let maximumLabel = 24

    /// A switch may take longer than a reading (a relay, a service starting).
    public static let defaultTimeout = 5.0

    /// A press asks the control API to switch it (no commands of its own).
    public var asksTheAPI: Bool { on == nil || off == nil }

    /// The source the state is read from, as a value (for staleness and the status).
    public var stateSource: ValueSource { ValueSource(origin: state, every: every, timeout: timeout) }
}

/// An item id (`id = "nozzle"`): what the status file, the metrics and (later) the control API
/// name an item by. Letters, digits, `-` and `_`, starting with a letter, at most 64.
public enum ItemID {
    public static func problem(_ id: String) -> String? {
        if id.isEmpty { return "empty: an id names the item in the status file; write e.g. id = \"nozzle\"" }
        if id.count > 64 { return "too long (\(id.count) characters; at most 64)" }
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return "must start with a letter (a-z, A-Z)"
        }
        if let bad = id.unicodeScalars.first(where: { !allowed($0) }) {
            return "\"\(String(bad).debugDescription.dropFirst().dropLast())\" is not allowed: ids use letters a-z, A-Z, digits, \"-\" and \"_\""
        }
        return nil
    }

    private static func allowed(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_"
    }
}
