@testable import InputSources
@testable import KioskConfiguration
@testable import KioskSystem
import Testing
@testable import Kiosk

/// Each class of error a config author can make gives a message that names the place (line:column
/// or key path, with the line when it can be found) and says what was expected.
@Suite struct ConfigErrorTests {
    func check(_ fixture: String) -> ConfigCheck {
        ConfigReader(path: ConfigPaths.fixture(fixture), displayName: fixture, searchPath: "/usr/bin:/bin").check()
    }

    func expectProblems(_ check: ConfigCheck, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!check.isValid, sourceLocation: sourceLocation)
        #expect(check.problems.map(\.description) == expected, "got:\n\(check.report)", sourceLocation: sourceLocation)
    }

    @Test func syntaxErrorHasLineAndColumn() throws {
        let c = check("syntax-error.toml")
        let problem = try #require(c.problems.first)
        #expect(c.problems.count == 1)
        // At the opening quote of the string that never closes.
        #expect(problem.location.line == 5 && problem.location.column == 9)
        #expect(problem.description == "syntax-error.toml:5:9: TOML syntax error: unterminated string: no closing `\"` on this line", "\(problem)")
    }

    @Test func wrongTypesNameKeyPathAndWhatWasExpected() {
        expectProblems(check("wrong-types.toml"), [
            #"wrong-types.toml:2:16: idle_timeout: expected a number, got a string ("five minutes")"#,
            #"wrong-types.toml:5:12: display.rotation: expected 0, 90, 180 or 270, got 45"#,
            #"wrong-types.toml:6:8: display.mode: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ ("800x480", "1920x1080@60"), got "huge""#,
            #"wrong-types.toml:9:8: background.cell: expected an integer, got a float (2.5)"#,
            ##"wrong-types.toml:10:14: background.foreground: expected a colour "#rrggbb" or "#rrggbbaa", got "red""##,
            #"wrong-types.toml:14:8: screens.main.wrap: expected true or false, got a string ("yes")"#,
            #"wrong-types.toml:21:9: screens.main.items[1].label: expected a string, got an integer (42)"#,
            #"wrong-types.toml:27:11: screens.main.items[2].command: expected an array of strings (argv), got a string; write command = ["/usr/bin/sleep", "3"]: commands never go through a shell"#,
            #"wrong-types.toml:32:30: screens.main.items[3].command[1]: expected a string, got an integer (3)"#,
        ])
    }

    @Test func unknownKeysAreErrorsWithSuggestions() {
        expectProblems(check("unknown-keys.toml"), [
            #"unknown-keys.toml:4:1: theme.text_szie: unknown key (did you mean "text_size"?)"#,
            #"unknown-keys.toml:8:1: screens.main.slot: unknown key (did you mean "slots"?)"#,
            #"unknown-keys.toml:9:1: screens.main.colour: unknown key (known here: style, title, id, value, background, direction, pin_hash, slots, radius, pointer, wrap, items)"#,
            #"unknown-keys.toml:11: screens.main.items[0].action: missing: expected one of "screen", "exec", "spawn", "back", "reload", "poweroff", "reboot""#,
            #"unknown-keys.toml:13:1: screens.main.items[0].acton: unknown key (did you mean "action"?)"#,
        ])
    }

    @Test func referencesCommandsIconsAndRangesAreAllReported() {
        let dir = ConfigPaths.fixtures
        expectProblems(check("references.toml"), [
            #"references.toml:1:8: home: no screen named "mian" (did you mean "main"?); screens: main, settings, orphan"#,
            #"references.toml:9:10: screens.main.items[0].screen: no screen named "setings" (did you mean "settings"?); screens: main, settings, orphan"#,
            #"references.toml:14:12: screens.main.items[1].command[0]: "kiosk-no-such-program-anywhere" is not found in PATH (/usr/bin:/bin); give an absolute path or install it"#,
            #"references.toml:19:12: screens.main.items[2].command[0]: "/usr/bin/nonexistent" does not exist"#,
            #"references.toml:24:12: screens.main.items[3].command[0]: "\#(dir)/not-executable.sh" is not executable"#,
            #"references.toml:28:8: screens.main.items[4].icon: "\#(dir)/not-a-png.png" cannot be loaded as a PNG: PNG(\#(dir)/not-a-png.png) failed: not a PNG file (no PNG signature)"#,
            #"references.toml:38:9: screens.settings.sections[0].items[0].label: empty: every item needs a label"#,
            #"references.toml:43:9: screens.orphan.slots: 100 is out of range 1...64"#,
        ])
    }

    @Test func missingFontBadImageAndRange() {
        let dir = ConfigPaths.fixtures
        expectProblems(check("missing-font.toml"), [
            #"missing-font.toml:2:8: theme.font: "\#(dir)/fonts/missing.ttf" does not exist"#,
            #"missing-font.toml:6:9: background.image: "\#(dir)/not-a-png.png" cannot be loaded as a PNG: PNG(\#(dir)/not-a-png.png) failed: not a PNG file (no PNG signature)"#,
            #"missing-font.toml:10:11: screens.main.columns: 9 is out of range 1...8"#,
        ])
    }

    @Test func fileThatIsNotAFontIsReported() throws {
        let scratch = ScratchDirectory()
        scratch.write("fake.ttf", "not a font")
        let path = scratch.write("kiosk.toml", minimalConfig("[theme]\nfont = \"fake.ttf\"\n"))
        let c = ConfigReader(path: path, displayName: "kiosk.toml").check()
        let problem = try #require(c.problems.first)
        #expect(c.problems.count == 1 && !c.isValid)
        #expect(problem.description.hasPrefix(#"kiosk.toml:8:8: theme.font: "\#(scratch.path)/fake.ttf" cannot be loaded as a font: "#), "\(problem)")
    }

    @Test func unreachableScreenIsOnlyAWarning() throws {
        let text = "home = \"main\"\n" + minimalConfig("""
        [screens.spare]
        style = "dial"

        [[screens.spare.items]]
        label = "Back"
        action = "back"
        """)
        let scratch = ScratchDirectory()
        let c = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml").check()
        #expect(c.isValid)
        #expect(c.problems.map(\.description) == [
            #"kiosk.toml:8:1: screens.spare: warning: screen "spare" cannot be reached from home "main" (no item opens it)"#,
        ])
    }

    /// `kiosk render` and the runtime log each problem at its own level: an error as `error`, a
    /// warning as `warning` (once: the level word is not repeated inside the message).
    @Test func problemsAreLoggedAtTheirOwnLevel() throws {
        let text = "home = \"main\"\n" + minimalConfig("""
        [screens.spare]
        style = "dial"

        [[screens.spare.items]]
        label = "Nowhere"
        action = "screen"
        screen = "missing"
        """)
        let scratch = ScratchDirectory()
        let c = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml").check()
        #expect(!c.isValid)
        let error = try #require(c.problems.errors.first)
        let warning = try #require(c.problems.warnings.first)
        #expect(error.logLevel == .error && warning.logLevel == .warning)
        #expect(Log.line(error.logLevel, error.locatedMessage, journal: false)
                == #"kiosk: error: kiosk.toml:14:10: screens.spare.items[0].screen: no screen named "missing"; screens: main, spare"# + "\n")
        #expect(Log.line(warning.logLevel, warning.locatedMessage, journal: false)
                == #"kiosk: warning: kiosk.toml:8:1: screens.spare: screen "spare" cannot be reached from home "main" (no item opens it)"# + "\n")
        #expect(Log.line(error.logLevel, error.locatedMessage, journal: true).hasPrefix("<3>kiosk.toml:14:10: "))
        #expect(Log.line(warning.logLevel, warning.locatedMessage, journal: true).hasPrefix("<4>kiosk.toml:8:1: "))
        // check-config's own listing keeps its format: the severity in the message.
        #expect(warning.description.hasPrefix("kiosk.toml:8:1: screens.spare: warning: screen"))
    }

    /// A screen whose item opens that same screen: a warning at the item (line and key path), so
    /// a screen that only opens itself no longer passes silently; the config still loads.
    @Test func screenThatOpensItselfIsAWarning() throws {
        let text = """
        home = "main"

        [screens.main]
        style = "arc"

        [[screens.main.items]]
        label = "Again"
        action = "screen"
        screen = "main"

        [screens.other]
        style = "list"

        [[screens.other.sections]]
        title = "S"

        [[screens.other.sections.items]]
        label = "Other again"
        action = "screen"
        screen = "other"
        """
        let scratch = ScratchDirectory()
        let c = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml").check()
        #expect(c.isValid)
        #expect(c.problems.map(\.description) == [
            #"kiosk.toml:9:10: screens.main.items[0].screen: warning: opens the screen it is on ("main"): each press stacks another copy of it; name another screen, or use action = "back""#,
            #"kiosk.toml:11:1: screens.other: warning: screen "other" cannot be reached from home "main" (no item opens it)"#,
            #"kiosk.toml:20:10: screens.other.sections[0].items[0].screen: warning: opens the screen it is on ("other"): each press stacks another copy of it; name another screen, or use action = "back""#,
        ], "got:\n\(c.report)")
        // An item that opens another screen, or goes back, is not warned about.
        let fine = ConfigReader(path: scratch.write("fine.toml", "home = \"main\"\n" + minimalConfig()), displayName: "fine.toml").check()
        #expect(fine.problems.isEmpty, "\(fine.report)")
    }

    @Test func everyStructuralOmissionIsNamed() {
        let scratch = ScratchDirectory()
        let text = """
        [screens.a]
        style = "arc"

        [[screens.a.items]]
        action = "screen"

        [[screens.a.items]]
        label = "x"
        action = "exec"

        [screens.b]
        style = "list"

        [screens.c]
        title = "no style"
        """
        let c = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml").check()
        #expect(c.problems.map(\.description) == [
            #"kiosk.toml:4: screens.a.items[0].label: missing: every item needs a label"#,
            #"kiosk.toml:4: screens.a.items[0].screen: missing: action "screen" needs screen = "NAME""#,
            #"kiosk.toml:7: screens.a.items[1].command: missing: exec and spawn need command = ["/path/to/program", "arg"]"#,
            #"kiosk.toml:11: screens.b.sections: missing: a list screen needs [[screens.b.sections]] with items"#,
            #"kiosk.toml:14: screens.c.style: missing: expected "arc", "dial" or "list""#,
            #"kiosk.toml: home: missing: with several screens, name the first one (home = "a")"#,
        ], "got:\n\(c.report)")
    }

    @Test func argvOnlyUsedWithProgramActions() {
        let scratch = ScratchDirectory()
        let text = """
        [screens.main]
        style = "arc"

        [[screens.main.items]]
        label = "Back"
        action = "back"
        command = ["/usr/bin/true"]
        screen = "main"
        """
        let c = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml").check()
        #expect(c.problems.map(\.description) == [
            #"kiosk.toml:7:11: screens.main.items[0].command: only used with action = "exec" or "spawn""#,
            #"kiosk.toml:8:10: screens.main.items[0].screen: only used with action = "screen""#,
        ], "got:\n\(c.report)")
    }

    /// `touch_output` was once documented but never used: a config that sets it is refused, saying why.
    @Test func touchOutputIsRefusedAsUnsupported() {
        let scratch = ScratchDirectory()
        let text = minimalConfig("[input]\ntouch_output = \"HDMI-A-1\"\n")
        let c = ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").check()
        #expect(!c.isValid)
        #expect(c.problems.map(\.description) == [
            "k.toml:8:16: input.touch_output: not supported; the kiosk maps every touchscreen to its one display — remove the key",
        ], "got:\n\(c.report)")
    }
}

