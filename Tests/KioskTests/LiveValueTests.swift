import Glibc
@testable import Kiosk
@testable import KioskConfiguration
import Raster
import Testing

/// Live values and toggles without processes: parsing and formatting a reading, staleness and
/// the toggle's state machine with time moved by hand, the config's ids, and what the app shows.
@Suite struct LiveValueTests {
    static let printer = """
        home = "main"

        [screens.main]
        style = "list"
        title = "Printer"

        [[screens.main.sections]]
        [[screens.main.sections.items]]
        id = "nozzle"
        label = "Nozzle {value}"
        action = "back"
        value = { command = ["/bin/cat", "/dev/null"], every = 2, timeout = 1, stale_after = 10, format = "%.1f", unit = "°C" }

        [[screens.main.sections.items]]
        id = "bed"
        label = "Bed"
        action = "back"
        value = { file = "/sys/class/thermal/thermal_zone0/temp", scale = 0.001, format = "%d", unit = "°C" }

        [[screens.main.sections.items]]
        id = "lights"
        label = "Lights"
        toggle = { state = ["/bin/true"], on = ["/bin/true"], off = ["/bin/false"] }

        """

    func check(_ text: String) -> ConfigCheck {
        let scratch = ScratchDirectory()
        return ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml", searchPath: "/usr/bin:/bin").check()
    }

    func config(_ text: String = Self.printer) throws -> KioskConfig {
        let c = check(text)
        #expect(c.problems.isEmpty, "\(c.report)")
        return try #require(c.config)
    }

    // MARK: Config

    @Test func valueAndToggleDecode() throws {
        let items = try config().screens[0].items
        let nozzle = try #require(items[0].value)
        #expect(items[0].id == "nozzle" && nozzle.every == 2 && nozzle.timeout == 1 && nozzle.staleAfter == 10 && nozzle.unit == "°C")
        #expect(nozzle.origin == .command(Command(argv: ["/bin/cat", "/dev/null"])))
        let bed = try #require(items[1].value)
        #expect(bed.origin == .file("/sys/class/thermal/thermal_zone0/temp") && bed.scale == 0.001)
        // Defaults: every 2 s, 1 s timeout, stale after three missed readings.
        #expect(bed.every == 2 && bed.timeout == 1 && bed.staleAfter == 7)
        #expect(items[2].action == .toggle && items[2].toggle?.on == Command(argv: ["/bin/true"]) && items[2].toggle?.timeout == 5)
    }

    @Test func idsAreCheckedUniqueAndWellFormed() {
        let text = Self.printer + """
            [[screens.main.sections.items]]
            id = "nozzle"
            label = "Again"
            action = "back"

            [[screens.main.sections.items]]
            id = "fan speed"
            label = "Fan"
            action = "back"

            [[screens.main.sections.items]]
            id = "9lives"
            label = "Cat"
            action = "back"

            [[screens.main.sections.items]]
            label = "No id {value}"
            action = "back"
            value = { file = "/tmp/x" }

            """
        let problems = check(text).problems.map(\.description)
        #expect(problems.contains { $0.contains("screens.main.sections[0].items[3].id: \"nozzle\" is already the id of screens.main.sections[0].items[0].id") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[4].id: \" \" is not allowed") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[5].id: must start with a letter") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[6].value: needs an id") }, "\(problems)")
    }

    @Test func badValueTablesSayWhy() {
        let text = """
            [screens.main]
            style = "arc"

            [[screens.main.items]]
            id = "a"
            label = "A"
            action = "back"
            value = { command = "cat /proc/uptime", format = "%s" }

            [[screens.main.items]]
            id = "b"
            label = "B"
            action = "back"
            value = { every = 0 }

            [[screens.main.items]]
            id = "c"
            label = "C"
            action = "spawn"
            command = ["/bin/true"]
            toggle = { file = "/tmp/c", on = ["/bin/true"] }

            """
        let problems = check(text).problems.map(\.description)
        #expect(problems.contains { $0.contains("value.command: expected an array of strings (argv), got a string; write command = [\"cat\", \"/proc/uptime\"]") }, "\(problems)")
        #expect(problems.contains { $0.contains("value.format: \"%s\" %s is not a number conversion") }, "\(problems)")
        #expect(problems.contains { $0.contains("value.every: expected seconds from 0.05 to 86400, got 0") }, "\(problems)")
        #expect(problems.contains { $0.contains("value.command: missing: a value comes from command") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[2].action: a toggle item switches when activated") }, "\(problems)")
        #expect(problems.contains { $0.contains("toggle.off: missing") }, "\(problems)")
    }

