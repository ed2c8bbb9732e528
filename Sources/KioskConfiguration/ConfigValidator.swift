import Glibc
import Raster
import Text
import TOML

/// Checks a decoded config against everything the running kiosk would meet: fonts and images that
/// load, commands that can start, screens that exist, values in their ranges. Collects every
/// problem, not just the first, so that `kiosk check-config` lists all of them at once.
///
/// The one place for every rule about a decoded value: ranges (every number's bounds, including
/// "seconds >= 0"), relations between values, references (screens, keys the kiosk reads) and the
/// files named. `ConfigDecoder` decides only what a value is (its type, its shape, which of a
/// fixed set of words or numbers it names); it checks no range. The font and images are not
/// loaded here: `ConfigAssets` decoded them once for this load, and their problems are reported
/// from it.
public struct ConfigValidator {
    /// Colon-separated directories where bare command names are looked up.
    public var searchPath: String
    /// How messages name the file.
    public var file: String

    public init(file: String, searchPath: String? = nil) {
        self.file = file
        self.searchPath = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
    }

    /// Validates `config`, loading its font and images for the purpose (`ConfigReader` validates
    /// against the assets its load decoded instead).
    public func validate(_ config: KioskConfig) -> [ConfigProblem] {
        validate(config, assets: ConfigAssets.decode(config))
    }

    /// Validates `config`; its font and image problems are those `assets` (decoded from `config`) found.
    func validate(_ config: KioskConfig, assets: ConfigAssets) -> [ConfigProblem] {
        var run = ValidationRun(file: file, searchPath: searchPath, assets: assets)
        run.check(config)
        return run.problems
    }
}

/// One validation pass: its problems, against the assets the load decoded (an icon used ten times
/// was decoded once, and counted once towards the images' total size; each key naming a bad one
/// is reported).
private struct ValidationRun {
    let file: String
    let searchPath: String
    let assets: ConfigAssets
    var problems: [ConfigProblem] = []
    /// The theme's font once it loaded, to check the config's text against.
    private var font: Font?
    /// Whether `[mqtt]` is there for items' `publish` to mean anything.
    private var hasMQTT = false
    /// The screens a PIN guards before any is entered, for items' `api_when_locked`.
    private var guarded: LockedReach?

    init(file: String, searchPath: String, assets: ConfigAssets) {
        self.file = file
        self.searchPath = searchPath
        self.assets = assets
    }

    mutating func fail(_ path: ConfigKeyPath, _ message: String) {
        problems.append(ConfigProblem(.error, file: file, at: ConfigLocation(keyPath: path), message))
    }

    mutating func warn(_ path: ConfigKeyPath, _ message: String) {
        problems.append(ConfigProblem(.warning, file: file, at: ConfigLocation(keyPath: path), message))
    }

    mutating func range(_ value: Int, _ allowed: ClosedRange<Int>, _ path: ConfigKeyPath) {
        if !allowed.contains(value) { fail(path, "\(value) is out of range \(allowed.lowerBound)...\(allowed.upperBound)") }
    }

    mutating func range(_ value: Double, _ allowed: ClosedRange<Double>, _ path: ConfigKeyPath) {
        if !allowed.contains(value) {
            fail(path, "\(number(value)) is out of range \(number(allowed.lowerBound))...\(number(allowed.upperBound))")
        }
    }

    /// `value` must be > `lower` and <= `upper`.
    mutating func range(_ value: Double, above lower: Double, upTo upper: Double, _ path: ConfigKeyPath) {
        if !(value > lower && value <= upper) {
            fail(path, "\(number(value)) is out of range: expected more than \(number(lower)) and at most \(number(upper))")
        }
    }

    /// `2` rather than `2.0`, as a config author would write it.
    private func number(_ v: Double) -> String {
        v == v.rounded() && Swift.abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }

    /// Seconds until something happens, 0 (decoded as nil) meaning never: at most a week.
    mutating func seconds(_ value: Double?, _ path: ConfigKeyPath) {
        guard let value else { return }
        if value < 0 {
            fail(path, "expected seconds >= 0 (0 means never), got \(value)")
        } else {
            range(value, 0...Self.week, path)
        }
    }

    static let week = 604_800.0

