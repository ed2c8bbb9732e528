import Speech

/// The status file's document as one typed value. The runtime fills it from its owners (the
/// app's config, menu and lock; its own display, power and programs) at the end of every pass
/// and writes it when it differs from the one last written; `kiosk status` decodes the file
/// into the same type. The keys are the file's contract with fleets and scripts.
public struct KioskStatus: Equatable, Sendable {
    public var pid: Int?
    public var config: ConfigStatus
    public var display: DisplayStatus
    public var menu: MenuStatus
    public var lock: LockStatus
    /// The label of the program that has the display now (`exec`), if any.
    public var running: String?
    /// Each live value's and toggle's health, by id.
    public var values: [ValueHealth]
    /// `[speech]`'s health; nil when the config does not speak.
    public var speech: SpeechStatus?
    /// The broker connection of `[mqtt]`; nil without one.
    public var mqtt: MQTTHealth?
    /// How the control API (D-Bus) stands, and why when it is down; nil: not said (an older kiosk).
    public var controlAPI: ControlAPIState?
    /// A Kiosk disk image's versions and slots; nil on any other machine.
    public var image: ImageStatus?

    public init(pid: Int?, config: ConfigStatus, display: DisplayStatus = DisplayStatus(), menu: MenuStatus = MenuStatus(),
                lock: LockStatus = LockStatus(), running: String? = nil, values: [ValueHealth] = [], speech: SpeechStatus? = nil,
                controlAPI: ControlAPIState? = nil, mqtt: MQTTHealth? = nil, image: ImageStatus? = nil) {
        self.image = image
        self.controlAPI = controlAPI
        self.values = values
        self.speech = speech
        self.mqtt = mqtt
        self.pid = pid
        self.config = config
        self.display = display
        self.menu = menu
        self.lock = lock
        self.running = running
    }

    /// The document as written.
    public var value: StatusValue {
        // Appended one part at a time: Swift 6.0.3 cannot type-check the one long `+` chain.
        var fields: [(String, StatusValue)] = [("pid", pid.map { .int($0) } ?? .null)]
        fields += config.fields
        fields += display.fields
        fields += menu.fields
        fields.append(("running", running.map { .string($0) } ?? .null))
        fields += lock.fields
        fields.append(("values", .array(values.map(\.value))))
        fields.append(("speech", speech?.value ?? .null))
        fields.append(("mqtt", mqtt?.value ?? .null))
        fields.append(("control_api", controlAPI.map { .string($0.word) } ?? .null))
        fields.append(("control_api_problem", controlAPI?.why.map { .string($0) } ?? .null))
        fields.append(("image", image?.value ?? .null))
        return .object(fields)
    }

    public var json: String { value.json + "\n" }

    /// Reads a document back. Only `generation` and `config_valid` are required (a status file
    /// of an older kiosk lacks later keys: they read as unknown); a key of the wrong type is an error.
    public init(decoding doc: StatusValue) throws(StatusDecodingError) {
        guard case .object = doc else { throw StatusDecodingError(key: nil, reason: "not an object") }
        let read = StatusFields(doc)
        pid = try read.optional("pid", \.intValue)
        config = try ConfigStatus(read)
        display = try DisplayStatus(read)
        menu = try MenuStatus(read)
        lock = try LockStatus(read)
        running = try read.optional("running", \.stringValue)
        if let word = try read.optional("control_api", \.stringValue) {
            let why = try read.optional("control_api_problem", \.stringValue)
            guard let state = ControlAPIState(word: word, why: why) else {
                throw StatusDecodingError(key: "control_api", reason: "\"\(word)\" is not off, starting, ready, retrying or unavailable")
            }
            controlAPI = state
        } else {
            controlAPI = nil
        }
        values = []
        for entry in try read.optional("values", \.arrayValue) ?? [] {
            let fields = StatusFields(entry, prefix: "values.")
            let word = try fields.required("state", \.stringValue)
            guard let state = ValueState(rawValue: word) else {
                throw StatusDecodingError(key: "values.state", reason: "\"\(word)\" is not pending, ok, stale or failed")
            }
            values.append(ValueHealth(id: try fields.required("id", \.stringValue), state: state,
                                      why: try fields.optional("why", \.stringValue), age: try fields.optional("age", \.numberValue)))
        }
        speech = try read.optional("speech") { $0 }.map { doc throws(StatusDecodingError) in try SpeechStatus(StatusFields(doc, prefix: "speech.")) }
        if let entry = read.doc["mqtt"], entry != .null {
            let fields = StatusFields(entry, prefix: "mqtt.")
            let word = try fields.required("state", \.stringValue)
            guard let state = MQTTHealth.State(rawValue: word) else {
                throw StatusDecodingError(key: "mqtt.state", reason: "\"\(word)\" is not connecting, connected or retrying")
            }
            var health = MQTTHealth(broker: try fields.required("broker", \.stringValue), state: state, error: try fields.optional("error", \.stringValue))
            health.connects = try fields.optional("connects", \.intValue) ?? 0
            mqtt = health
        }
        image = try read.optional("image") { $0 }.map { doc throws(StatusDecodingError) in try ImageStatus(StatusFields(doc, prefix: "image.")) }
    }
}