    static let apiOnly = """
        [screens.main]
        style = "list"

        [[screens.main.sections]]
        [[screens.main.sections.items]]
        id = "queue"
        label = "Print queue {value}"
        action = "back"
        value = { api = true, unit = "jobs" }

        [[screens.main.sections.items]]
        id = "fresh"
        label = "Filament"
        action = "back"
        value = { api = true, stale_after = 30 }

        [[screens.main.sections.items]]
        id = "enclosure"
        label = "Enclosure fan"
        toggle = { api = true, on = ["/bin/true"], off = ["/bin/true"], timeout = 3 }

        """

    @Test func apiOnlyValuesDecodeAndNeverGoStaleUnlessTold() throws {
        let items = try config(Self.apiOnly).screens[0].items
        #expect(items[0].value?.origin == .api && items[0].value?.staleAfter == .infinity && items[0].value?.unit == "jobs")
        #expect(items[1].value?.staleAfter == 30)
        #expect(items[2].toggle?.state == .api && items[2].toggle?.timeout == 3)
        let values = LiveValues(try config(Self.apiOnly))
        // Before the first set: the placeholder, pending, and why.
        #expect(values.shownText("queue", now: 0) == "—" && values.state("queue", now: 0) == .pending)
        #expect(values.health(now: 0).first { $0.id == "queue" }?.why == "not set yet: only the control API sets it (api = true)")
        #expect(values.shownText("enclosure", now: 0) == "—")
        try values.set("queue", text: "3", now: 1)
        try values.set("fresh", text: "PLA", now: 1)
        try values.setToggle("enclosure", on: true, now: 1)
        // A year on, what was set is still ok; no frame is due for staleness.
        let later = 1 + 365 * 86400.0
        #expect(values.shownText("queue", now: later) == "3 jobs" && values.state("queue", now: later) == .ok)
        #expect(values.shownText("enclosure", now: later) == "● On")
        #expect(values.nextStale(among: ["queue", "enclosure"], now: 2) == nil)
        // `stale_after` given: it applies.
        #expect(values.nextStale(among: ["fresh"], now: 2) == 31.001)
        #expect(values.shownText("fresh", now: 31.01) == "⚠ PLA")
    }

    @Test func apiOnlyMixedWithAReadSourceIsRefused() {
        let text = """
            [screens.main]
            style = "list"

            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "a"
            label = "A"
            action = "back"
            value = { api = true, command = ["/bin/date"] }

            [[screens.main.sections.items]]
            id = "b"
            label = "B"
            action = "back"
            value = { api = true, every = 5, timeout = 2 }

            [[screens.main.sections.items]]
            id = "c"
            label = "C"
            toggle = { api = true, file = "/run/c", on = ["/bin/true"], off = ["/bin/true"] }

            [[screens.main.sections.items]]
            id = "f"
            label = "F"
            toggle = { api = true, on = ["/bin/true"], off = ["/bin/true"], every = 5 }

            [[screens.main.sections.items]]
            id = "d"
            label = "D"
            action = "back"
            value = { api = false }

            [[screens.main.sections.items]]
            id = "e"
            label = "E"
            action = "back"
            value = { api = "yes" }

            """
        let problems = check(text).problems.map(\.description)
        #expect(problems.contains { $0.contains("items[0].value.api: a value set through the control API (api = true) has no command: remove it or api = true") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[1].value.every: has no meaning with api = true: the value is never read") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[1].value.timeout: has no meaning with api = true") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[2].toggle.api: a toggle's state set through the control API (api = true) has no file") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[3].toggle.every: has no meaning with api = true") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[4].value.api: api = false means nothing") }, "\(problems)")
        #expect(problems.contains { $0.contains("items[5].value.api: expected true or false") }, "\(problems)")
        // Nothing called unknown: each key was understood and refused for its reason.
        #expect(!problems.contains { $0.contains("unknown") }, "\(problems)")
        #expect(problems.count == 7, "\(problems)")
    }