    mutating func check(_ config: KioskConfig) {
        hasMQTT = config.mqtt != nil
        guarded = LockedReach(config: config, isLocked: { $0.pinHash != nil })
        seconds(config.idleTimeout, "idle_timeout")
        // Works, but node_exporter's textfile collector would never read it.
        if let metrics = config.metricsFile, !metrics.hasSuffix(".prom") {
            warn("metrics_file", "node_exporter's textfile collector reads only *.prom files")
        }
        checkPower(config.power)
        checkLock(config.lock)
        range(config.speech.rate, 80...450, "speech.rate")
        range(config.speech.settle, 0...5, "speech.settle")
        checkTheme(config.theme)
        checkBackground(config.background, at: "background")
        checkInput(config.input)
        checkScreens(config)
        checkItemIDs(config)
        checkMQTT(config)
        checkContrast(config)
        if let font { checkText(config, font: font) }
    }

    // MARK: Power, theme, background, input

    mutating func checkPower(_ power: PowerConfig) {
        seconds(power.dimAfter, "power.dim_after")
        seconds(power.blankAfter, "power.blank_after")
        range(power.dimLevel, above: 0, upTo: 1, "power.dim_level")
        // Negative times are reported above, alone: no relation or warning is drawn from them.
        if let dim = power.dimAfter, dim < 0 { return }
        if let blank = power.blankAfter, blank < 0 { return }
        if let dim = power.dimAfter, let blank = power.blankAfter, dim >= blank {
            fail("power.dim_after", "\(number(dim)) s is not before blank_after (\(number(blank)) s): the panel would be off before it dims")
        }
        if power.dimAfter != nil, case .none = power.backlight {
            warn("power.dim_after", "dims nothing with backlight = \"none\"")
        }
    }

    mutating func checkLock(_ lock: LockConfig) {
        range(lock.attempts, 1...100, "lock.attempts")
        range(lock.lockout, 1...86_400, "lock.lockout")
        range(lock.relockAfter, 0...86_400, "lock.relock_after")
    }

    mutating func checkTheme(_ theme: ThemeConfig) {
        if let problem = assets.fontProblem { fail("theme.font", problem) }
        font = assets.font
        range(theme.textSize, above: 0, upTo: 1, "theme.text_size")
        range(theme.titleSize, above: 0, upTo: 0.5, "theme.title_size")
        if !(ThemeConfig.textScales.contains(theme.textScale)) {
            fail("theme.text_scale", "\(number(theme.textScale)) is out of range \(number(ThemeConfig.textScales.lowerBound))..."
                 + "\(number(ThemeConfig.textScales.upperBound)): it multiplies every text's size (1 as designed, 1.5 large text)")
        }
        range(theme.rowOpacity, 0...1, "theme.row_opacity")
        range(theme.cornerRadius, 0...0.5, "theme.corner_radius")
        range(theme.highlightWidth, 0...32, "theme.highlight_width")
    }

    /// Warns (the config still works) about every label below WCAG AA contrast: over the global
    /// background, then over each screen background that makes a pair worse than it already was.
    mutating func checkContrast(_ config: KioskConfig) {
        let global = ThemeContrast(theme: config.theme, background: config.background)
        for pair in global.failing {
            warn(ConfigKeyPath(stringLiteral: pair.text), "contrast \(ThemeContrast.describe(pair.ratio)) on \(pair.ground) is below "
                 + "\(number(ThemeContrast.minimum)):1 (WCAG AA): hard to read; change \(pair.text) or \(pair.ground)")
        }
        for screen in config.screens where screen.background != config.background {
            let own = ThemeContrast(theme: config.theme, background: screen.background)
            for (pair, before) in zip(own.pairs, global.pairs) where pair.ratio < ThemeContrast.minimum && pair.ratio < before.ratio {
                warn(ConfigKeyPath([.key("screens"), .key(screen.name), .key("background")]),
                     "\(pair.text) on \(pair.ground) over this background: contrast \(ThemeContrast.describe(pair.ratio)) is below "
                     + "\(number(ThemeContrast.minimum)):1 (WCAG AA): hard to read")
            }
        }
    }