@Suite struct ConfigStyleKeyTests {
    @Test func keysOfAnotherStyleSaySo() {
        let scratch = ScratchDirectory()
        let text = """
        [screens.main]
        style = "list"
        slots = 6
        wrap = true

        [[screens.main.items]]
        label = "x"
        action = "back"
        """
        let c = ConfigReader(path: scratch.write("kiosk.toml", text), displayName: "kiosk.toml").check()
        #expect(c.problems.map(\.description) == [
            #"kiosk.toml:1: screens.main.sections: missing: a list screen needs [[screens.main.sections]] with items"#,
            #"kiosk.toml:3:9: screens.main.slots: only used with style = "dial"; this screen is "list""#,
            #"kiosk.toml:4:8: screens.main.wrap: only used with style = "arc" or "dial"; this screen is "list""#,
            #"kiosk.toml:6:1: screens.main.items: only used with style = "arc" or "dial"; this screen is "list""#,
        ], "got:\n\(c.report)")
    }
}

@Suite struct ConfigRangeTests {
    @Test func rangesReadLikeTheConfig() {
        let scratch = ScratchDirectory()
        let text = """
        [theme]
        row_opacity = 2
        text_size = 0

        [screens.main]
        style = "arc"
        radius_ratio = -1
        row_length = 1.5

        [[screens.main.items]]
        label = "x"
        action = "back"
        """
        let c = ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").check()
        #expect(c.problems.map(\.description) == [
            "k.toml:2:15: theme.row_opacity: 2 is out of range 0...1",
            "k.toml:3:13: theme.text_size: 0 is out of range: expected more than 0 and at most 1",
            "k.toml:7:16: screens.main.radius_ratio: -1 is out of range: expected more than 0 and at most 10",
            "k.toml:8:14: screens.main.row_length: 1.5 is out of range: expected more than 0 and at most 1",
        ], "got:\n\(c.report)")
    }

    /// Every bound, each in one place (`ConfigValidator`), on one file that otherwise decodes: all
    /// are listed together, each at its value. (Negative seconds and knob_direction were once
    /// refused by the decoder, with these same messages at these same places.)
    @Test func everyBoundIsReportedAtItsValue() {
        let c = ConfigReader(path: ConfigPaths.fixture("ranges.toml"), displayName: "ranges.toml").check()
        #expect(!c.isValid)
        #expect(c.problems.map(\.description) == [
            #"ranges.toml:4:16: idle_timeout: expected seconds >= 0 (0 means never), got -5.0"#,
            #"ranges.toml:7:8: background.cell: 1 is out of range 2...512"#,
            #"ranges.toml:8:14: background.line_width: 0 is out of range: expected more than 0 and at most 64"#,
            #"ranges.toml:11:13: theme.text_size: 1.5 is out of range: expected more than 0 and at most 1"#,
            #"ranges.toml:12:14: theme.title_size: 0.75 is out of range: expected more than 0 and at most 0.5"#,
            #"ranges.toml:13:15: theme.row_opacity: -0.5 is out of range 0...1"#,
            #"ranges.toml:14:17: theme.corner_radius: 0.6 is out of range 0...0.5"#,
            #"ranges.toml:15:19: theme.highlight_width: 33 is out of range 0...32"#,
            #"ranges.toml:18:8: input.seat: empty: expected a seat name such as "seat0""#,
            #"ranges.toml:19:18: input.knob_direction: expected 1 or -1, got 2"#,
            #"ranges.toml:20:20: input.detents_per_item: 0 is out of range 1...100"#,
            #"ranges.toml:23:13: power.dim_after: expected seconds >= 0 (0 means never), got -1.0"#,
            #"ranges.toml:24:15: power.blank_after: 700000 is out of range 0...604800"#,
            #"ranges.toml:25:13: power.dim_level: 0 is out of range: expected more than 0 and at most 1"#,
            #"ranges.toml:29:16: screens.main.radius_ratio: 11 is out of range: expected more than 0 and at most 10"#,
            #"ranges.toml:30:16: screens.main.translation[0]: 10001 is out of range -10000...10000"#,
            #"ranges.toml:30:23: screens.main.translation[1]: -10001 is out of range -10000...10000"#,
            #"ranges.toml:31:16: screens.main.rows_visible: 0 is out of range: expected more than 0 and at most 100"#,
            #"ranges.toml:32:14: screens.main.row_length: 0 is out of range: expected more than 0 and at most 1"#,
            #"ranges.toml:33:17: screens.main.row_thickness: 1.5 is out of range: expected more than 0 and at most 1"#,
            #"ranges.toml:34:9: screens.main.inset: 1081 is out of range -1080...1080"#,
            #"ranges.toml:37:8: screens.main.background.cell: 513 is out of range 2...512"#,
            #"ranges.toml:38:14: screens.main.background.line_width: 65 is out of range: expected more than 0 and at most 64"#,
            #"ranges.toml:52:9: screens.dial.slots: 0 is out of range 1...64"#,
            #"ranges.toml:53:10: screens.dial.radius: 0.6 is out of range: expected more than 0 and at most 0.5"#,
            #"ranges.toml:54:11: screens.dial.pointer: 361 is out of range -360...360"#,
            #"ranges.toml:62:11: screens.list.columns: 0 is out of range 1...8"#,
            #"ranges.toml:63:14: screens.list.row_height: 1.5 is out of range: expected more than 0 and at most 1"#,
        ], "got:\n\(c.report)")
    }

    @Test func idleTimeoutIsAtMostAWeek() {
        let scratch = ScratchDirectory()
        let c = ConfigReader(path: scratch.write("k.toml", "idle_timeout = 1e308\n" + minimalConfig()), displayName: "k.toml").check()
        #expect(c.problems.map(\.description) == ["k.toml:1:16: idle_timeout: 1e+308 is out of range 0...604800"])
    }
}

