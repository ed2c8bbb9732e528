import Geometry
import LayoutCore
import Raster
import Text
import TOML

/// Turns a parsed TOML document into a `KioskConfig`, collecting every decoding problem (wrong
/// types, unknown keys, values outside their set) rather than stopping at the first. Values that
/// fail are replaced by defaults so that decoding can go on; the result is only meant to be used
/// when no error was recorded.
///
/// Only what a value is: its TOML type, its shape (`[x, y]`, six numbers, a non-empty argv), its
/// syntax (a colour, a mode, a key name, a PIN hash) and which of a fixed set it names (a style,
/// an action kind, a rotation). No range is checked here: a number is kept as written, even a
/// negative number of seconds, and `ConfigValidator` judges it.
struct ConfigDecoder {
    let problems: DecodingProblems
    /// Directory of the config file, absolute: relative paths resolve against it.
    let baseDirectory: String

    func decode(_ root: TOMLTable) -> KioskConfig {
        let top = ConfigTableReader(root, path: ConfigKeyPath(), problems: problems)
        let display = top.table("display").map(decodeDisplay) ?? DisplayConfig()
        // The theme's preset gives the background's defaults, so it is read first.
        let theme = top.table("theme").map(decodeTheme) ?? ThemeConfig()
        let presetBackground = BackgroundConfig(preset: theme.preset)
        let background = top.table("background").map { decodeBackground($0, over: presetBackground) } ?? presetBackground
        let input = top.table("input").map(decodeInput) ?? InputConfig()
        let power = top.table("power").map(decodePower) ?? PowerConfig()
        let lock = top.table("lock").map(decodeLock) ?? LockConfig()
        let speech = top.table("speech").map(decodeSpeech) ?? SpeechConfig()
        let mqtt = top.table("mqtt").flatMap(decodeMQTT)
        let control = top.table("control").map(decodeControl) ?? ControlConfig()
        let home = top.string("home")
        var screens: [ScreenConfig] = []
        if let table = top.table("screens") {
            // The parser keeps keys in the order they are first written: the file's screen order.
            let names = table.source.keys
            for name in names {
                guard let screen = table.table(name) else { continue }
                screens.append(decodeScreen(screen, name: name, background: background))
            }
            table.finish()
            if names.isEmpty { problems.add(at: "screens", "no screens: add at least one [screens.NAME] table") }
        } else if !top.has("screens") {
            problems.add(at: "screens", "no screens: add at least one [screens.NAME] table with one item")
        }
        if home == nil, !top.has("home"), screens.count > 1 {
            problems.add(at: "home", "missing: with several screens, name the first one (home = \"\(screens[0].name)\")")
        }
        let idle = seconds(top, "idle_timeout")
        let transition = top.choice("transition", TransitionStyle.allCases.map(\.rawValue)).flatMap(TransitionStyle.init(rawValue:)) ?? .slide
        let status = top.string("status_file").map { resolve($0) } ?? KioskConfig.defaultStatusFile
        var metrics = top.string("metrics_file")
        if metrics == "" {
            top.fail("metrics_file", "expected a path; leave the key out for no metrics")
            metrics = nil
        }
        let screenshot = top.string("screenshot_file").map { resolve($0) } ?? KioskConfig.defaultScreenshotFile
        top.finish()
        return KioskConfig(display: display, background: background, theme: theme, input: input,
                           home: home ?? screens.first?.name ?? "", screens: screens, idleTimeout: idle,
                           statusFile: status, metricsFile: metrics.map { resolve($0) }, screenshotFile: screenshot,
                           power: power, lock: lock, transition: transition, speech: speech, control: control, mqtt: mqtt)
    }

    func resolve(_ path: String) -> String { ConfigValues.resolve(path, against: baseDirectory) }

    // MARK: Sections

