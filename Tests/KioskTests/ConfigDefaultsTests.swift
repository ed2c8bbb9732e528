@testable import KioskConfiguration
import Raster
import Text
import Testing
import TOML
@testable import Kiosk

/// Defaults: what a minimal file means, and that the documented defaults are the real ones.
@Suite struct ConfigDefaultsTests {
    @Test func minimalConfigIsOneScreenWithDefaults() throws {
        let check = ConfigReader(path: ConfigPaths.fixture("minimal.toml")).check()
        #expect(check.problems.isEmpty, "\(check.report)")
        let config = try #require(check.config)
        let expected = KioskConfig(home: "main", screens: [
            ScreenConfig(name: "main", layout: .arc(ArcStyle()), sections: [MenuSection(items: [MenuItem(label: "Hello", action: .back)])]),
        ])
        #expect(config == expected)
        #expect(config.idleTimeout == nil && config.input.seat == "seat0" && config.theme.font == Font.dejaVuSansPath)
    }

    @Test func explicitDefaultsDecodeLikeAbsentOnes() throws {
        let minimal = try #require(ConfigReader(path: ConfigPaths.fixture("minimal.toml")).check().config)
        let check = ConfigReader(path: ConfigPaths.fixture("all-defaults.toml")).check()
        #expect(check.problems.isEmpty, "\(check.report)")
        #expect(check.config == minimal)
    }

    @Test func oneChangedValueIsNotADefault() throws {
        let scratch = ScratchDirectory()
        let config = try #require(ConfigReader(path: scratch.write("k.toml", minimalConfig("[background]\ncell = 33\n"))).check().config)
        #expect(config.background != BackgroundConfig())
        #expect(config.background.cell == 33)
        #expect(config.screens[0].background.cell == 33, "screens inherit the global background")
    }

    @Test func rescueConfigShowsTheErrorsAndValidates() throws {
        let problems = ConfigReader(path: ConfigPaths.fixture("wrong-types.toml"), displayName: "kiosk.toml").check().problems
        let rescue = KioskConfig.rescue(problems: problems)
        #expect(rescue.home == "rescue" && rescue.screens.count == 1)
        let labels = rescue.screens[0].sections[0].items.map(\.label)
        #expect(labels.count == 7)
        #expect(labels[0] == #"kiosk.toml:2:16: idle_timeout: expected a number, got a string ("five minutes")"#)
        #expect(labels[6] == "… and 3 more (kiosk check-config FILE lists all)")
        #expect(rescue.screens[0].items.last?.action == .reload)
        // The rescue config itself passes the validator (on a machine with the default font).
        #expect(ConfigValidator(file: "rescue").validate(rescue).isEmpty)
    }

    @Test func rescueWithoutProblemsStillSaysSomething() {
        let rescue = KioskConfig.rescue(problems: [])
        #expect(rescue.screens[0].sections[0].items.map(\.label) == ["no configuration could be loaded"])
    }
}

/// The small value formats and helpers the decoder relies on.
@Suite struct ConfigValueTests {
    @Test func colours() {
        #expect(ConfigValues.color("#5fa8ff") == Color(red: 0x5F, green: 0xA8, blue: 0xFF))
        #expect(ConfigValues.color("#5FA8FF80") == Color(red: 0x5F, green: 0xA8, blue: 0xFF, alpha: 0x80))
        for bad in ["5fa8ff", "#5fa8f", "#5fa8fg", "#5fa8ff8", "", "#", "red", "#ＦＦＦＦＦＦ"] {
            #expect(ConfigValues.color(bad) == nil, "\(bad)")
        }
        for c in [Color.black, Color(rgb: 0x0A0B0C), Color(red: 1, green: 2, blue: 3, alpha: 4)] {
            #expect(ConfigValues.color(ConfigValues.hex(c)) == c)
        }
    }

    @Test func relativePathsResolveAgainstTheConfigDirectory() {
        #expect(ConfigValues.resolve("icons/a.png", against: "/etc/kiosk") == "/etc/kiosk/icons/a.png")
        #expect(ConfigValues.resolve("./a/../b/./c.png", against: "/etc/kiosk") == "/etc/kiosk/b/c.png")
        #expect(ConfigValues.resolve("../../../x", against: "/etc/kiosk") == "/x")
        #expect(ConfigValues.resolve("/usr/bin/true", against: "/etc/kiosk") == "/usr/bin/true")
        #expect(ConfigReader.directory(of: "/etc/kiosk/kiosk.toml") == "/etc/kiosk")
        #expect(ConfigReader.directory(of: "/kiosk.toml") == "/")
    }

