import Geometry
@testable import KioskConfiguration
import LayoutCore
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