    func decodeDisplay(_ t: ConfigTableReader) -> DisplayConfig {
        var d = DisplayConfig()
        d.card = t.string("card").map { resolve($0) }
        d.connector = t.string("connector")
        if let text = t.string("mode") {
            if let mode = ModeRequest(parsing: text) { d.mode = mode } else {
                t.fail("mode", "expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ (\"800x480\", \"1920x1080@60\"), got \"\(text)\"")
            }
        }
        if let degrees = t.int("rotation") {
            if let r = DisplayRotation(degrees: degrees) { d.rotation = r } else {
                t.fail("rotation", "expected 0, 90, 180 or 270, got \(degrees)")
            }
        }
        t.finish()
        return d
    }

    /// Seconds until something happens; 0 means never (nil). A negative number is kept for the
    /// validator to refuse.
    func seconds(_ t: ConfigTableReader, _ key: String) -> Double? {
        guard let s = t.double(key) else { return nil }
        return s != 0 ? s : nil
    }

    func decodePower(_ t: ConfigTableReader) -> PowerConfig {
        var p = PowerConfig()
        p.dimAfter = seconds(t, "dim_after")
        p.blankAfter = seconds(t, "blank_after")
        if let level = t.double("dim_level") { p.dimLevel = level }
        if let name = t.string("backlight") {
            if name.isEmpty || name.contains("/") || name == "." || name == ".." {
                t.fail("backlight", "expected \"auto\", \"none\" or the name of a device in /sys/class/backlight (\"intel_backlight\"), got \(TOMLSyntax.quoted(name))")
            } else {
                p.backlight = BacklightChoice(name)
            }
        }
        t.finish()
        return p
    }

    /// `[mqtt]`; nil (with a problem) without a usable `broker`.
    func decodeMQTT(_ t: ConfigTableReader) -> MQTTConfig? {
        var broker: MQTTBroker?
        if let text = t.string("broker") {
            switch MQTTBroker.parse(text) {
            case .success(let b): broker = b
            case .failure(let e): t.fail("broker", "\(TOMLSyntax.quoted(text)): \(e) — write e.g. broker = \"mqtt://homeassistant.local:1883\"")
            }
        } else if !t.has("broker") {
            t.fail("broker", "missing: [mqtt] needs broker = \"mqtt://HOST:1883\" (or mqtts://HOST for TLS)")
        }
        var m = MQTTConfig(broker: broker ?? MQTTBroker(host: ""))
        m.clientID = t.string("client_id")
        m.topicPrefix = t.string("topic_prefix")
        m.credentialsFile = t.string("credentials_file").map { resolve($0) }
        m.caFile = t.string("ca_file").map { resolve($0) }
        m.certFile = t.string("cert_file").map { resolve($0) }
        m.keyFile = t.string("key_file").map { resolve($0) }
        if let k = t.int("keepalive") { m.keepalive = k }
        if let d = t.bool("discovery") { m.discovery = d }
        if let p = t.string("discovery_prefix") { m.discoveryPrefix = p }
        t.finish()
        return broker == nil ? nil : m
    }

    func decodeControl(_ t: ConfigTableReader) -> ControlConfig {
        var c = ControlConfig()
        if let v = t.bool("dbus") { c.dbus = v }
        if let v = t.bool("notify_wakes") { c.notifyWakes = v }
        if let v = t.string("update_source") {
            if let problem = UpdateSource.problem(v) {
                t.fail("update_source", problem)
            } else {
                c.updateSource = v
            }
        }
        if let v = t.bool("update_reboot") { c.updateReboot = v }
        t.finish()
        return c
    }

    func decodeLock(_ t: ConfigTableReader) -> LockConfig {
        var l = LockConfig()
        if let v = t.int("attempts") { l.attempts = v }
        if let v = t.double("lockout") { l.lockout = v }
        if let v = t.double("relock_after") { l.relockAfter = v }
        t.finish()
        return l
    }

    func decodeSpeech(_ t: ConfigTableReader) -> SpeechConfig {
        var s = SpeechConfig()
        if let v = t.bool("enabled") { s.enabled = v }
        if let v = t.string("device") {
            if v.isEmpty { t.fail("device", "expected an ALSA device name (\"default\", \"plughw:1,0\"; `aplay -L` lists them)") } else { s.device = v }
        }
        if let v = t.string("voice") {
            if SpeechConfig.isVoiceName(v) { s.voice = v } else {
                t.fail("voice", "expected an espeak-ng voice name (\"en\", \"de\", \"en-us\"; `espeak-ng --voices` lists them), got \(TOMLSyntax.quoted(v))")
            }
        }
        if let v = t.int("rate") { s.rate = v }
        if let v = t.double("settle") { s.settle = v }
        t.finish()
        return s
    }

