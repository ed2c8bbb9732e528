import KioskConfiguration
import KioskSystem

/// What the metrics file says: a snapshot the runtime gathers from the owner of each value (the
/// app, the frame scheduler, the input devices, the output), in Prometheus's text format for
/// node_exporter's textfile collector. Equal snapshots mean there is nothing new to write.
public struct KioskMetrics: Equatable, Sendable {
    /// False only in the last write at a clean exit: the file outlives the process.
    public var up = true
    /// Seconds since the Unix epoch.
    public var startTime: Double
    public var configGeneration: Int
    public var configValid: Bool
    public var reloadsApplied = 0
    public var reloadsRefused = 0
    public var screen: String
    public var displayConnected: Bool
    /// `[power]`'s state of the panel, and how often input woke it from off.
    public var displayPower: DisplayPowerState = .on
    public var displayWakes = 0
    /// Devices by kind ("touch", "pointer", "keyboard", "dial", ...); a device counts once per kind it has.
    public var inputDevices: [String: Int] = [:]
    public var actions: [ActionOutcome: Int] = [:]
    public var framesPresented = 0
    /// Each live value's and toggle's health (the age is left out: it would rewrite the file every second).
    public var values: [String: ValueState] = [:]
    public var frameDrawTime = Histogram(bounds: Histogram.frameDrawBounds)
    /// `[speech]`: whether it can speak, and utterances said to the end or cut off; nil: the config does not speak.
    public var speech: SpeechCounts?

    public struct SpeechCounts: Equatable, Sendable {
        public var ready: Bool
        public var spoken: Int
        public var cut: Int
    }
    /// The `[mqtt]` broker connection; nil without one.
    public var mqtt: MQTTHealth?
    /// The D-Bus control API: how it stands and how often its name was granted (a reconnect
    /// after the bus restarted counts again); nil where the runtime offers none.
    public var controlAPI: ControlAPICounts?
    /// A Kiosk disk image's versions; nil on any other machine.
    public var image: ImageStatus?

    public struct ControlAPICounts: Equatable, Sendable {
        public var state: ControlAPIState
        public var connects: Int
    }

    public init(startTime: Double, configGeneration: Int, configValid: Bool, screen: String, displayConnected: Bool) {
        self.startTime = startTime
        self.configGeneration = configGeneration
        self.configValid = configValid
        self.screen = screen
        self.displayConnected = displayConnected
    }