    /// Checks `b`; with `inherited` (a screen's override), only what differs from it, so that a
    /// global problem is reported once, at the global key.
    mutating func checkBackground(_ b: BackgroundConfig, at path: ConfigKeyPath, inherited: BackgroundConfig? = nil) {
        if b == inherited { return }
        if b.cell != inherited?.cell { range(b.cell, 2...512, path.appending("cell")) }
        if b.lineWidth != inherited?.lineWidth { range(b.lineWidth, above: 0, upTo: 64, path.appending("line_width")) }
        if let inherited, b.pattern == inherited.pattern, b.image == inherited.image { return }
        switch (b.pattern, b.image) {
        case (.image, nil):
            fail(path.appending("image"), "missing: pattern \"image\" needs image = \"tile.png\"")
        case (.image, let image?):
            checkPNG(image, at: path.appending("image"))
        case (_, _?):
            warn(path.appending("image"), "ignored unless pattern = \"image\" (pattern is \"\(b.pattern.rawValue)\")")
        default:
            break
        }
    }

    mutating func checkInput(_ input: InputConfig) {
        if input.seat.isEmpty { fail("input.seat", "empty: expected a seat name such as \"seat0\"") }
        if input.knobDirection != 1, input.knobDirection != -1 {
            fail("input.knob_direction", "expected 1 or -1, got \(input.knobDirection)")
        }
        range(input.detentsPerItem, 1...100, "input.detents_per_item")
        let bindings = [("next", input.keys.next), ("previous", input.keys.previous),
                        ("select", input.keys.select), ("back", input.keys.back)]
        var owner: [String: String] = [:]
        let knownNames = KeyCode.byName.keys.sorted()
        for (command, names) in bindings {
            for (i, name) in names.enumerated() {
                if KeyCode.byName[name] == nil {
                    let suggestion = didYouMean(name, among: knownNames)
                    fail(ConfigKeyPath([.key("input"), .key("keys"), .key(command), .index(i)]),
                         "\(name) is not a key the kiosk reads"
                         + (suggestion.isEmpty ? "; known: \(knownNames.joined(separator: ", "))" : suggestion))
                    continue
                }
                if let other = owner[name], other != command {
                    fail(ConfigKeyPath([.key("input"), .key("keys"), .key(command), .index(i)]), "\(name) is already bound to \(other)")
                }
                owner[name] = command
            }
        }
    }

    // MARK: Screens

    mutating func checkScreens(_ config: KioskConfig) {
        let names = config.screens.map(\.name)
        if config.screens.isEmpty { return }  // reported while decoding
        if config.screen(named: config.home) == nil {
            fail("home", "no screen named \"\(config.home)\"" + didYouMean(config.home, among: names) + "; screens: \(names.joined(separator: ", "))")
        }
        for screen in config.screens {
            checkScreen(screen, names: names, globalBackground: config.background)
        }
        // The keypad stands in front of a screen being opened; home is shown, never opened.
        if config.screen(named: config.home)?.pinHash != nil {
            fail(ConfigKeyPath("screens").appending(config.home).appending("pin_hash"), "the home screen cannot be locked: it is shown at start, never opened; lock the screens it opens")
        }
        // With a wrong home every screen would be "unreachable": the error above says enough.
        if config.screen(named: config.home) != nil { warnUnreachable(config) }
    }