    func decodeBackground(_ t: ConfigTableReader, over base: BackgroundConfig) -> BackgroundConfig {
        var b = base
        if let p = t.choice("pattern", BackgroundPattern.allCases.map(\.rawValue)) { b.pattern = BackgroundPattern(rawValue: p)! }
        if let cell = t.int("cell") { b.cell = cell }
        if let c = color(t, "foreground") { b.foreground = c }
        if let c = color(t, "background") { b.background = c }
        if let c = color(t, "line") { b.line = c }
        if let w = t.double("line_width") { b.lineWidth = w }
        if let image = t.string("image") { b.image = resolve(image) }
        t.finish()
        return b
    }

    func decodeTheme(_ t: ConfigTableReader) -> ThemeConfig {
        let preset = t.choice("preset", ThemePreset.allCases.map(\.rawValue)).flatMap(ThemePreset.init(rawValue:))
        var th = ThemeConfig(preset: preset ?? .standard)
        if let font = t.string("font") { th.font = Font.namesFile(font) ? resolve(font) : font }
        if let v = t.double("text_size") { th.textSize = v }
        if let v = t.double("title_size") { th.titleSize = v }
        if let v = t.double("text_scale") { th.textScale = v }
        if let c = color(t, "row") { th.row = c }
        if let v = t.double("row_opacity") { th.rowOpacity = v }
        if let v = t.double("corner_radius") { th.cornerRadius = v }
        if let c = color(t, "text") { th.text = c }
        if let c = color(t, "selected_row") { th.selectedRow = c }
        if let c = color(t, "selected_text") { th.selectedText = c }
        if let c = color(t, "pressed_row") { th.pressedRow = c }
        if let c = color(t, "highlight") { th.highlight = c }
        if let v = t.double("highlight_width") { th.highlightWidth = v }
        if let c = color(t, "title") { th.title = c }
        if let c = color(t, "banner") { th.banner = c }
        if let c = color(t, "banner_text") { th.bannerText = c }
        if let v = t.string("back_label") { th.backLabel = v }
        if let v = word(t, "toggle_on_label") { th.toggleOnLabel = v }
        if let v = word(t, "toggle_off_label") { th.toggleOffLabel = v }
        if let v = t.string("icon_theme") { th.iconTheme = v }
        if let v = t.string("icon_color") {
            switch v {
            case "text": th.iconColor = .text
            case "original": th.iconColor = .original
            default:
                if let c = ConfigValues.color(v) { th.iconColor = .fixed(c) } else {
                    t.fail("icon_color", "expected \"text\", \"original\" or a colour \"#rrggbb\", got \"\(v)\"")
                }
            }
        }
        let colorKeys = ["row", "text", "selected_row", "selected_text", "pressed_row", "highlight"]
        th.palette.deriveSelection(own: Set(colorKeys.filter { t.has($0) }))
        t.finish()
        return th
    }

    func decodeInput(_ t: ConfigTableReader) -> InputConfig {
        var i = InputConfig()
        if let seat = t.string("seat") { i.seat = seat }
        if let d = t.int("knob_direction") { i.knobDirection = d }
        if let d = t.int("detents_per_item") { i.detentsPerItem = d }
        if let keys = t.table("keys") {
            var k = KeyBindings()
            if let v = keyNames(keys, "next") { k.next = v }
            if let v = keyNames(keys, "previous") { k.previous = v }
            if let v = keyNames(keys, "select") { k.select = v }
            if let v = keyNames(keys, "back") { k.back = v }
            keys.finish()
            i.keys = k
        }
        if let m = t.doubleArray("calibration") {
            if m.count == 6 { i.calibration = m } else {
                t.fail("calibration", "expected 6 numbers (libinput's matrix a b c d e f), got \(m.count)")
            }
        }
        t.refuse("touch_output", because: "the kiosk maps every touchscreen to its one display")
        t.finish()
        return i
    }