    // MARK: Format and readings

    @Test func formats() throws {
        #expect(try ValueFormat("%.1f").format(215.27) == "215.3")
        #expect(try ValueFormat("%d").format(41.6) == "42")
        #expect(try ValueFormat("%5.2f%%").format(3.14159) == " 3.14%")
        #expect(try ValueFormat("load %g").format(0.5) == "load 0.5")
        for bad in ["%s", "%n", "%.1f %d", "plain", "100%", "%.1", "%100d", "%.30f"] {
            #expect(throws: ValueFormatError.self, "\(bad)") { try ValueFormat(bad) }
        }
    }

    @Test func readingsAreParsedBoundedAndRefusedWhenNotText() throws {
        let number = ValueSource(origin: .file("/x"), format: try ValueFormat("%.1f"), unit: "°C")
        #expect(ValueReading.parse(Array("215.27\nmore lines\n".utf8), for: number) == .success("215.3 °C"))
        #expect(ValueReading.parse(Array("hot".utf8), for: number) == .failure(.notANumber("hot")))
        #expect(ValueReading.parse(Array("  \n".utf8), for: number) == .failure(.empty))
        let milli = ValueSource(origin: .file("/x"), scale: 0.001)
        #expect(ValueReading.parse(Array("45000\n".utf8), for: milli) == .success("45"))
        let text = ValueSource(origin: .file("/x"))
        #expect(ValueReading.parse([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00], for: text) == .failure(.binary))
        #expect(ValueReading.parse([0xff, 0xfe, 0x41], for: text) == .failure(.binary))
        // 10,000 characters: kept to the first 120, shortened with an ellipsis.
        guard case .success(let long) = ValueReading.parse(Array(String(repeating: "x", count: 10_000).utf8), for: text) else {
            Issue.record("a long line is a value")
            return
        }
        #expect(long.count == ValueReading.maxCharacters && long.hasSuffix("…"))
        #expect(ValueReading.toggleState(Array("ON\n".utf8)) == .success(true))
        #expect(ValueReading.toggleState(Array("0".utf8)) == .success(false))
        #expect(ValueReading.toggleState(Array("maybe".utf8)) == .failure(.notAState("maybe")))
        #expect(ValueReading.toggleState(exitStatus: 1) == .success(false))
        #expect(ValueReading.toggleState(exitStatus: 3) == .failure(.badExitStatus(3)))
    }

    @Test func labelsCarryTheirValue() {
        #expect(LiveLabel.compose("Nozzle {value} now", value: "215.3 °C") == "Nozzle \u{2068}215.3 °C\u{2069} now")
        #expect(LiveLabel.compose("Bed", value: "60 °C") == "Bed  \u{2068}60 °C\u{2069}")
        // What logs, the layout report and speech read: the text without the isolate marks.
        #expect(LiveLabel.plain(LiveLabel.compose("Bed", value: "60 °C")) == "Bed  60 °C")
        #expect(LiveLabel.splitAtValue("Bed") == nil)
        let split = LiveLabel.splitAtValue(LiveLabel.compose("Nozzle {value} now", value: "215 °C"))
        #expect(split?.before == "Nozzle" && split?.value == " \u{2068}215 °C\u{2069} now")
    }

    /// A label shows its value once: ten thousand placeholders would make every reading a
    /// megabyte of label, status file and MQTT message.
    @Test func aLabelWithMoreThanOnePlaceholderIsRefused() {
        let twice = Self.printer.replacing("label = \"Nozzle {value}\"", with: "label = \"Nozzle {value} / {value}\"")
        #expect(twice != Self.printer)
        let c = check(twice)
        #expect(!c.isValid)
        #expect(c.problems.map(\.description).contains { $0.contains("label: has {value} 2 times; a label shows its value once") }, "\(c.report)")
        let many = Self.printer.replacing("label = \"Nozzle {value}\"", with: "label = \"\(String(repeating: "{value}", count: 10_000))\"")
        #expect(check(many).problems.map(\.description).contains { $0.contains("has {value} 10000 times") })
    }