    mutating func checkScreen(_ screen: ScreenConfig, names: [String], globalBackground: BackgroundConfig) {
        let base = ConfigKeyPath([.key("screens"), .key(screen.name)])
        checkBackground(screen.background, at: base.appending("background"), inherited: globalBackground)
        switch screen.layout {
        case .arc(let a):
            range(a.radiusRatio, above: 0, upTo: 10, base.appending(StyleKey.radiusRatio))
            range(a.rowsVisible, above: 0, upTo: 100, base.appending(StyleKey.rowsVisible))
            if let length = a.rowLength { range(length, above: 0, upTo: 1, base.appending(StyleKey.rowLength)) }
            range(a.rowThickness, above: 0, upTo: 1, base.appending(StyleKey.rowThickness))
            range(a.inset, -1080...1080, base.appending(StyleKey.inset))
            range(a.translation.x, -10000...10000, base.appending(StyleKey.translation).appending(index: 0))
            range(a.translation.y, -10000...10000, base.appending(StyleKey.translation).appending(index: 1))
        case .dial(let d):
            range(d.slots, 1...64, base.appending(StyleKey.slots))
            range(d.radius, above: 0, upTo: 0.5, base.appending(StyleKey.radius))
            range(d.pointer, -360...360, base.appending(StyleKey.pointer))
        case .list(let l):
            range(l.columns, 1...8, base.appending(StyleKey.columns))
            range(l.rowHeight, above: 0, upTo: 1, base.appending(StyleKey.rowHeight))
        }
        if screen.items.isEmpty {
            let key: StyleKey = screen.style == .list ? .sections : .items
            fail(base.appending(key), "screen \"\(screen.name)\" has no items; add at least one")
        }
        for (s, section) in screen.sections.enumerated() {
            let sectionPath = screen.style == .list ? base.appending(StyleKey.sections).appending(index: s) : base
            if screen.style == .list, section.items.isEmpty {
                fail(sectionPath.appending("items"), "section has no items")
            }
            for (i, item) in section.items.enumerated() {
                let itemPath = sectionPath.appending("items").appending(index: i)
                checkItem(item, at: itemPath, names: names)
                checkLockedAPI(item, on: screen, at: itemPath)
                // Works (another copy of the screen, with a Back button), so only a warning: a
                // config that loaded before still loads. On a home screen whose items all do this,
                // nothing leads anywhere.
                if case .screen(let target) = item.action, target == screen.name {
                    warn(itemPath.appending("screen"), "opens the screen it is on (\"\(screen.name)\"): each press stacks another "
                         + "copy of it; name another screen, or use action = \"back\"")
                }
            }
        }
    }

    /// `api_when_locked` where no PIN guards the item, and an `api = true` value or toggle that the
    /// API could never set while its screen is locked: both work, so warnings.
    mutating func checkLockedAPI(_ item: MenuItem, on screen: ScreenConfig, at path: ConfigKeyPath) {
        let lock = guarded?.lock(of: screen.name)
        if item.apiWhenLocked, lock == nil {
            warn(path.appending("api_when_locked"), "does nothing: screen \"\(screen.name)\" has no pin_hash and is not reached only through one")
        }
        let setFromOutside = item.value?.origin == .api || item.toggle?.state == .api
        if setFromOutside, !item.apiWhenLocked, let lock {
            warn(path.appending(item.value != nil ? "value" : "toggle"),
                 "api = true, but nothing from outside sets it while screen \"\(lock)\" is locked behind its PIN; api_when_locked = true lets the API set it then")
        }
    }

    mutating func checkItem(_ item: MenuItem, at path: ConfigKeyPath, names: [String]) {
        if item.label.allSatisfy(\.isWhitespace) { fail(path.appending("label"), "empty: every item needs a label") }
        if let text = item.description {
            if text.allSatisfy(\.isWhitespace) {
                fail(path.appending("description"), "empty: leave the key out, or say in a sentence what the item does")
            } else if text.count > MenuItem.maximumDescription {
                fail(path.appending("description"), "\(text.count) characters; at most \(MenuItem.maximumDescription) (a sentence or two): "
                     + "the side panel shows it under the label")
            } else if text.contains(where: \.isNewline) {
                fail(path.appending("description"), "contains a line break; write one paragraph: the side panel wraps it to its width")
            }
        }
        if let icon = item.icon {
            checkPNG(icon, at: path.appending("icon"))
            if let warning = assets.iconWarnings[icon] { warn(path.appending("icon"), warning) }
        }
        switch item.action {
        case .screen(let target):
            if !names.contains(target) {
                fail(path.appending("screen"), "no screen named \"\(target)\"" + didYouMean(target, among: names)
                     + "; screens: \(names.joined(separator: ", "))")
            }
        case .exec(let command), .spawn(let command):
            checkCommand(command, at: path.appending("command"))
        case .toggle:
            if let toggle = item.toggle {
                if case .command(let c) = toggle.state { checkCommand(c, at: path.appending("toggle").appending("state")) }
                if let on = toggle.on { checkCommand(on, at: path.appending("toggle").appending("on")) }
                if let off = toggle.off { checkCommand(off, at: path.appending("toggle").appending("off")) }
            }
        case .back, .reload, .poweroff, .reboot:
            break
        }
        if let value = item.value, case .command(let c) = value.origin { checkCommand(c, at: path.appending("value").appending("command")) }
        if (item.value != nil || item.toggle != nil), item.id == nil {
            fail(path.appending(item.value != nil ? "value" : "toggle"), "needs an id (id = \"nozzle\"): the status file names live values by it")
        }
        if item.publish, item.id == nil {
            fail(path.appending("publish"), "needs an id (id = \"lights\"): the Home Assistant button and its topic are named by it")
        } else if item.publish, !hasMQTT {
            warn(path.appending("publish"), "does nothing without an [mqtt] table")
        }
        let placeholders = item.label.ranges(of: LiveLabel.placeholder).count
        if placeholders > 1 {
            // Each would be the value's text: a label's length would grow with every reading.
            fail(path.appending("label"), "has \(LiveLabel.placeholder) \(placeholders) times; a label shows its value once")
        }
        if item.value == nil, item.label.contains(LiveLabel.placeholder) {
            warn(path.appending("label"), "\(LiveLabel.placeholder) is shown as written: this item has no value = { ... }")
        }
    }