    private func keyNames(_ t: ConfigTableReader, _ key: String) -> [String]? {
        guard let names = t.stringArray(key) else { return nil }
        for (n, name) in names.enumerated() where !ConfigValues.isKeyName(name) {
            problems.add(at: t.path.appending(key).appending(index: n),
                         "expected an evdev key name such as \"KEY_ENTER\" or \"BTN_0\", got \"\(name)\"")
        }
        return names
    }

    private func color(_ t: ConfigTableReader, _ key: String) -> Color? {
        guard let text = t.string(key) else { return nil }
        guard let c = ConfigValues.color(text) else {
            t.fail(key, "expected a colour \"#rrggbb\" or \"#rrggbbaa\", got \"\(text)\"")
            return nil
        }
        return c
    }

    // MARK: Screens

    func decodeScreen(_ t: ConfigTableReader, name: String, background: BackgroundConfig) -> ScreenConfig {
        let style = t.choice("style", ScreenStyle.allCases.map(\.rawValue)).flatMap(ScreenStyle.init(rawValue:))
        if style == nil, !t.has("style") { t.fail("style", "missing: expected \(Self.alternatives(ScreenStyle.allCases.map(\.rawValue)))") }
        let title = t.string("title")
        let id = t.string("id")
        let value = t.table("value").flatMap(decodeValue)
        let screenBackground = t.table("background").map { decodeBackground($0, over: background) } ?? background
        let direction = t.choice("direction", ["ltr", "rtl"]).flatMap(TextDirection.init(rawValue:)) ?? .leftToRight
        var pinHash: PinHash?
        if let text = t.string("pin_hash") {
            do { pinHash = try PinHash(text) } catch { t.fail("pin_hash", error.description) }
        }
        let layout: ScreenLayout
        var sections: [MenuSection] = []
        switch style ?? .arc {
        case .arc:
            var a = ArcStyle()
            if let e = t.choice(.edge, ArcEdge.allCases.map(\.rawValue)) {
                a.edge = ArcEdge(rawValue: e)!
            } else if direction == .rightToLeft, !t.has(.edge) {
                a.edge = .left
            }
            if let v = t.double(.radiusRatio) { a.radiusRatio = v }
            if let v = t.doubleArray(.translation) {
                if v.count == 2 { a.translation = Point(x: v[0], y: v[1]) } else {
                    t.fail(.translation, "expected [x, y], got \(v.count) numbers")
                }
            }
            if let v = t.double(.rowsVisible) { a.rowsVisible = v }
            if let v = t.double(.rowLength) { a.rowLength = v }
            if let v = t.double(.rowThickness) { a.rowThickness = v }
            if let v = t.double(.inset) { a.inset = v }
            if let v = t.bool(.sidePanel) { a.sidePanel = v }
            if let v = t.bool(.wrap) { a.wrap = v }
            layout = .arc(a)
        case .dial:
            var d = DialStyle()
            if let v = t.int(.slots) { d.slots = v }
            if let v = t.double(.radius) { d.radius = v }
            if let v = t.double(.pointer) { d.pointer = v }
            if let v = t.bool(.wrap) { d.wrap = v }
            layout = .dial(d)
        case .list:
            var l = ListStyle()
            if let v = t.int(.columns) { l.columns = v }
            if let v = t.double(.rowHeight) { l.rowHeight = v }
            layout = .list(l)
        }
        if style == .list {
            if let tables = t.tables(.sections) {
                for s in tables {
                    let items = s.tables("items")?.map(decodeItem) ?? []
                    if !s.has("items") { s.fail("items", "missing: a section needs at least one [[...items]]") }
                    sections.append(MenuSection(title: s.string("title"), items: items))
                    s.finish()
                }
            } else if !t.has(.sections) {
                t.fail(.sections, "missing: a list screen needs [[screens.\(name).sections]] with items")
            }
        } else if style != nil {
            let items = t.tables(.items)?.map(decodeItem) ?? []
            if !t.has(.items) { t.fail(.items, "missing: a screen needs at least one [[screens.\(name).items]]") }
            sections = [MenuSection(items: items)]
        }
        if let style { rejectOtherStylesKeys(t, style: style) }
        t.finish()
        return ScreenConfig(name: name, title: title, layout: layout, background: screenBackground, sections: sections,
                            direction: direction, pinHash: pinHash, id: id, value: value)
    }

