import Geometry
import Glibc
@testable import KioskConfiguration
import Kiosk
import DRMOutput
@testable import MenuScreens
import Raster
import Testing
import Text

/// Icons by freedesktop name (a fixture theme with inheritance and hicolor, and the installed
/// Adwaita), SVG icons through a config load, their recolouring, their refusals, and a golden of
/// a screen drawn with named icons.
@Suite struct IconTests {
    static let themes = ConfigPaths.fixture("icon-themes")

    static func decode(_ items: String, theme: String = "") throws -> KioskConfig {
        let text = """
            [theme]
            \(theme)

            [screens.main]
            style = "arc"
            rows_visible = 5

            \(items)
            """
        let decoded = ConfigReader.decode(text: text, file: "k.toml", baseDirectory: ConfigPaths.fixtures)
        return try #require(decoded.config, "\(decoded.problems)")
    }

    static func item(_ label: String, _ icon: String) -> String {
        "[[screens.main.items]]\nlabel = \"\(label)\"\nicon = \"\(icon)\"\naction = \"back\"\n"
    }

    @Test func findsIconsByTheSpecsOrder() {
        var lookup = IconTheme(baseDirectories: [Self.themes])
        #expect(lookup.chain("Kiosk-Test") == ["Kiosk-Test", "Kiosk-Base", "hicolor"])
        #expect(lookup.find("test-home-symbolic", theme: "Kiosk-Test") == Self.themes + "/Kiosk-Test/scalable/actions/test-home-symbolic.svg")
        // Without the suffix, the symbolic icon is found as NAME-symbolic.
        #expect(lookup.find("test-home", theme: "Kiosk-Test") == Self.themes + "/Kiosk-Test/scalable/actions/test-home-symbolic.svg")
        // Through Inherits=, then hicolor.
        #expect(lookup.find("test-base", theme: "Kiosk-Test") == Self.themes + "/Kiosk-Base/scalable/apps/test-base.svg")
        #expect(lookup.find("test-hicolor", theme: "Kiosk-Test") == Self.themes + "/hicolor/48x48/apps/test-hicolor.png")
        // A theme that is not installed still falls back to hicolor; a missing name is nil.
        #expect(lookup.find("test-hicolor", theme: "No-Such-Theme") == Self.themes + "/hicolor/48x48/apps/test-hicolor.png")
        #expect(lookup.find("test-base", theme: "No-Such-Theme") == nil)
        #expect(lookup.find("no-such-icon", theme: "Kiosk-Test") == nil)
    }

    @Test func tellsNamesFromFiles() {
        #expect(IconTheme.isName("go-previous-symbolic"))
        #expect(IconTheme.isName("org.gnome.Settings"))
        #expect(!IconTheme.isName("icons/radio.png") && !IconTheme.isName("radio.PNG") && !IconTheme.isName("a.svg") && !IconTheme.isName(""))
    }

    /// The installed adwaita-icon-theme (Debian 12 keeps symbolic icons in scalable/, Debian 13 in symbolic/).
    @Test func findsAdwaitasSymbolicIcons() {
        var lookup = IconTheme()
        for name in ["go-previous-symbolic", "media-playback-start-symbolic", "preferences-system-symbolic", "multimedia-player-symbolic"] {
            let found = lookup.find(name, theme: "Adwaita")
            #expect(found?.hasSuffix("/\(name).svg") == true, "\(name): \(found ?? "not found"): is adwaita-icon-theme installed?")
        }
    }