    @Test func keyNames() {
        for good in ["KEY_ENTER", "BTN_0", "KEY_F12", "KEY_VOLUMEUP"] { #expect(ConfigValues.isKeyName(good)) }
        for bad in ["ENTER", "key_enter", "KEY_", "KEY_ENTER ", "REL_DIAL"] { #expect(!ConfigValues.isKeyName(bad)) }
    }

    @Test func keyPathsReadAsTOML() {
        let path = ConfigKeyPath([.key("screens"), .key("main"), .key("items"), .index(3), .key("command")])
        #expect(path.description == "screens.main.items[3].command")
        #expect(ConfigKeyPath([.key("screens"), .key("my screen"), .key("a\"b")]).description == #"screens."my screen"."a\"b""#)
        #expect(ConfigKeyPath([.key("x\ny")]).description == #""x\ny""#)
    }

    @Test func problemsPrintOnOneLine() {
        let p = ConfigProblem(.warning, file: "k.toml", at: ConfigLocation(line: 3, keyPath: "screens.a"), "two\nlines")
        #expect(p.description == #"k.toml:3: screens.a: warning: two\nlines"#)
        let q = ConfigProblem(.error, file: "k.toml", at: ConfigLocation(line: 3, column: 9), "bad")
        #expect(q.description == "k.toml:3:9: bad")
        #expect(ConfigProblem(.error, file: "k.toml", at: ConfigLocation(), "empty").description == "k.toml: empty")
    }

    @Test func suggestionsCountASwapAsOneEdit() {
        #expect(editDistance("mian", "main", limit: 3) == 1)
        #expect(editDistance("text_szie", "text_size", limit: 3) == 1)
        #expect(editDistance("kitten", "sitting", limit: 5) == 3)
        #expect(editDistance("abc", "abcdefgh", limit: 2) == 3, "gives up past the limit")
        #expect(didYouMean("colour", among: ["style", "title"]) == "")
        #expect(didYouMean("radius_ration", among: ["radius", "radius_ratio"]) == #" (did you mean "radius_ratio"?)"#)
    }

    @Test func sourceLocatorFindsNestedArraysOfTables() throws {
        let text = """
        [screens.s]
        style = "list"
        [[screens.s.sections]]
        title = "A"
        [[screens.s.sections.items]]
        label = "a0"
        [[screens.s.sections]]
        title = "B"
        [[screens.s.sections.items]]
        label = "b0"
        [[screens.s.sections.items]]
        label = "b1"
          "quoted key" . inner = 1
        inline = { x = 1 }
        """
        let locator = SourceLocator(root: try TOMLTable(parsing: text))
        let items = ConfigKeyPath([.key("screens"), .key("s"), .key("sections"), .index(1), .key("items")])
        #expect(locator.location(of: items.appending(index: 1).appending("label")) == ConfigLocation(line: 12, column: 9, keyPath: items.appending(index: 1).appending("label")))
        #expect(locator.line(of: items.appending(index: 0)) == 9)
        #expect(locator.location(of: items.appending(index: 1).appending("quoted key").appending("inner")).description == #"13:26: screens.s.sections[1].items[1]."quoted key".inner"#)
        #expect(locator.location(of: items.appending(index: 1).appending("inline").appending("x")).description == "14:16: screens.s.sections[1].items[1].inline.x", "keys inside inline tables have their own positions")
        #expect(locator.location(of: items.appending(index: 1).appending("missing")).description == "11: screens.s.sections[1].items[1].missing", "a missing key is at its table's line")
        #expect(locator.line(of: ConfigKeyPath([.key("screens"), .key("s"), .key("sections"), .index(0), .key("title")])) == 4)
        #expect(locator.line(of: "nowhere") == nil)
    }
}

/// Reloading: identical bytes are not parsed again, but are validated again.
@Suite struct ConfigReaderTests {
    @Test func identicalTextIsParsedOnceAndValidatedEveryTime() throws {
        let scratch = ScratchDirectory()
        let path = scratch.write("kiosk.toml", minimalConfig("[theme]\nfont = \"font.ttf\"\n"))
        let checker = ConfigReader(path: path, displayName: "kiosk.toml")
        let first = checker.check()
        #expect(first.problems.map(\.description) == [#"kiosk.toml:8:8: theme.font: "\#(scratch.path)/font.ttf" does not exist"#])
        // The font appears (a copy of DejaVu): same text, now valid, still parsed once.
        scratch.write("font.ttf", bytes: readBytes("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        let second = checker.check()
        #expect(second.isValid, "\(second.report)")
        #expect(checker.parseCount == 1)
        // A changed file is parsed again.
        scratch.write("kiosk.toml", minimalConfig("[theme]\nfont = \"font.ttf\"\ntext_size = 0.5\n"))
        let third = checker.check()
        #expect(third.config?.theme.textSize == 0.5)
        #expect(checker.parseCount == 2)
        // A file that became unreadable is reported, and the next good one is parsed again.
        scratch.write("kiosk.toml", bytes: [])
        #expect(checker.check().problems.map(\.description) == ["kiosk.toml: file is empty; a config needs at least one screen with one item"])
        scratch.write("kiosk.toml", minimalConfig("[theme]\nfont = \"font.ttf\"\ntext_size = 0.5\n"))
        #expect(checker.check().isValid)
        #expect(checker.parseCount == 2, "same text as the last parse")
    }
}