    /// Every item's `id`: well formed, and used once in the whole config (the status file and
    /// the control API name items by it alone).
    mutating func checkItemIDs(_ config: KioskConfig) {
        var first: [String: ConfigKeyPath] = [:]
        func check(_ id: String, at path: ConfigKeyPath) {
            if let problem = ItemID.problem(id) {
                fail(path, problem)
            } else if let other = first[id] {
                fail(path, "\"\(id)\" is already the id of \(other); ids are unique in a config")
            } else {
                first[id] = path
            }
        }
        for screen in config.screens {
            let base = ConfigKeyPath([.key("screens"), .key(screen.name)])
            if let id = screen.id { check(id, at: base.appending("id")) }
            if screen.value != nil, screen.id == nil {
                fail(base.appending("value"), "needs an id (id = \"printer-state\"): the status file names live values by it")
            }
            if let value = screen.value, case .command(let c) = value.origin { checkCommand(c, at: base.appending("value").appending("command")) }
            for (s, section) in screen.sections.enumerated() {
                let sectionPath = screen.style == .list ? base.appending(StyleKey.sections).appending(index: s) : base
                for (i, item) in section.items.enumerated() {
                    guard let id = item.id else { continue }
                    check(id, at: sectionPath.appending("items").appending(index: i).appending("id"))
                }
            }
        }
    }

    // MARK: MQTT

    mutating func checkMQTT(_ config: KioskConfig) {
        guard let mqtt = config.mqtt else { return }
        range(mqtt.keepalive, 5...65535, "mqtt.keepalive")
        if let id = mqtt.clientID {
            if id.isEmpty || id.utf8.count > 65535 {
                fail("mqtt.client_id", "must be 1 to 65535 bytes; leave the key out for kiosk-MACHINE_ID")
            } else if id.utf8.count > 23 {
                warn("mqtt.client_id", "\(id.utf8.count) bytes: brokers must accept only 23 (mosquitto takes more)")
            }
        }
        if let prefix = mqtt.topicPrefix, let problem = MQTTTopic.prefixProblem(prefix) { fail("mqtt.topic_prefix", problem) }
        if let problem = MQTTTopic.prefixProblem(mqtt.discoveryPrefix) { fail("mqtt.discovery_prefix", problem) }
        for (key, file) in [("ca_file", mqtt.caFile), ("cert_file", mqtt.certFile), ("key_file", mqtt.keyFile)] {
            if let file, let problem = FileCheck.readableProblem(file) { fail(ConfigKeyPath([.key("mqtt"), .key(key)]), problem) }
        }
        if (mqtt.certFile == nil) != (mqtt.keyFile == nil) {
            fail(mqtt.certFile == nil ? "mqtt.key_file" : "mqtt.cert_file", "cert_file and key_file go together: name both or neither")
        }
        if let file = mqtt.credentialsFile { checkCredentials(file) }
    }