    /// The text exposition format: HELP and TYPE before each family, label values escaped,
    /// series in a fixed order so that equal snapshots give equal files.
    public var exposition: String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
            let l = labels.isEmpty ? "" : "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
            out += "\(name)\(l) \(value)\n"
        }
        family("kiosk_up", "gauge", "1 while the kiosk runs, 0 after it stopped cleanly.")
        sample("kiosk_up", [], up ? "1" : "0")
        family("kiosk_start_time_seconds", "gauge", "When the kiosk started, in seconds since the Unix epoch.")
        sample("kiosk_start_time_seconds", [], Self.number(startTime))
        family("kiosk_config_generation", "gauge", "Configs applied since the start (1 for the first).")
        sample("kiosk_config_generation", [], String(configGeneration))
        family("kiosk_config_valid", "gauge", "0 while a rescue config runs or the last reload was refused.")
        sample("kiosk_config_valid", [], configValid ? "1" : "0")
        family("kiosk_config_reloads_total", "counter", "Config reloads, applied or refused (the last good config kept).")
        sample("kiosk_config_reloads_total", [("result", "applied")], String(reloadsApplied))
        sample("kiosk_config_reloads_total", [("result", "refused")], String(reloadsRefused))
        family("kiosk_screen_info", "gauge", "The screen shown, as a label.")
        sample("kiosk_screen_info", [("screen", screen)], "1")
        family("kiosk_display_connected", "gauge", "1 while the display's connector has a display.")
        sample("kiosk_display_connected", [], displayConnected ? "1" : "0")
        family("kiosk_display_power_state", "gauge", "The panel's power: 1 for the state it is in (on, dimmed, off), 0 for the others.")
        for state in DisplayPowerState.allCases {
            sample("kiosk_display_power_state", [("state", state.rawValue)], state == displayPower ? "1" : "0")
        }
        family("kiosk_display_wakes_total", "counter", "Times input woke the panel from off.")
        sample("kiosk_display_wakes_total", [], String(displayWakes))
        if !values.isEmpty {
            family("kiosk_value_state", "gauge", "1 for each live value's state (pending, ok, stale, failed), by item id.")
            for (id, current) in values.sorted(by: { $0.key < $1.key }) {
                for state in ["pending", "ok", "stale", "failed"] {
                    sample("kiosk_value_state", [("id", id), ("state", state)], current.rawValue == state ? "1" : "0")
                }
            }
        }
        if let speech {
            family("kiosk_speech_ready", "gauge", "1 while speech can be heard (espeak-ng loaded, the ALSA device open).")
            sample("kiosk_speech_ready", [], speech.ready ? "1" : "0")
            family("kiosk_speech_utterances_total", "counter", "Utterances said to their end, or cut off by the next movement.")
            sample("kiosk_speech_utterances_total", [("result", "spoken")], String(speech.spoken))
            sample("kiosk_speech_utterances_total", [("result", "cut")], String(speech.cut))
        }
        if let mqtt {
            family("kiosk_mqtt_connected", "gauge", "1 while the [mqtt] broker has the kiosk connected.")
            sample("kiosk_mqtt_connected", [("broker", mqtt.broker)], mqtt.state == .connected ? "1" : "0")
            family("kiosk_mqtt_connects_total", "counter", "Connections the broker accepted.")
            sample("kiosk_mqtt_connects_total", [], String(mqtt.connects))
            family("kiosk_mqtt_commands_total", "counter", "Commands taken from the broker, those dropped over the rate limit, and those refused.")
            sample("kiosk_mqtt_commands_total", [("result", "received")], String(mqtt.received))
            sample("kiosk_mqtt_commands_total", [("result", "dropped")], String(mqtt.dropped))
            sample("kiosk_mqtt_commands_total", [("result", "refused")], String(mqtt.refused))
        }
        if let api = controlAPI {
            family("kiosk_control_api_ready", "gauge", "1 while the D-Bus control API owns its name on the bus; the state (off, starting, ready, retrying, unavailable) as a label.")
            sample("kiosk_control_api_ready", [("state", api.state.word)], api.state == .ready ? "1" : "0")
            family("kiosk_control_api_connects_total", "counter", "Connections to the bus whose name was granted (again after each reconnect).")
            sample("kiosk_control_api_connects_total", [], String(api.connects))
        }
        if let image {
            family("kiosk_image_info", "gauge", "The disk image's running version and root slot, as labels.")
            sample("kiosk_image_info", [("version", image.version), ("slot", image.slot ?? "")], "1")
            family("kiosk_image_trial", "gauge", "1 while this boot is one of a new version's tries, not yet called good.")
            sample("kiosk_image_trial", [], image.trial ? "1" : "0")
            family("kiosk_image_rollback", "gauge", "1 when a newer version failed all its tries and the device went back to this one; that version as a label.")
            sample("kiosk_image_rollback", [("from", image.rollback?.from ?? "")], image.rollback == nil ? "0" : "1")
            family("kiosk_image_update_running", "gauge", "1 while an update is asked for or under way; its last step as a label (none before any).")
            sample("kiosk_image_update_running", [("state", image.update?.state.rawValue ?? "none")], image.update?.isRunning == true ? "1" : "0")
            if let update = image.update, update.isRunning, let progress = update.progress {
                family("kiosk_image_update_progress", "gauge", "How far the running update's step is, in percent (downloading, installing); its step as a label.")
                sample("kiosk_image_update_progress", [("state", update.state.rawValue)], String(progress))
            }
        }
        family("kiosk_input_devices", "gauge", "Input devices read, by kind (a device counts once for each kind it is).")
        for (kind, n) in inputDevices.sorted(by: { $0.key < $1.key }) { sample("kiosk_input_devices", [("kind", kind)], String(n)) }
        family("kiosk_actions_total", "counter", "Menu actions by how they ended (a program's when it exits).")
        for (a, n) in actions.sorted(by: { ($0.key.action, $0.key.failed ? 1 : 0) < ($1.key.action, $1.key.failed ? 1 : 0) }) {
            sample("kiosk_actions_total", [("action", a.action.rawValue), ("result", a.failed ? "failed" : "ok")], String(n))
        }
        family("kiosk_frames_total", "counter", "Frames handed to the display.")
        sample("kiosk_frames_total", [], String(framesPresented))
        family("kiosk_frame_draw_seconds", "histogram", "Time to draw a frame and hand it to the display.")
        var cumulative = 0
        for (i, bound) in frameDrawTime.bounds.enumerated() {
            cumulative += frameDrawTime.counts[i]
            sample("kiosk_frame_draw_seconds_bucket", [("le", Self.number(bound))], String(cumulative))
        }
        sample("kiosk_frame_draw_seconds_bucket", [("le", "+Inf")], String(frameDrawTime.count))
        sample("kiosk_frame_draw_seconds_sum", [], Self.number(frameDrawTime.sum))
        sample("kiosk_frame_draw_seconds_count", [], String(frameDrawTime.count))
        return out
    }

    /// A label value as the text format needs it: backslash, double quote and newline escaped.
    public static func escape(_ value: String) -> String {
        var s = ""
        for c in value.unicodeScalars {
            switch c {
            case "\\": s += "\\\\"
            case "\"": s += "\\\""
            case "\n": s += "\\n"
            default: s.unicodeScalars.append(c)
            }
        }
        return s
    }

    /// Whole numbers without ".0"; others as Swift's shortest round-tripping form, which Prometheus reads.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }
}