@Suite struct ConfigKeyBindingTests {
    @Test func unknownAndDoublyBoundKeysAreErrors() throws {
        let scratch = ScratchDirectory()
        let text = minimalConfig("""
        [input.keys]
        next = ["KEY_DOWN", "KEY_VOLUMEUPP"]
        select = ["KEY_ENTER", "KEY_DOWN"]
        back = ["Escape"]
        """)
        let c = ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").check()
        #expect(c.problems.map(\.description) == [
            #"k.toml:10:9: input.keys.back[0]: expected an evdev key name such as "KEY_ENTER" or "BTN_0", got "Escape""#,
        ], "a name that is not even shaped like one is a decoding error")
        let fixed = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("back") }.joined(separator: "\n")
        let d = ConfigReader(path: scratch.write("k.toml", fixed), displayName: "k.toml").check()
        #expect(d.problems.map(\.description) == [
            #"k.toml:8:21: input.keys.next[1]: KEY_VOLUMEUPP is not a key the kiosk reads (did you mean "KEY_VOLUMEUP"?)"#,
            #"k.toml:9:24: input.keys.select[1]: KEY_DOWN is already bound to next"#,
        ], "got:\n\(d.report)")
    }

    @Test func everyDefaultKeyIsOneTheKioskReads() {
        let keys = KeyBindings()
        for name in keys.next + keys.previous + keys.select + keys.back {
            #expect(KeyCode.byName[name] != nil, "\(name)")
        }
    }

    /// The config's defaults name exactly the keys of `KeyMapping.standard` (none lost for want of a name).
    @Test func defaultKeyBindingsAreTheStandardMapping() {
        #expect(KeyBindings().mapping == KeyMapping.standard)
    }
}