    /// The file must parse and be readable by its owner alone: a password in a world-readable
    /// file is an error, in a group-readable one a warning (the group may be the service's own).
    mutating func checkCredentials(_ file: String) {
        let key: ConfigKeyPath = "mqtt.credentials_file"
        if let problem = FileCheck.readableProblem(file) { fail(key, problem); return }
        var info = stat()
        if stat(file, &info) == 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            if info.st_mode & S_IROTH != 0 {
                fail(key, "\"\(file)\" is readable by every user (mode \(mode)): chmod 600 it, owned by the kiosk's user")
            } else if info.st_mode & S_IRGRP != 0 {
                warn(key, "\"\(file)\" is readable by its group (mode \(mode)): chmod 600 it unless that group is the kiosk's alone")
            }
        }
        if case .failure(let e) = MQTTCredentials.read(path: file) { fail(key, "\"\(file)\" \(e)") }
    }

    mutating func warnUnreachable(_ config: KioskConfig) {
        var reached: Set<String> = [config.home]
        var queue = [config.home]
        while let name = queue.popLast() {
            guard let screen = config.screen(named: name) else { continue }
            for item in screen.items {
                if case .screen(let target) = item.action, reached.insert(target).inserted { queue.append(target) }
            }
        }
        for screen in config.screens where !reached.contains(screen.name) {
            warn(ConfigKeyPath([.key("screens"), .key(screen.name)]),
                 "screen \"\(screen.name)\" cannot be reached from home \"\(config.home)\" (no item opens it)")
        }
    }

    // MARK: Files and programs

    /// "U+0627": how Unicode names a code point.
    static func codePoint(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
    }

    /// Every text the screens show, against the fonts: code points that no installed font has
    /// (they would be drawn as boxes) are named with the text's key, and text longer than the
    /// kiosk shapes is said to be cut.
    mutating func checkText(_ config: KioskConfig, font: Font) {
        func check(_ text: String?, _ path: ConfigKeyPath, _ what: String) {
            guard let text, !text.isEmpty else { return }
            let missing = font.missingScalars(in: text)
            if !missing.isEmpty {
                let shown = missing.prefix(8).map(Self.codePoint)
                    .joined(separator: " ") + (missing.count > 8 ? " and \(missing.count - 8) more" : "")
                warn(path, "\(what) \(TOMLSyntax.quoted(String(text.prefix(40)))) has characters no installed font can draw "
                     + "(\(shown)); they show as boxes: install a font that has them (fc-list ':charset=\(String(missing[0].value, radix: 16))')")
            }
            if text.unicodeScalars.count > Font.maximumScalars {
                warn(path, "\(what) is \(text.unicodeScalars.count) characters long; only the first \(Font.maximumScalars) are drawn")
            }
        }
        for screen in config.screens {
            let base = ConfigKeyPath([.key("screens"), .key(screen.name)])
            check(screen.title, base.appending("title"), "title")
            if screen.style == .list {
                for (s, section) in screen.sections.enumerated() {
                    let sectionPath = base.appending(StyleKey.sections).appending(index: s)
                    check(section.title, sectionPath.appending("title"), "section title")
                    for (i, item) in section.items.enumerated() {
                        check(item.label, sectionPath.appending("items").appending(index: i).appending("label"), "label")
                    }
                }
            } else {
                for (i, item) in screen.items.enumerated() {
                    check(item.label, base.appending(StyleKey.items).appending(index: i).appending("label"), "label")
                    check(item.description, base.appending(StyleKey.items).appending(index: i).appending("description"), "description")
                }
            }
        }
    }

    /// An image the screens will draw: reported at every key that names it when the load could
    /// not decode it (`ConfigAssets` says why: missing, unreadable, too large alone or together
    /// with the others, damaged).
    mutating func checkPNG(_ path: String, at key: ConfigKeyPath) {
        if let problem = assets.imageProblems[path] { fail(key, problem) }
    }

    mutating func checkCommand(_ command: Command, at path: ConfigKeyPath) {
        guard let program = command.argv.first else { return }  // reported while decoding
        if program.contains("/") {
            if let problem = FileCheck.executableProblem(program) { fail(path.appending(index: 0), problem) }
            return
        }
        let directories = searchPath.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        let found = directories.contains { FileCheck.executableProblem($0 + "/" + program) == nil }
        if !found {
            fail(path.appending(index: 0), "\"\(program)\" is not found in PATH (\(searchPath)); give an absolute path or install it")
        }
    }
}