    // MARK: Staleness and toggles, time moved by hand

    @Test func aValueTurnsStaleThenRecovers() throws {
        let values = LiveValues(try config())
        #expect(values.state("nozzle", now: 0) == .pending && values.shownText("nozzle", now: 0) == "—")
        try values.set("nozzle", text: "215.27", now: 1)
        #expect(values.state("nozzle", now: 5) == .ok && values.shownText("nozzle", now: 5) == "215.3 °C")
        // stale_after = 10: at 11 it is still fresh, just after it is stale.
        #expect(values.state("nozzle", now: 11) == .ok)
        #expect(values.nextStale(among: ["nozzle"], now: 5) == 11.001)
        #expect(values.state("nozzle", now: 11.01) == .stale && values.shownText("nozzle", now: 11.01) == "⚠ 215.3 °C")
        let health = try #require(values.health(now: 12).first { $0.id == "nozzle" })
        #expect(health == ValueHealth(id: "nozzle", state: .stale, why: "no reading for more than 10 s", age: 11))
        // A failure keeps the last good text, marked, and says why.
        values.failed("nozzle", why: "timed out after 1 s (killed)", now: 12)
        #expect(values.state("nozzle", now: 12) == .failed && values.shownText("nozzle", now: 12) == "⚠ 215.3 °C")
        #expect(values.health(now: 12).first { $0.id == "nozzle" }?.why == "timed out after 1 s (killed)")
        try values.set("nozzle", text: "216", now: 13)
        #expect(values.state("nozzle", now: 13) == .ok && values.shownText("nozzle", now: 13) == "216.0 °C")
        #expect(throws: LiveValueError.unknownID("nope")) { try values.set("nope", text: "1", now: 13) }
        #expect(throws: LiveValueError.notAToggle("nozzle")) { try values.setToggle("nozzle", on: true, now: 13) }
    }

    @Test func aToggleIsBusyWhileSwitchingAndKeepsItsStateWhenASwitchFails() throws {
        let values = LiveValues(try config())
        #expect(values.shownText("lights", now: 0) == "—")
        try values.setToggle("lights", on: false, now: 0)
        #expect(values.shownText("lights", now: 0) == "○ Off")
        #expect(values.beginSwitch("lights", now: 1) == true)
        #expect(values.isSwitching("lights") && values.shownText("lights", now: 1) == "◌ On…")
        // A second press while it runs does nothing; a reading meanwhile does not override it.
        #expect(values.beginSwitch("lights", now: 1.5) == nil)
        try values.setToggle("lights", on: false, now: 1.6)
        #expect(values.shownText("lights", now: 1.6) == "◌ On…")
        #expect(values.switchEnded("lights", failure: nil, now: 2) == nil)
        #expect(values.shownText("lights", now: 2) == "● On")
        #expect(values.beginSwitch("lights", now: 3) == false)
        #expect(values.switchEnded("lights", failure: "exited with status 1", now: 4) == "could not switch off: exited with status 1")
        #expect(values.shownText("lights", now: 4) == "● On" && values.state("lights", now: 4) == .ok)
        // The state goes stale like a value: every 2 s, timeout 5 s, so after 3 * 2 + 5 s.
        #expect(values.state("lights", now: 2 + 11.01) == .stale && values.shownText("lights", now: 13.01) == "⚠ ● On")
    }

    @Test func aReloadKeepsReadingsOfUnchangedSources() throws {
        let c = try config()
        let values = LiveValues(c)
        try values.set("nozzle", text: "200", now: 0)
        values.configure(c)
        #expect(values.shownText("nozzle", now: 0) == "200.0 °C")
        var changed = c
        changed.screens[0].sections[0].items[0].value?.unit = "K"
        values.configure(changed)
        #expect(values.state("nozzle", now: 0) == .pending)
    }

    // MARK: The app