/// Why a document is not a kiosk status: the key that is missing or of the wrong type.
public struct StatusDecodingError: Error, Equatable, CustomStringConvertible {
    public var key: String?
    public var reason: String
    public var description: String { key.map { "\($0): \(reason)" } ?? reason }
}

/// The running config: which, whether valid, and how reloads went.
public struct ConfigStatus: Equatable, Sendable {
    /// The file the kiosk watches (nil: a built-in config).
    public var path: String?
    /// Configs applied, 1 for the first.
    public var generation: Int
    /// False while a rescue config runs or after a refused reload kept the last good one.
    public var valid: Bool
    /// The refused config's errors, as `file:line: key: message`.
    public var errors: [String] = []
    /// The file the running config was read from, its folder's symlinks resolved.
    public var source: String?
    public var reloadsApplied: Int?
    public var reloadsRefused: Int?

    public init(path: String? = nil, generation: Int, valid: Bool, errors: [String] = [], source: String? = nil,
                reloadsApplied: Int? = nil, reloadsRefused: Int? = nil) {
        self.path = path
        self.generation = generation
        self.valid = valid
        self.errors = errors
        self.source = source
        self.reloadsApplied = reloadsApplied
        self.reloadsRefused = reloadsRefused
    }

    fileprivate init(_ read: StatusFields) throws(StatusDecodingError) {
        path = try read.optional("config_path", \.stringValue)
        generation = try read.required("generation", \.intValue)
        valid = try read.required("config_valid", \.boolValue)
        errors = try read.strings("config_errors")
        source = try read.optional("config_source", \.stringValue)
        reloadsApplied = try read.optional("reloads_applied", \.intValue)
        reloadsRefused = try read.optional("reloads_refused", \.intValue)
    }

    fileprivate var fields: [(String, StatusValue)] {
        [
            ("config_path", path.map { .string($0) } ?? .null),
            ("generation", .int(generation)),
            ("config_valid", .bool(valid)),
            ("config_errors", .array(errors.map { .string($0) })),
            ("config_source", source.map { .string($0) } ?? .null),
            // A fleet tells a refused push from one not yet loaded by these going up.
            ("reloads_applied", reloadsApplied.map { .int($0) } ?? .null),
            ("reloads_refused", reloadsRefused.map { .int($0) } ?? .null),
        ]
    }
}

/// The display the kiosk draws on.
public struct DisplayStatus: Equatable, Sendable {
    /// The card and connector, e.g. "card0 HDMI-A-1".
    public var name: String?
    /// Nil in a status file written before the key existed: nothing is known.
    public var connected: Bool?
    public var power: DisplayPowerState?

    public init(name: String? = nil, connected: Bool? = nil, power: DisplayPowerState? = nil) {
        self.name = name
        self.connected = connected
        self.power = power
    }

    fileprivate init(_ read: StatusFields) throws(StatusDecodingError) {
        name = try read.optional("display", \.stringValue)
        connected = try read.optional("display_connected", \.boolValue)
        let word = try read.optional("display_power", \.stringValue)
        guard word == nil || DisplayPowerState(rawValue: word!) != nil else {
            throw StatusDecodingError(key: "display_power", reason: "\"\(word!)\" is not on, dimmed or off")
        }
        power = word.flatMap(DisplayPowerState.init(rawValue:))
    }

    fileprivate var fields: [(String, StatusValue)] {
        [
            ("display", name.map { .string($0) } ?? .null),
            ("display_connected", connected.map { .bool($0) } ?? .null),
            ("display_power", power.map { .string($0.rawValue) } ?? .null),
        ]
    }
}

/// What the menu shows and what was last done with it.
public struct MenuStatus: Equatable, Sendable {
    public var screen: String?
    /// The open screens, home first.
    public var screens: [String] = []
    /// The item the menu last settled on; nil on a keypad (the selected key would tell a digit).
    public var selection: Int?
    public var selectedLabel: String?
    public var banner: String?
    public var lastAction: LastAction?