    @Test func aLoadRendersNamedAndSVGIconsAndNamesWhatItCannot() throws {
        let config = try Self.decode([
            Self.item("Home", "test-home-symbolic"), Self.item("Base", "test-base"), Self.item("PNG", "test-hicolor"),
            Self.item("Missing", "no-such-icon"), Self.item("Broken", "test-broken"),
            Self.item("File", "icon-themes/Kiosk-Base/scalable/apps/test-base.svg"),
        ].joined(separator: "\n"), theme: "icon_theme = \"Kiosk-Test\"")
        let assets = ConfigAssets.decode(config, iconTheme: IconTheme(baseDirectories: [Self.themes]))
        #expect(assets.vectors["test-home-symbolic"]?.symbolic == true)
        #expect(assets.vectors["test-base"]?.symbolic == false)
        #expect(assets.vectors[Self.themes + "/Kiosk-Base/scalable/apps/test-base.svg"] != nil)
        #expect(assets.images["test-hicolor"].map { ($0.width, $0.height) } ?? (0, 0) == (48, 48))
        #expect(assets.iconWarnings["no-such-icon"]
                == "no icon named \"no-such-icon\" (nor \"no-such-icon-symbolic\") in the icon themes Kiosk-Test, Kiosk-Base, hicolor; "
                + "the item is shown without an icon (give a name from /usr/share/icons, Debian: adwaita-icon-theme, or a .png/.svg file)")
        #expect(assets.imageProblems["test-broken"]?.hasPrefix("\"\(Self.themes)/Kiosk-Base/scalable/apps/test-broken.svg\" cannot be loaded as an SVG: rsvg_handle_new_from_data") == true)
        #expect(assets.imageProblems.count == 1 && assets.iconWarnings.count == 1)
    }

    /// check-config's words, through the whole reader and the installed themes.
    @Test func checkConfigNamesAnUnknownIconAndAHostileSVG() throws {
        let scratch = ScratchDirectory()
        let bomb = scratch.write("bomb.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000"/>"#)
        let text = minimalConfig(Self.item("Unknown", "kiosk-no-such-icon") + "\n" + Self.item("Huge", bomb) + "\n" + Self.item("Back", "go-previous-symbolic"))
        let loaded = ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").load()
        let report = loaded.check.report
        #expect(report.contains(#"k.toml:9:8: screens.main.items[1].icon: warning: no icon named "kiosk-no-such-icon" (nor "kiosk-no-such-icon-symbolic") in the icon themes Adwaita, hicolor"#), "\(report)")
        #expect(report.contains("screens.main.items[2].icon: \"\(bomb)\" cannot be loaded as an SVG: \(bomb): 10000x10000 is larger than the 2048x2048"), "\(report)")
        #expect(!report.contains("items[3]"), "\(report)")
        // An unknown name is a warning (the config still loads, the label shows); the hostile SVG is an error.
        #expect(loaded.check.problems.filter { $0.severity == .warning }.count == 1, "\(report)")
        #expect(loaded.check.problems.filter { $0.severity == .error }.count == 1, "\(report)")
    }

    /// A render slower than the budget is refused: each icon is charged 3.2 s of CPU time by hand.
    @Test func anSVGOverTheRenderBudgetIsRefused() throws {
        let config = try Self.decode(Self.item("Home", "test-home-symbolic") + "\n" + Self.item("Base", "test-base"),
                                     theme: "icon_theme = \"Kiosk-Test\"")
        let assets = ConfigAssets.decode(config, cost: { _ in 3.2 }, iconTheme: IconTheme(baseDirectories: [Self.themes]))
        #expect(assets.vectors.isEmpty)
        #expect(assets.imageProblems["test-home-symbolic"]?.contains("takes 3.20 s to render at 128x128, more than the 3.0 s an icon may take") == true,
                "\(assets.imageProblems)")
        // Under budget, both load.
        let ok = ConfigAssets.decode(config, cost: { _ in 0.01 }, iconTheme: IconTheme(baseDirectories: [Self.themes]))
        #expect(ok.vectors.count == 2 && ok.imageProblems.isEmpty)
    }

    /// Recolouring keeps each pixel's coverage and replaces its colour (premultiplied), exactly.
    @Test func recolouringKeepsCoverage() throws {
        let path = Self.themes + "/Kiosk-Test/scalable/actions/test-home-symbolic.svg"
        let document = try SVGDocument(path: path)
        let renderer = SVGRenderer()
        let icon = VectorIcon(service: IconRenderService(renderer: renderer), document: try renderer.load(try SVGDocument.readFile(path), name: path).get().id, symbolic: true)
        let original = try document.render(width: 32, height: 32)
        let orange = Color(red: 255, green: 136, blue: 0)
        let tinted = try #require(icon.image(side: 32, tint: .color(orange)))
        var covered = 0
        for y in 0..<32 {
            for x in 0..<32 {
                let a = original[x, y]! >> 24
                let p = tinted[x, y]!
                #expect(p >> 24 == a)
                #expect((p >> 16) & 0xFF == (255 * a + 127) / 255 && (p >> 8) & 0xFF == (136 * a + 127) / 255 && p & 0xFF == 0)
                if a > 0 { covered += 1 }
            }
        }
        #expect(covered > 200)
        // Asked again, the same render comes back (kept per size and colour).
        #expect(icon.image(side: 32, tint: .color(orange)) === tinted)
        #expect(icon.image(side: 32, tint: .original) !== tinted)
    }

    /// A screen of named icons: symbolic ones in the label colour (the selected row's too), a
    /// colour SVG in its own colours, a PNG from hicolor, and a missing name drawn without icon.
    @Test(arguments: [("text", "arc-named-icons-800x480"), ("#ff8800", "arc-named-icons-orange-800x480")])
    func namedIconsGolden(iconColor: String, golden: String) throws {
        let config = try Self.decode([
            Self.item("Home", "test-home-symbolic"), Self.item("Weather", "test-base"), Self.item("Radio", "test-hicolor"),
            Self.item("No icon", "no-such-icon"), Self.item("Home again", "test-home"),
        ].joined(separator: "\n"), theme: "icon_theme = \"Kiosk-Test\"\nicon_color = \"\(iconColor)\"")
        try goldens.expectMatches(try Self.arcFrame(config), golden)
    }

    /// The first screen of `config` (an arc) drawn with the test icon themes.
    static func arcFrame(_ config: KioskConfig) throws -> PixelBuffer {
        let assets = ConfigAssets.decode(config, iconTheme: IconTheme(baseDirectories: [Self.themes]))
        let loaded = try #require(assets.loaded)
        let resources = ScreenResources(theme: config.theme, assets: loaded, width: ScreenFixtures.width, height: ScreenFixtures.height)
        let screenConfig = try #require(config.screens.first)
        guard case .arc(let style) = screenConfig.layout else { throw RasterError.invalidArgument(call: "arcFrame", message: "not an arc") }
        let screen = try ArcScreen(config: screenConfig, style: style, resources: resources, showsBack: false)
        return try ScreenFixtures.frame(of: screen)
    }
}