    @Test func theAppShowsValuesAndAsksForSwitches() throws {
        let app = try KioskApp(config: try config(), width: 800, height: 480, now: 0)
        #expect(app.shownValueIDs == ["nozzle", "bed", "lights"])
        #expect(app.currentScreen.config.items.map { LiveLabel.plain($0.label) } == ["Nozzle —", "Bed  —", "Lights  —"])
        try app.values.set("nozzle", text: "215.27", now: 0.1)
        try app.values.setToggle("lights", on: true, now: 0.1)
        _ = app.advance(now: 0.2)
        #expect(app.currentScreen.config.items.map { LiveLabel.plain($0.label) } == ["Nozzle 215.3 °C", "Bed  —", "Lights  ● On"])
        // The frame due when it turns stale.
        #expect(abs((app.nextDeadline ?? 0) - 10.101) < 1e-9)
        _ = app.advance(now: 10.2)
        #expect(LiveLabel.plain(app.currentScreen.config.items[0].label) == "Nozzle ⚠ 215.3 °C")

        try app.values.setToggle("lights", on: true, now: 10.5)
        app.currentScreen.select(2)
        app.handle(.command(.select, count: 1), now: 11)
        var switches: [Effect] = []
        for t in stride(from: 11.0, to: 12.0, by: 1.0 / 60) { switches += app.advance(now: t).filter { if case .switchToggle = $0 { true } else { false } } }
        #expect(switches == [.switchToggle(id: "lights", command: Command(argv: ["/bin/false"]), label: "Lights")])
        #expect(LiveLabel.plain(app.currentScreen.config.items[2].label) == "Lights  ◌ Off…")
        app.toggleSwitched("lights", label: "Lights", failure: "exited with status 1", now: 12)
        _ = app.advance(now: 12.1)
        #expect(app.bannerText == "Lights: could not switch off: exited with status 1")
        #expect(LiveLabel.plain(app.currentScreen.config.items[2].label) == "Lights  ● On")
    }

    /// A toggle Home Assistant switches needs no commands: a press asks the control API (an
    /// event, not a command), shows the switch running in the author's words, and ends when the
    /// state is set, or after its timeout with a banner and the old state kept. One of on/off
    /// alone is refused, saying why.
    @Test func anAPIToggleWithoutCommandsAsksTheAPI() throws {
        let text = """
            home = "main"
            [theme]
            toggle_on_label = "aan"
            toggle_off_label = "uit"
            [screens.main]
            style = "list"
            [[screens.main.sections]]
            [[screens.main.sections.items]]
            id = "garage"
            label = "Garagedeur"
            toggle = { api = true, timeout = 3 }

            """
        let app = try KioskApp(config: try config(text), width: 800, height: 480, now: 0)
        try app.values.setToggle("garage", on: false, now: 0)
        _ = app.advance(now: 0.5)
        #expect(LiveLabel.plain(app.currentScreen.config.items[0].label) == "Garagedeur  ○ uit")
        app.handle(.command(.select, count: 1), now: 1)
        var events: [Effect] = []
        for t in stride(from: 1.0, to: 1.5, by: 1.0 / 60) { events += app.advance(now: t) }
        #expect(events.contains(.event(.toggleRequested(id: "garage", on: true))), "\(events)")
        #expect(!events.contains { if case .switchToggle = $0 { true } else { false } })
        _ = app.advance(now: 2)
        #expect(LiveLabel.plain(app.currentScreen.config.items[0].label) == "Garagedeur  ◌ aan…")
        // The answer: the state is set.
        try app.values.setToggle("garage", on: true, now: 2.5)
        _ = app.advance(now: 3)
        #expect(LiveLabel.plain(app.currentScreen.config.items[0].label) == "Garagedeur  ● aan" && !app.values.isSwitching("garage"))
        // No answer: the switch ends after its timeout, the old state kept, a banner says so.
        app.handle(.command(.select, count: 1), now: 4)
        _ = app.advance(now: 4.1)
        #expect(app.values.isSwitching("garage"))
        #expect(abs((app.nextDeadline ?? 0) - 7.1) < 0.2, "\(String(describing: app.nextDeadline))")
        _ = app.advance(now: 7.2)
        #expect(!app.values.isSwitching("garage"))
        #expect(app.bannerText == "Garagedeur: could not switch off: no answer from the control API in 3 s", "\(String(describing: app.bannerText))")
        _ = app.advance(now: 7.3)
        #expect(LiveLabel.plain(app.currentScreen.config.items[0].label) == "Garagedeur  ● aan")

        let half = check(text.replacing("toggle = { api = true, timeout = 3 }", with: "toggle = { api = true, on = [\"/bin/true\"] }"))
        #expect(half.config == nil && half.report.contains("give both on and off, or neither"), "\(half.report)")
        let read = check(text.replacing("toggle = { api = true, timeout = 3 }", with: "toggle = { state = [\"/bin/true\"] }"))
        #expect(read.config == nil && read.report.contains("the command that switches it on"), "\(read.report)")
    }

