import Geometry
@testable import KioskConfiguration
import LayoutCore
import MenuScreens
import Raster
import Testing
@testable import Kiosk

/// `theme.preset`, overrides key by key, and the contrast check-config warns about.
@Suite struct ThemeTests {
    let scratch = ScratchDirectory()

    func check(_ text: String) -> ConfigCheck {
        ConfigReader(path: scratch.write("k.toml", minimalConfig(text)), displayName: "k.toml").check()
    }

    @Test(arguments: ThemePreset.allCases)
    func everyPresetReachesAAOnItsOwnBackground(preset: ThemePreset) {
        let contrast = ThemeContrast(theme: ThemeConfig(preset: preset), background: BackgroundConfig(preset: preset))
        #expect(contrast.pairs.count == 5)
        for pair in contrast.pairs { #expect(pair.ratio >= ThemeContrast.minimum, "\(preset) \(pair.text) on \(pair.ground)") }
        // A config that picks a pattern but no colours gets the preset's quiet pattern colours: still AA.
        for pattern in [BackgroundPattern.checker, .cross, .circles] {
            let patterned = ThemeContrast(theme: ThemeConfig(preset: preset), background: BackgroundConfig(preset: preset, pattern: pattern))
            #expect(patterned.failing.isEmpty, "\(preset) over \(pattern): \(patterned.failing)")
        }
    }

    @Test func presetGivesEveryColourAndTheBackgroundAndKeysOverrideOne() throws {
        let config = try #require(check("""
            [theme]
            preset = "light"
            selected_row = "#0b5394"
            """).config)
        var expected = ThemeConfig(preset: .light)
        expected.selectedRow = Color(rgb: 0x0B5394)
        #expect(config.theme == expected)
        #expect(config.background == BackgroundConfig(preset: .light))
        #expect(config.screens[0].background == BackgroundConfig(preset: .light), "screens inherit the preset's background")
        // A background key overrides the preset's background one key at a time.
        let tinted = try #require(check("[theme]\npreset = \"high-contrast\"\n[background]\nbackground = \"#101010\"\n").config)
        #expect(tinted.background.background == Color(rgb: 0x101010) && tinted.background.pattern == .solid)
        #expect(tinted.theme.selectedRow == ThemePreset.highContrast.palette.selectedRow)
    }

    @Test func noPresetIsTheStandardOne() throws {
        let config = try #require(check("").config)
        #expect(config.theme == ThemeConfig(preset: .standard) && ThemePreset.standard == .dark)
    }

    @Test func unknownPresetIsAnErrorNamingTheChoices() {
        let c = check("[theme]\npreset = \"sepia\"\n")
        #expect(!c.isValid)
        #expect(c.report.contains(#"theme.preset: expected one of "light", "dark", "high-contrast", got "sepia""#), "\(c.report)")
    }

    @Test func lowContrastWarnsWithTheKeysAndTheRatioButTheConfigIsUsed() throws {
        let c = check("""
            [theme]
            preset = "light"
            text = "#777777"
            row = "#ffffff"
            row_opacity = 1
            """)
        #expect(c.isValid)
        // #777 on white is the classic 4.48:1; the pressed plate (derived from the author's row, a
        // fifth of the way to their text) is darker still.
        #expect(c.report == """
            k.toml:9:8: theme.text: warning: contrast 4.47:1 on theme.row is below 4.5:1 (WCAG AA): hard to read; change theme.text or theme.row
            k.toml:9:8: theme.text: warning: contrast 3.52:1 on theme.pressed_row is below 4.5:1 (WCAG AA): hard to read; change theme.text or theme.pressed_row
            """, "\(c.report)")
    }

    @Test func translucentPlatesAreJudgedOverEveryColourOfThePattern() throws {
        // White text on a half-transparent grey plate: fine over black squares, unreadable over white ones.
        let text = """
            [theme]
            row = "#808080"
            row_opacity = 0.5
            text = "#ffffff"
            [background]
            pattern = "checker"
            foreground = "#000000"
            background = "#ffffff"
            """
        let c = check(text)
        #expect(c.isValid)
        let warning = try #require(c.problems.warnings.first { $0.location.keyPath == "theme.text" })
        // #808080 at 0.5 over white is #bfbfbf (the rasterizer's rounding): 1.83:1 against white.
        #expect(warning.message.hasPrefix("contrast 1.83:1 on theme.row"), "\(warning.message)")
        // The title (the preset's light grey) is unreadable on the white squares as well.
        #expect(c.problems.warnings.contains { $0.location.keyPath == "theme.title" })
    }

    @Test func aScreenBackgroundThatMakesItWorseIsNamed() throws {
        let c = check("""
            [screens.main.background]
            background = "#e0e0e0"
            """)
        #expect(c.isValid)
        let warning = try #require(c.problems.warnings.first)
        #expect(c.problems.warnings.count == 1, "\(c.report)")
        #expect(warning.location.keyPath == "screens.main.background")
        #expect(warning.message.hasPrefix("theme.title on background over this background: contrast 1."), "\(warning.message)")
    }

    @Test func ratiosAreRoundedDown() {
        #expect(ThemeContrast.describe(4.4999) == "4.49:1")
        #expect(ThemeContrast.describe(21) == "21.00:1")
        #expect(ThemeContrast.describe(1.05) == "1.05:1" || ThemeContrast.describe(1.05) == "1.04:1")
    }
}

/// The author's colours lead: a theme that sets `highlight`, `row` or `text` but not the
/// selection's own keys gets its selection from them, at WCAG AA where any of the candidates reaches it.
@Suite struct AuthorSelectionTests {
    let scratch = ScratchDirectory()

    func theme(_ text: String) throws -> ThemeConfig {
        let check = ConfigReader(path: scratch.write("k.toml", minimalConfig(text)), displayName: "k.toml").check()
        return try #require(check.config, "\(check.report)").theme
    }

    /// The issue's coffee machine: brown rows, light text, an orange highlight. The selection is
    /// orange (not the preset's blue), its label the first of the author's colours that reads on it.
    @Test(arguments: ThemePreset.allCases)
    func anAuthorsHighlightIsTheSelection(preset: ThemePreset) throws {
        let t = try theme("[theme]\npreset = \"\(preset.rawValue)\"\nrow = \"#5a3a22\"\ntext = \"#fbe9d7\"\nhighlight = \"#f28c28\"\n")
        #expect(t.selectedRow == Color(rgb: 0xF28C28) && t.highlight == Color(rgb: 0xF28C28))
        // #fbe9d7 on orange is about 2:1, the brown row about 3:1: neither reaches AA, nor white; black does.
        #expect(t.selectedText == .black)
        #expect(Color.contrastRatio(t.selectedText, t.selectedRow) >= ThemeContrast.minimum)
        // What the author left out and nothing derives stays the preset's.
        #expect(t.title == preset.palette.title && t.banner == preset.palette.banner)
    }

    @Test func theAuthorsTextIsTheSelectedLabelWhenItReads() throws {
        let t = try theme("[theme]\nhighlight = \"#1b5e20\"\ntext = \"#ffffff\"\n")
        #expect(t.selectedRow == Color(rgb: 0x1B5E20) && t.selectedText == .white)
    }

    @Test func aRowAloneLiftsTowardsTheText() throws {
        let t = try theme("[theme]\npreset = \"light\"\nrow = \"#fff3e0\"\n")
        let preset = ThemePreset.light.palette
        #expect(t.selectedRow != preset.selectedRow && t.selectedRow != t.row)
        #expect(t.highlight == t.selectedRow, "no second colour: the plate is the outline")
        #expect(Color.contrastRatio(t.selectedText, t.selectedRow) >= ThemeContrast.minimum)
    }

    @Test func theAuthorsOwnSelectionIsKept() throws {
        let t = try theme("[theme]\nhighlight = \"#f28c28\"\nselected_row = \"#123456\"\nselected_text = \"#abcdef\"\n")
        #expect(t.selectedRow == Color(rgb: 0x123456) && t.selectedText == Color(rgb: 0xABCDEF) && t.highlight == Color(rgb: 0xF28C28))
    }

    @Test func noColoursSetIsThePresetUnchanged() throws {
        for preset in ThemePreset.allCases {
            #expect(try theme("[theme]\npreset = \"\(preset.rawValue)\"\ntext_size = 0.5\n").palette == preset.palette)
        }
    }

    @Test func textScaleOutOfRangeIsRefusedSayingWhy() {
        for bad in ["0", "100", "-1", "0.2"] {
            let check = ConfigReader(path: scratch.write("k.toml", minimalConfig("[theme]\ntext_scale = \(bad)\n")), displayName: "k.toml").check()
            #expect(!check.isValid)
            #expect(check.report.contains("theme.text_scale: \(bad) is out of range 0.5...3: it multiplies every text's size"), "\(check.report)")
        }
        let ok = ConfigReader(path: scratch.write("k.toml", minimalConfig("[theme]\ntext_scale = 1.5\n")), displayName: "k.toml").check()
        #expect(ok.isValid && ok.config?.theme.textScale == 1.5, "\(ok.report)")
    }

    @Test func aDescriptionIsValidated() {
        func report(_ description: String) -> ConfigCheck {
            let text = """
                home = "main"
                [screens.main]
                style = "arc"
                [[screens.main.items]]
                label = "Espresso"
                action = "reload"
                description = \(description)
                """
            return ConfigReader(path: scratch.write("d.toml", text), displayName: "d.toml").check()
        }
        #expect(report("\"A short, strong coffee.\"").isValid)
        #expect(report("\"  \"").report.contains("screens.main.items[0].description: empty"))
        #expect(report("\"\(String(repeating: "x", count: 201))\"").report.contains("201 characters; at most 200"))
        #expect(report("\"one\\ntwo\"").report.contains("contains a line break"))
        #expect(report("3").report.contains("screens.main.items[0].description"))
    }
}

/// Each preset with an author's `highlight` (and brown rows): the selection in the author's orange.
@Suite(.serialized) struct AuthorHighlightGoldenTests {
    @Test(arguments: ThemePreset.allCases)
    func presetWithAuthorHighlight(preset: ThemePreset) throws {
        var theme = ThemeConfig(preset: preset)
        theme.row = Color(rgb: 0x5A3A22)
        theme.text = Color(rgb: 0xFBE9D7)
        theme.highlight = Color(rgb: 0xF28C28)
        theme.palette.deriveSelection(own: ["row", "text", "highlight"])
        let resources = try ScreenFixtures.resources(theme: theme)
        var arcConfig = ScreenFixtures.arcConfig()
        arcConfig.background = BackgroundConfig(preset: preset)
        guard case .arc(let style) = arcConfig.layout else { return }
        let arc = try ArcScreen(config: arcConfig, style: style, resources: resources, showsBack: true)
        arc.select(3)
        try goldens.expectMatches(try ScreenFixtures.frame(of: arc), "author-highlight-\(preset.rawValue)-arc-800x480")
    }
}