    /// Refuses the keys of another style (`StyleKey.styles`) saying whose they are, rather than
    /// calling them unknown.
    private func rejectOtherStylesKeys(_ t: ConfigTableReader, style: ScreenStyle) {
        for name in t.source.keys.sorted() {
            guard let key = StyleKey(rawValue: name), !key.styles.contains(style) else { continue }
            let users = key.styles.map { "\"\($0.rawValue)\"" }
            _ = t.value(name)
            t.fail(name, "only used with style = \(users.joined(separator: " or ")); this screen is \"\(style.rawValue)\"")
        }
    }

    /// `"a", "b" or "c"`.
    static func alternatives(_ words: [String]) -> String {
        let quoted = words.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    func decodeItem(_ t: ConfigTableReader) -> MenuItem {
        let label = t.string("label")
        if label == nil, !t.has("label") { t.fail("label", "missing: every item needs a label") }
        // A file (a "/" or a .png/.svg ending) is resolved against the config's folder; an icon name is kept as written.
        let icon = t.string("icon").map { IconTheme.isName($0) ? $0 : resolve($0) }
        let description = t.string("description")
        let id = t.string("id")
        let value = t.table("value").flatMap(decodeValue)
        let toggle = t.table("toggle").flatMap(decodeToggle)
        let publish = t.bool("publish") ?? false
        let apiWhenLocked = t.bool("api_when_locked") ?? false
        if t.has("toggle") {
            // A switch is what activating it does: no other action goes with it.
            if t.has("action") { _ = t.value("action"); t.fail("action", "a toggle item switches when activated; leave out action") }
            if t.has("value") { t.fail("value", "a toggle shows its state; an item has a value or a toggle, not both") }
            t.finish()
            return MenuItem(label: label ?? "", icon: icon, action: .toggle, description: description, id: id, toggle: toggle, publish: publish,
                            apiWhenLocked: apiWhenLocked)
        }
        let kinds = ActionKind.configurable.map(\.rawValue)
        let kind = t.choice("action", kinds).flatMap(ActionKind.init(rawValue:))
        if kind == nil, !t.has("action") {
            t.fail("action", "missing: expected one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        var action = ItemAction.back
        switch kind {
        case .screen?:
            if let target = t.string("screen") { action = .screen(target) } else if !t.has("screen") {
                t.fail("screen", "missing: action \"\(ActionKind.screen)\" needs screen = \"NAME\"")
            }
        case .exec?, .spawn?:
            if let command = decodeCommand(t) { action = kind == .exec ? .exec(command) : .spawn(command) }
        case .reload?: action = .reload
        case .poweroff?: action = .poweroff
        case .reboot?: action = .reboot
        case .back?, .toggle?, nil: action = .back
        }
        if kind != .screen, t.has("screen") { _ = t.value("screen"); t.fail("screen", "only used with action = \"\(ActionKind.screen)\"") }
        if kind != .exec, kind != .spawn {
            for key in ["command", "env"] where t.has(key) {
                _ = t.value(key)
                t.fail(key, "only used with action = \"\(ActionKind.exec)\" or \"\(ActionKind.spawn)\"")
            }
        }
        t.finish()
        return MenuItem(label: label ?? "", icon: icon, action: action, description: description, id: id, value: value, publish: publish,
                        apiWhenLocked: apiWhenLocked)
    }

    // MARK: Live values and toggles

    /// `value = { command = [...] | file = "..." | api = true, every, timeout, stale_after, format, scale, unit }`.
    func decodeValue(_ t: ConfigTableReader) -> ValueSource? {
        let origin = decodeOrigin(t, commandKey: "command", what: "a value")
        let every = notRead(t, "every", origin), timeout = notRead(t, "timeout", origin)
        let staleAfter = positiveSeconds(t, "stale_after")
        var format: ValueFormat?
        if let text = t.string("format") {
            do { format = try ValueFormat(text) } catch { t.fail("format", "\"\(text)\" \(error.description)") }
        }
        let scale = t.double("scale")
        let unit = t.string("unit")
        t.finish()
        guard let origin else { return nil }
        let e = every ?? ValueSource.defaultEvery, o = timeout ?? ValueSource.defaultTimeout
        return ValueSource(origin: origin, every: e, timeout: o, staleAfter: staleAfter, format: format, scale: scale, unit: unit)
    }

    /// `toggle = { state = [...] | file = "..." | api = true, on = [...], off = [...], every, timeout }`.
    func decodeToggle(_ t: ConfigTableReader) -> ToggleConfig? {
        let state = decodeOrigin(t, commandKey: "state", what: "a toggle's state")
        let on = argv(t, "on"), off = argv(t, "off")
        // A toggle the control API sets may leave its switching to the API: a press asks it.
        let asksTheAPI = state == .api && !t.has("on") && !t.has("off")
        if !asksTheAPI {
            if on == nil, !t.has("on") {
                t.fail("on", state == .api
                    ? "missing: give both on and off, or neither (a press then asks the control API to switch it)"
                    : "missing: the command that switches it on, e.g. on = [\"/usr/bin/lights\", \"on\"]")
            }
            if off == nil, !t.has("off") {
                t.fail("off", state == .api ? "missing: give both on and off, or neither (a press then asks the control API to switch it)"
                                            : "missing: the command that switches it off")
            }
        }
        let every = notRead(t, "every", state)
        let timeout = positiveSeconds(t, "timeout")
        let onLabel = word(t, "on_label"), offLabel = word(t, "off_label")
        t.finish()
        guard let state, asksTheAPI || (on != nil && off != nil) else { return nil }
        return ToggleConfig(state: state, on: on, off: off, every: every ?? ValueSource.defaultEvery, timeout: timeout ?? ToggleConfig.defaultTimeout,
                            onLabel: onLabel, offLabel: offLabel)
    }

    /// A toggle state's word under `key`: a few words on one line.
    private func word(_ t: ConfigTableReader, _ key: String) -> String? {
        guard let v = t.string(key) else { return nil }
        let trimmed = v.trimmingWhitespace
        if trimmed.isEmpty || v.contains(where: \.isNewline) || v.count > ToggleConfig.maximumLabel {
            t.fail(key, "expected a word or two on one line (at most \(ToggleConfig.maximumLabel) characters), e.g. \(key) = \"\(key.contains("off") ? "Uit" : "Aan")\"")
            return nil
        }
        return trimmed
    }

    /// Seconds under `key` for a source that is read; an `api = true` source is never read, so
    /// the key has no meaning there and is refused rather than silently ignored.
    private func notRead(_ t: ConfigTableReader, _ key: String, _ origin: ValueOrigin?) -> Double? {
        if origin == .api, t.value(key) != nil {
            t.fail(key, "has no meaning with api = true: the value is never read, only set through the control API; remove \(key)")
            return nil
        }
        return positiveSeconds(t, key)
    }

    /// A command under `commandKey`, a file under `file`, or `api = true`: exactly one.
    private func decodeOrigin(_ t: ConfigTableReader, commandKey: String, what: String) -> ValueOrigin? {
        if t.has("api") {
            guard let api = t.bool("api") else { return nil }
            guard api else {
                t.fail("api", "api = false means nothing: leave it out and give \(commandKey) = [...] or file = \"...\", or write api = true")
                return nil
            }
            let others = [commandKey, "file"].filter { t.value($0) != nil }
            guard others.isEmpty else {
                t.fail("api", "\(what) set through the control API (api = true) has no \(others.joined(separator: " or ")): remove \(others.count == 1 ? "it" : "them") or api = true")
                return nil
            }
            return .api
        }
        let command = argv(t, commandKey)
        let file = t.string("file").map { resolve($0) }
        switch (command, file) {
        case (let c?, nil): return .command(c)
        case (nil, let f?):
            if f.isEmpty || f.hasSuffix("/") { t.fail("file", "expected a file's path") ; return nil }
            return .file(f)
        case (_?, _?):
            t.fail("file", "\(what) comes from \(commandKey) or file, not both")
            return nil
        case (nil, nil):
            if !t.has(commandKey), !t.has("file") {
                t.fail(commandKey, "missing: \(what) comes from \(commandKey) = [\"/path/to/program\", \"arg\"], file = \"/path\" or api = true (set only through the control API)")
            }
            return nil
        }
    }

    /// An argv array under `key` (no environment: a reading inherits the kiosk's).
    private func argv(_ t: ConfigTableReader, _ key: String) -> Command? {
        if let v = t.value(key), let text = v.string {
            t.fail(key, "expected an array of strings (argv), got a string; write \(key) = [\(suggestedArgv(text))]: commands never go through a shell")
            return nil
        }
        guard let argv = t.stringArray(key) else { return nil }
        guard let first = argv.first, !first.isEmpty else {
            t.fail(key, argv.isEmpty ? "empty: expected at least the program" : "the program name is empty")
            return nil
        }
        var resolved = argv
        if first.contains("/") { resolved[0] = resolve(first) }
        return Command(argv: resolved)
    }

    /// Seconds above 0 and at most a day.
    private func positiveSeconds(_ t: ConfigTableReader, _ key: String) -> Double? {
        guard let v = t.double(key) else { return nil }
        guard v >= 0.05, v <= 86400 else { t.fail(key, "expected seconds from 0.05 to 86400, got \(v)"); return nil }
        return v
    }

    private func decodeCommand(_ t: ConfigTableReader) -> Command? {
        if let v = t.value("command"), let text = v.string {
            t.fail("command", "expected an array of strings (argv), got a string; write command = [\(suggestedArgv(text))]: commands never go through a shell")
            return nil
        }
        guard let argv = t.stringArray("command") else {
            if !t.has("command") { t.fail("command", "missing: exec and spawn need command = [\"/path/to/program\", \"arg\"]") }
            return nil
        }
        guard let first = argv.first, !first.isEmpty else {
            t.fail("command", argv.isEmpty ? "empty: expected at least the program" : "the program name is empty")
            return nil
        }
        var argvResolved = argv
        // A program given with a relative directory (`./bin/x`) is relative to the config file.
        if first.contains("/") { argvResolved[0] = resolve(first) }
        var environment: [String: String] = [:]
        if let env = t.table("env") {
            for key in env.source.keys.sorted() {
                if let value = env.string(key) {
                    if key.isEmpty || key.contains("=") { env.fail(key, "environment variable names cannot be empty or contain \"=\"") }
                    environment[key] = value
                }
            }
            env.finish()
        }
        return Command(argv: argvResolved, environment: environment)
    }

    /// `"/usr/bin/foo", "--bar"` from `/usr/bin/foo --bar`, to show the argv form of a shell-like string.
    private func suggestedArgv(_ text: String) -> String {
        text.split(separator: " ").prefix(8).map { TOMLSyntax.quoted(String($0)) }.joined(separator: ", ")
    }
}

/// The accessors for a style's own keys (`StyleKey`), so that the decoder spells none of them.
private extension ConfigTableReader {
    func has(_ key: StyleKey) -> Bool { has(key.rawValue) }
    func fail(_ key: StyleKey, _ message: String) { fail(key.rawValue, message) }
    func int(_ key: StyleKey) -> Int? { int(key.rawValue) }
    func double(_ key: StyleKey) -> Double? { double(key.rawValue) }
    func bool(_ key: StyleKey) -> Bool? { bool(key.rawValue) }
    func doubleArray(_ key: StyleKey) -> [Double]? { doubleArray(key.rawValue) }
    func choice(_ key: StyleKey, _ choices: [String]) -> String? { choice(key.rawValue, choices) }
    func tables(_ key: StyleKey) -> [ConfigTableReader]? { tables(key.rawValue) }
}