    @Test func aTitleCarriesAValue() throws {
        let text = Self.printer.replacing("title = \"Printer\"\n", with: """
            title = "Printer {value}"
            id = "job"
            value = { file = "/run/printer/job" }

            """)
        let c = try config(text)
        let app = try KioskApp(config: c, width: 800, height: 480, now: 0)
        #expect(app.shownValueIDs.first == "job")
        #expect(app.currentScreen.config.title.map(LiveLabel.plain) == "Printer —")
        try app.values.set("job", text: "benchy.gcode 42%", now: 0)
        _ = app.advance(now: 0.5)
        #expect(app.currentScreen.config.title.map(LiveLabel.plain) == "Printer benchy.gcode 42%")
        // Its id shares the items' namespace; a value needs one.
        let clash = check(text.replacing("id = \"job\"", with: "id = \"nozzle\"")).problems.map(\.description)
        #expect(clash.contains { $0.contains("screens.main.sections[0].items[0].id: \"nozzle\" is already the id of screens.main.id") }, "\(clash)")
        let missing = check(text.replacing("id = \"job\"\n", with: "")).problems.map(\.description)
        #expect(missing.contains { $0.contains("screens.main.value: needs an id") }, "\(missing)")
    }

    // MARK: Goldens

    /// A value, a stale value, a toggle on and off, and a long label with its value, drawn as the
    /// kiosk draws them, landscape and portrait.
    @Test(arguments: [(800, 480), (480, 800)]) func valuesAndTogglesAsDrawn(size: (Int, Int)) throws {
        let text = """
            home = "main"

            [screens.main]
            style = "list"
            title = "Workshop"

            [[screens.main.sections]]
            title = "Printer"

            [[screens.main.sections.items]]
            id = "nozzle"
            label = "Nozzle {value}"
            action = "back"
            value = { command = ["/bin/true"], format = "%.1f", unit = "°C" }

            [[screens.main.sections.items]]
            id = "bed"
            label = "Bed"
            action = "back"
            value = { file = "/tmp/bed", unit = "°C" }

            [[screens.main.sections.items]]
            id = "enclosure"
            label = "Temperature inside the enclosure of the second printer {value}"
            action = "back"
            value = { file = "/tmp/enclosure", unit = "°C" }

            [[screens.main.sections]]
            title = "Switches"

            [[screens.main.sections.items]]
            id = "lights"
            label = "Workshop lights"
            toggle = { file = "/tmp/lights", on = ["/bin/true"], off = ["/bin/true"] }

            [[screens.main.sections.items]]
            id = "fan"
            label = "Extractor fan"
            toggle = { file = "/tmp/fan", on = ["/bin/true"], off = ["/bin/true"] }

            """
        let app = try KioskApp(config: try config(text), width: size.0, height: size.1, now: 0)
        try app.values.set("nozzle", text: "215.27", now: 0)
        try app.values.set("bed", text: "60", now: 0)
        app.values.failed("bed", why: "timed out", now: 0)
        try app.values.set("enclosure", text: "31.5", now: 0)
        try app.values.setToggle("lights", on: true, now: 0)
        try app.values.setToggle("fan", on: false, now: 0)
        _ = app.advance(now: 0.5)
        let frame = try PixelBuffer(width: size.0, height: size.1)
        _ = app.draw(on: Canvas(frame), full: true)
        try goldens.expectMatches(frame, "live-values-\(size.0)x\(size.1)")
    }
}