    public init(screen: String? = nil, screens: [String] = [], selection: Int? = nil, selectedLabel: String? = nil,
                banner: String? = nil, lastAction: LastAction? = nil) {
        self.screen = screen
        self.screens = screens
        self.selection = selection
        self.selectedLabel = selectedLabel
        self.banner = banner
        self.lastAction = lastAction
    }

    fileprivate init(_ read: StatusFields) throws(StatusDecodingError) {
        screen = try read.optional("screen", \.stringValue)
        screens = try read.strings("screens")
        selection = try read.optional("selection", \.intValue)
        selectedLabel = try read.optional("selected_label", \.stringValue)
        banner = try read.optional("banner", \.stringValue)
        if let action = read.doc["last_action"], action != .null {
            let fields = StatusFields(action, prefix: "last_action.")
            lastAction = LastAction(item: try fields.required("item", \.stringValue), action: try fields.required("action", \.stringValue),
                                    result: try fields.required("result", \.stringValue))
        }
    }

    fileprivate var fields: [(String, StatusValue)] {
        [
            ("screen", screen.map { .string($0) } ?? .null),
            ("screens", .array(screens.map { .string($0) })),
            ("selection", selection.map { .int($0) } ?? .null),
            ("selected_label", selectedLabel.map { .string($0) } ?? .null),
            ("banner", banner.map { .string($0) } ?? .null),
            ("last_action", lastAction.map { .object([("item", .string($0.item)), ("action", .string($0.action)), ("result", .string($0.result))]) } ?? .null),
        ]
    }
}

/// The last menu item acted on: its label, its action's kind, and how it went so far.
public struct LastAction: Equatable, Sendable {
    public var item: String
    public var action: String
    public var result: String

    public init(item: String, action: String, result: String) {
        self.item = item
        self.action = action
        self.result = result
    }
}

/// Screens behind a PIN.
public struct LockStatus: Equatable, Sendable {
    /// Screens with a `pin_hash` that are not open now.
    public var lockedScreens: [String] = []
    /// Wrong PINs counted by the lock.
    public var pinFailures = 0

    public init(lockedScreens: [String] = [], pinFailures: Int = 0) {
        self.lockedScreens = lockedScreens
        self.pinFailures = pinFailures
    }

    fileprivate init(_ read: StatusFields) throws(StatusDecodingError) {
        lockedScreens = try read.strings("locked_screens")
        pinFailures = try read.optional("pin_failures", \.intValue) ?? 0
    }

    fileprivate var fields: [(String, StatusValue)] {
        [("locked_screens", .array(lockedScreens.map { .string($0) })), ("pin_failures", .int(pinFailures))]
    }
}

/// Typed reads of one object's keys, each failure naming its key.
private struct StatusFields {
    let doc: StatusValue
    var prefix = ""

    init(_ doc: StatusValue, prefix: String = "") {
        self.doc = doc
        self.prefix = prefix
    }

    /// Absent or null: nil; present: must have the type `read` takes.
    func optional<T>(_ key: String, _ read: (StatusValue) -> T?) throws(StatusDecodingError) -> T? {
        guard let v = doc[key], v != .null else { return nil }
        guard let typed = read(v) else { throw StatusDecodingError(key: prefix + key, reason: "has the wrong type") }
        return typed
    }

    func required<T>(_ key: String, _ read: (StatusValue) -> T?) throws(StatusDecodingError) -> T {
        guard let typed = try optional(key, read) else { throw StatusDecodingError(key: prefix + key, reason: "is missing") }
        return typed
    }

    /// An array of strings; absent or null: empty.
    func strings(_ key: String) throws(StatusDecodingError) -> [String] {
        guard let list = try optional(key, \.arrayValue) else { return [] }
        var out: [String] = []
        for item in list {
            guard let s = item.stringValue else { throw StatusDecodingError(key: prefix + key, reason: "holds a value that is not a string") }
            out.append(s)
        }
        return out
    }
}

extension ValueHealth {
    /// `age` in whole seconds: the file changes once a second at most for it.
    fileprivate var value: StatusValue {
        .object([("id", .string(id)), ("state", .string(state.rawValue)), ("why", why.map { .string($0) } ?? .null),
                 ("age", age.map { .int(Int($0)) } ?? .null)])
    }
}