/// A menu action and whether it failed, the key of `kiosk_actions_total`.
public struct ActionOutcome: Hashable, Sendable {
    public var action: ActionKind
    public var failed: Bool
    public init(_ action: ActionKind, failed: Bool) {
        self.action = action
        self.failed = failed
    }
}

/// A Prometheus histogram: counts per bucket (not cumulative; the exposition adds them up), the
/// sum and the count. Fixed size, so a kiosk that runs for years keeps no samples.
public struct Histogram: Equatable, Sendable {
    /// Upper bounds, ascending; +Inf is implied.
    public let bounds: [Double]
    public private(set) var counts: [Int]
    public private(set) var sum = 0.0
    public private(set) var count = 0

    /// 0.5 ms to 256 ms, doubling: a partial frame takes well under a millisecond, a full 1080p
    /// frame several, and 16.7 ms is a 60 Hz display's budget.
    public static let frameDrawBounds = [0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256]

    public init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    public mutating func observe(_ value: Double) {
        counts[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
        sum += value
        count += 1
    }
}

/// At most one write per `interval`, and the last change never lost: a change within the
/// interval after a write is owed, and written when the interval is up. Time is passed in (the
/// runtime's loop clock), so tests move it by hand.
struct WriteLimiter {
    let interval: Double
    private(set) var lastWrite: Double?
    private(set) var owed = false

    mutating func changed() { owed = true }

    /// True when a write is owed and allowed at `now`; the caller writes then.
    mutating func shouldWrite(now: Double) -> Bool {
        guard owed else { return false }
        if let last = lastWrite, now < last + interval { return false }
        owed = false
        lastWrite = now
        return true
    }

    /// When the owed write may be made (for the loop's timer); nil: none owed.
    var nextWrite: Double? {
        guard owed, let last = lastWrite else { return nil }
        return last + interval
    }
}

/// The metrics file: the newest snapshot, rewritten atomically when it changed and at most once
/// a second. A missing folder is made (`PublishedFile`); a file that still cannot be written
/// (a folder that cannot be made, read-only, a full disk) is logged once, not at every write,
/// and the kiosk goes on; it is tried again at the next change.
final class MetricsFile {
    let path: String
    private var limiter = WriteLimiter(interval: 1)
    private var latest: KioskMetrics?
    private var failing = false
    private let write: (String, String) throws -> Void
    private let warn: (String) -> Void

    /// `write` and `warn` are the file system (`PublishedFile`: a missing folder is made) and
    /// the log; tests pass their own.
    init(path: String, write: @escaping (String, String) throws -> Void = { try PublishedFile(path: $0).write($1) },
         warn: @escaping (String) -> Void = { Log.warning($0) }) {
        self.path = path
        self.write = write
        self.warn = warn
    }

    /// The values as of `now` (the loop's monotonic clock): written now if they changed and the
    /// last write is a second old, else owed until `nextWrite`.
    func update(_ metrics: KioskMetrics, now: Double) {
        if metrics != latest {
            latest = metrics
            limiter.changed()
        }
        if limiter.shouldWrite(now: now) { writeLatest() }
    }

    /// When an owed write is due; nil: nothing owed.
    var nextWrite: Double? { limiter.nextWrite }

    /// Writes `metrics` now, whatever the limit (the last word at exit).
    func flush(_ metrics: KioskMetrics) {
        latest = metrics
        writeLatest()
    }

    private func writeLatest() {
        guard let latest else { return }
        do {
            try write(path, latest.exposition)
            if failing { Log.info("metrics file \(path) written again") }
            failing = false
        } catch {
            if !failing { warn("metrics file \(path): \(error); the kiosk goes on without it") }
            failing = true
        }
    }
}