/// An icon that barely shows on its plate is outlined in the label's colour; one that shows is
/// drawn as it is.
@Suite struct IconOutlineTests {
    /// A premultiplied disc of `color`, `side` pixels across.
    static func disc(_ color: UInt32, side: Int = 24) throws -> PixelBuffer {
        let image = try PixelBuffer(width: side, height: side, format: .argb8888Premultiplied)
        let c = Double(side) / 2
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) + 0.5 - c, dy = Double(y) + 0.5 - c
                if (dx * dx + dy * dy).squareRoot() < c - 2 { image.setPixel(x: x, y: y, 0xFF00_0000 | color) }
            }
        }
        return image
    }

    @Test func anIconLikeItsPlateIsOutlinedAndOneThatShowsIsNot() throws {
        let orange = try Self.disc(0xFF8800)
        #expect(IconOutline.meanColor(of: orange) == Color(red: 0xFF, green: 0x88, blue: 0x00))
        #expect(IconOutline.needsOutline(orange, on: Color(red: 0xF0, green: 0x80, blue: 0x10)))
        #expect(!IconOutline.needsOutline(orange, on: Color(red: 0x1E, green: 0x22, blue: 0x2B)), "on a dark plate it shows")
        #expect(IconOutline.meanColor(of: try PixelBuffer(width: 4, height: 4, format: .argb8888Premultiplied)) == nil, "nothing to see")
        // The silhouette grows by the radius on every side and covers every pixel the icon covers.
        let grown = IconOutline.grownSilhouette(of: orange, radius: 2)
        #expect(grown.count == 28 * 28)
        for y in 0..<24 { for x in 0..<24 where (orange[x, y] ?? 0) >> 24 > 0 { #expect(grown[(y + 2) * 28 + x + 2] == 255) } }
        // A pixel two beyond the disc's edge is covered; one far outside is not.
        #expect(grown[(12 + 2) * 28 + 0 + 2] == 255 && grown[0] == 0)
        // Worked out once per image and plate.
        let cache = IconOutlineCache()
        let plate = Color(red: 0xF0, green: 0x80, blue: 0x10)
        #expect(cache.outline(for: orange, on: plate)?.radius == 1)
        #expect(cache.outline(for: orange, on: Color(red: 0x1E, green: 0x22, blue: 0x2B)) == nil)
    }

    /// The test theme's colour icon on a selected plate of its own blue: outlined in the selected
    /// label's colour (white), so it still reads; the rows below keep theirs plain.
    @Test func aColourIconOnAPlateOfItsOwnColourIsOutlined() throws {
        let config = try IconTests.decode([IconTests.item("Weather", "test-base"), IconTests.item("Radio", "test-base")].joined(separator: "\n"),
                                          theme: "icon_theme = \"Kiosk-Test\"\nicon_color = \"original\"\nselected_row = \"#5d9fe6\"\nselected_text = \"#000000\"")
        try goldens.expectMatches(try IconTests.arcFrame(config), "arc-icon-outline-800x480")
        // check-config says so (the layout report records it from the drawing).
        let assets = try #require(ConfigAssets.decode(config, iconTheme: IconTheme(baseDirectories: [IconTests.themes])).loaded)
        let warnings = LayoutProbe.warnings(config, file: "k.toml", panels: [PanelSize(width: 800, height: 480)], assets: assets)
        #expect(warnings.contains { $0.message.contains("the icon \"test-base\" barely shows on its plate") }, "\(warnings.map(\.message))")
    }
}

extension IconOutlineTests {
    /// A PNG icon like its plate is scaled once to its drawn size and outlined the same way.
    @Test func aPNGIconLikeItsPlateIsOutlinedToo() throws {
        let orange = try Self.disc(0xFF8800, side: 48)
        let plate = Color(red: 0xF0, green: 0x80, blue: 0x10)
        let cache = IconOutlineCache()
        let scaled = try #require(cache.scaledIfOutlined(orange, side: 24, on: plate))
        #expect(scaled.width == 24 && cache.scaledIfOutlined(orange, side: 24, on: plate) === scaled, "scaled once")
        #expect(cache.outline(for: scaled, on: plate) != nil)
        #expect(cache.scaledIfOutlined(orange, side: 24, on: Color(red: 0x1E, green: 0x22, blue: 0x2B)) == nil, "shows on a dark plate")
    }
}