extension SpeechStatus {
    /// `{"device", "state", "problem", "spoken", "cut", "missing_voices"}`.
    var value: StatusValue {
        .object([("device", .string(device)), ("state", .string(health.state)), ("problem", health.problem.map { .string($0) } ?? .null),
                 ("spoken", .int(health.spoken)), ("cut", .int(health.cut)), ("missing_voices", .array(health.missingVoices.map { .string($0) }))])
    }

    fileprivate init(_ read: StatusFields) throws(StatusDecodingError) {
        var health = SpeechHealth()
        health.state = try read.required("state", \.stringValue)
        health.problem = try read.optional("problem", \.stringValue)
        health.spoken = try read.optional("spoken", \.intValue) ?? 0
        health.cut = try read.optional("cut", \.intValue) ?? 0
        health.missingVoices = try read.strings("missing_voices")
        self.init(device: try read.required("device", \.stringValue), health: health)
    }
}

extension MQTTHealth {
    /// The message counters are left to the metrics: they would rewrite the file with every message.
    fileprivate var value: StatusValue {
        .object([("broker", .string(broker)), ("state", .string(state.rawValue)), ("error", error.map { .string($0) } ?? .null),
                 ("connects", .int(connects))])
    }
}

extension ImageStatus {
    /// `{"version", "slot", "trial", "versions": [{"version", "state", "tries_left", "tries_done", "check"}],
    /// "rollback": {"from", "reason"}, "update": {"state", "version", "source", "message", "progress"}, "offered"}`.
    var value: StatusValue {
        let versions = versions.map { v in
            StatusValue.object([("version", .string(v.version)), ("state", .string(v.state.rawValue)),
                                ("tries_left", v.triesLeft.map { .int($0) } ?? .null), ("tries_done", v.triesDone.map { .int($0) } ?? .null),
                                ("check", v.check.map { .string($0) } ?? .null)])
        }
        let rollback = rollback.map { StatusValue.object([("from", .string($0.from)), ("reason", $0.reason.map { .string($0) } ?? .null)]) }
        let update = update.map { u in
            StatusValue.object([("state", .string(u.state.rawValue)), ("version", u.version.map { .string($0) } ?? .null),
                                ("source", u.source.map { .string($0) } ?? .null), ("message", u.message.map { .string($0) } ?? .null),
                                ("progress", u.progress.map { .int($0) } ?? .null)])
        }
        return .object([("version", .string(version)), ("slot", slot.map { .string($0) } ?? .null), ("trial", .bool(trial)),
                        ("versions", .array(versions)), ("rollback", rollback ?? .null), ("update", update ?? .null),
                        ("offered", offered.map { .string($0) } ?? .null)])
    }

    fileprivate init(_ read: StatusFields) throws(StatusDecodingError) {
        var versions: [Installed] = []
        for entry in try read.optional("versions", \.arrayValue) ?? [] {
            let fields = StatusFields(entry, prefix: "image.versions.")
            let word = try fields.required("state", \.stringValue)
            guard let state = Installed.State(rawValue: word) else {
                throw StatusDecodingError(key: "image.versions.state", reason: "\"\(word)\" is not good, trial or failed")
            }
            versions.append(Installed(version: try fields.required("version", \.stringValue), state: state,
                                      triesLeft: try fields.optional("tries_left", \.intValue), triesDone: try fields.optional("tries_done", \.intValue),
                                      check: try fields.optional("check", \.stringValue)))
        }
        var rollback: Rollback?
        if let entry = read.doc["rollback"], entry != .null {
            let fields = StatusFields(entry, prefix: "image.rollback.")
            rollback = Rollback(from: try fields.required("from", \.stringValue), reason: try fields.optional("reason", \.stringValue))
        }
        var update: Update?
        if let entry = read.doc["update"], entry != .null {
            let fields = StatusFields(entry, prefix: "image.update.")
            let word = try fields.required("state", \.stringValue)
            guard let state = Update.State(rawValue: word) else {
                throw StatusDecodingError(key: "image.update.state", reason: "\"\(word)\" is not a step of an update")
            }
            update = Update(state: state, version: try fields.optional("version", \.stringValue),
                            source: try fields.optional("source", \.stringValue), message: try fields.optional("message", \.stringValue),
                            progress: try fields.optional("progress", \.intValue))
        }
        self.init(version: try read.required("version", \.stringValue), slot: try read.optional("slot", \.stringValue),
                  trial: try read.optional("trial", \.boolValue) ?? false, versions: versions, rollback: rollback, update: update,
                  offered: try read.optional("offered", \.stringValue))
    }
}
