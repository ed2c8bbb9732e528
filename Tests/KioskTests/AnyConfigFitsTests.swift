@testable import DRMOutput
import Geometry
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing
import TestSupport
import Text
@testable import Kiosk

/// Configs written the way a stranger would (Tests/KioskTests/StrangerConfigs: a portrait coffee
/// machine in German, French and Greek with its own colours; an Arabic and Hebrew menu with every
/// size explicit) and the example, at the six common panel sizes, as `check-config --size` and
/// `render --layout` see them: no label shortened that would fit at the legible floor, nothing
/// overlapping, the selection on the screen.
@Suite struct AnyConfigFitsTests {
    static let configs = ["coffee-portrait.toml", "rtl-explicit.toml"].map { ConfigPaths.testsDirectory + "/StrangerConfigs/" + $0 }
        + [ConfigPaths.example]

    /// What is wrong with one screen's report: each a line naming the size and the item.
    static func faults(_ r: LayoutReport, font: Font) -> [String] {
        let size = "\(r.screen) at \(r.width)x\(r.height)"
        var faults: [String] = []
        for item in r.shortenedItems {
            // Cut although it fits at the floor in its plate (less a thin padding at each end).
            let atFloor = font.measure(item.label, size: Swift.min(item.fontSize, FittedLabel.legibleFloor))
            if atFloor + 0.2 * item.rect.height <= item.rect.width {
                faults.append("\(size): \"\(item.label)\" is shortened though it fits at \(FittedLabel.legibleFloor) px")
            }
        }
        if let title = r.title, title.shortened, font.measure(title.text, size: FittedLabel.legibleFloor) <= Double(r.width) * 0.8 {
            faults.append("\(size): the title is shortened though it fits at the floor")
        }
        for (a, b) in r.overlappingItems where a.index != b.index { faults.append("\(size): \"\(a.label)\" overlaps \"\(b.label)\"") }
        for item in r.itemsOverTitle { faults.append("\(size): \"\(item.label)\" over the title") }
        for item in r.itemsOffScreen { faults.append("\(size): \"\(item.label)\" off the screen") }
        for item in r.itemsOverPanel { faults.append("\(size): \"\(item.label)\" over the side panel") }
        let screen = Rect(x: 0, y: 0, width: Double(r.width), height: Double(r.height))
        let selected = r.items.filter(\.selected)
        if selected.isEmpty || !selected.contains(where: { screen.contains($0.textRect) }) {
            faults.append("\(size): the selection is not on the screen")
        }
        if let panel = r.panel, panel.shortened { faults.append("\(size): the side panel's \"\(panel.label)\" is shortened") }
        return faults
    }

    @Test(arguments: configs)
    func fitsAtEveryCommonSize(path: String) throws {
        let check = ConfigReader(path: path, searchPath: "/usr/local/bin:/usr/bin:/bin").check()
        let config = try #require(check.config, "\(check.report)")
        #expect(check.problems.isEmpty, "\(check.report)")
        let assets = try LoadedAssets.load(for: config)
        var faults: [String] = []
        for size in ExampleGallery.sizes {
            for screen in config.screens {
                let r = try LayoutProbe.report(config, screen: screen.name, width: size.width, height: size.height, rotation: .none, assets: assets)
                #expect(!r.items.isEmpty, "\(screen.name) at \(size.width)x\(size.height) drew nothing")
                faults += Self.faults(r, font: assets.font)
            }
        }
        #expect(faults.isEmpty, "\(path):\n\(faults.joined(separator: "\n"))")
        let warnings = LayoutProbe.warnings(config, file: "k.toml", panels: ExampleGallery.sizes, assets: assets)
        #expect(warnings.isEmpty, "\(lines(warnings))")
    }

    /// Large text: the example at text_scale 1.5 lays out with no label cut at 800x480; arcs' and
    /// lists' labels are drawn about 1.5 times as large (at least 1.4: the main arc's longest label shrinks a little to its row); the dial's too where its circle has room, and
    /// at 800x480 (434 px below the title) it has not: they grow less, but still grow.
    @Test func theExampleAtOneAndAHalfTimesTheTextFits() throws {
        var config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        let assets = try LoadedAssets.load(for: config)
        let before = try config.screens.map { try LayoutProbe.report(config, screen: $0.name, width: 800, height: 480, rotation: .none, assets: assets) }
        config.theme.textScale = 1.5
        for (screen, small) in zip(config.screens, before) {
            let r = try LayoutProbe.report(config, screen: screen.name, width: 800, height: 480, rotation: .none, assets: assets)
            #expect(r.shortenedItems.isEmpty, "\(screen.name): \(r.shortenedItems.map(\.label))")
            #expect(Self.faults(r, font: assets.font).isEmpty, "\(Self.faults(r, font: assets.font))")
            let large = r.items.map(\.fontSize).max() ?? 0, was = small.items.map(\.fontSize).max() ?? 0
            if case .dial = screen.layout {
                #expect(large > was * 1.05, "\(screen.name): \(was) → \(large) px")
            } else {
                #expect(large >= was * 1.4, "\(screen.name): \(was) → \(large) px")
            }
        }
        let warnings = LayoutProbe.warnings(config, file: "k.toml", panels: [PanelSize(width: 800, height: 480)], assets: assets)
        #expect(warnings.isEmpty, "\(lines(warnings))")
    }
}

/// The free side of a left or right arc: the selected item large, only where there is room, off
/// when the author says so, mirrored on a right-to-left screen, redrawn only once the menu settles.
@Suite struct SidePanelTests {
    let font: Font
    init() throws { font = try Font(path: Font.dejaVuSansPath) }

    func config(edge: ArcEdge = .right, direction: TextDirection = .leftToRight, panel: Bool = true) -> KioskConfig {
        var items = ScreenFixtures.items(["Espresso", "Cappuccino", "Hot water", "Service"])
        items[1].description = "Espresso with steamed milk and a crown of foam, in a large cup."
        let screen = ScreenConfig(name: "main", title: "Coffee", layout: .arc(ArcStyle(edge: edge, sidePanel: panel)),
                                  sections: [MenuSection(items: items)], direction: direction)
        return KioskConfig(home: "main", screens: [screen])
    }

    func report(_ config: KioskConfig, _ w: Int, _ h: Int) throws -> LayoutReport {
        try LayoutProbe.report(config, screen: "main", width: w, height: h, rotation: .none, assets: LoadedAssets(font: font))
    }

    @Test func aLandscapeArcShowsTheSelectionOnItsFreeSide() throws {
        for (w, h) in [(800, 480), (1024, 600), (1280, 800), (1920, 1080)] {
            let r = try report(config(), w, h)
            let panel = try #require(r.panel, "\(w)x\(h)")
            #expect(panel.label == "Espresso" && !panel.shortened)
            #expect(panel.fontSize > r.items[0].fontSize, "larger than the rows")
            #expect(panel.rect.maxX < r.items.map(\.rect.minX).min()!, "left of the arc")
            #expect(r.itemsOverPanel.isEmpty && r.itemsOffScreen.isEmpty)
        }
    }

    @Test func portraitTopEdgesAndTheAuthorTurnItOff() throws {
        #expect(try report(config(), 480, 800).panel == nil)
        #expect(try report(config(), 600, 1024).panel == nil)
        #expect(try report(config(edge: .bottom), 800, 480).panel == nil)
        #expect(try report(config(panel: false), 800, 480).panel == nil)
    }

    @Test func rightToLeftMirrorsIt() throws {
        let r = try report(config(edge: .left, direction: .rightToLeft), 800, 480)
        let panel = try #require(r.panel)
        #expect(panel.rect.minX > r.items.map(\.rect.maxX).max()!, "right of a left-edge arc")
        #expect(abs(panel.textRect.maxX - panel.rect.maxX) < 1, "the label ends at the panel's right: \(panel)")
    }

    @Test func aDescriptionWrapsToThePanel() throws {
        var c = config()
        guard case .arc = c.screens[0].layout else { return }
        let lines = SidePanel.wrap("Espresso with steamed milk and a crown of foam, in a large cup.", font: font, size: 20, width: 200, maxLines: 4)
        #expect(lines.count >= 2 && lines.allSatisfy { font.measure($0, size: 20) <= 200 }, "\(lines)")
        #expect(lines.joined(separator: " ") == "Espresso with steamed milk and a crown of foam, in a large cup.")
        let cut = SidePanel.wrap("one two three four five six seven eight nine ten", font: font, size: 20, width: 120, maxLines: 2)
        #expect(cut.count == 2 && cut[1].hasSuffix("\u{2026}"), "\(cut)")
        // The selected item with a description: its lines are reported.
        c.screens[0].sections[0].items.swapAt(0, 1)
        let r = try report(c, 800, 480)
        #expect(r.panel?.label == "Cappuccino" && (r.panel?.lines ?? 0) >= 2, "\(r.json)")
    }

    /// While the menu moves the panel is outside the damage (a scroll frame costs what it did);
    /// once it rests the panel is damaged and drawn, showing the new selection.
    @Test func thePanelFollowsTheSelectionOnceItSettles() throws {
        let resources = ScreenResources(theme: ThemeConfig(), assets: LoadedAssets(font: font), width: 800, height: 480)
        let screenConfig = config().screens[0]
        guard case .arc(let style) = screenConfig.layout else { return }
        let screen = try ArcScreen(config: screenConfig, style: style, resources: resources, showsBack: false)
        let panel = try #require(screen.shape.panel)
        let panelPixels = PixelRect(covering: panel.frame)
        #expect(screen.damage.contains(panelPixels), "at rest")
        screen.handle(.command(.next, count: 1), now: 0)
        _ = screen.update(now: 0.05)
        #expect(screen.isMoving)
        #expect(!screen.damage.intersects(panelPixels), "while moving: \(screen.damage)")
        var now = 0.05
        while screen.isMoving && now < 3 { now += 0.016; _ = screen.update(now: now) }
        #expect(screen.damage.contains(panelPixels), "settled")
        let report = LayoutReport(screen: "main", width: 800, height: 480)
        resources.layoutReport = report
        _ = screen.draw(on: Canvas(try PixelBuffer(width: 800, height: 480)), full: false)
        #expect(report.panel?.label == "Cappuccino")
    }
}

/// The gallery's second part (docs/gallery.md) (docs/gallery/strangers): the stranger configs and large text as
/// `kiosk render` draws them now, compared as goldens are (KIOSK_UPDATE_GOLDENS=1 renders them again).
@Suite struct StrangerGalleryTests {
    /// (file name, config, screen, size).
    static func shots() throws -> [(String, KioskConfig, String, PanelSize)] {
        func load(_ path: String) throws -> KioskConfig { try #require(ConfigReader(path: path).check().config) }
        let coffee = try load(AnyConfigFitsTests.configs[0]), rtl = try load(AnyConfigFitsTests.configs[1])
        var large = try load(ConfigPaths.example)
        large.theme.textScale = 1.5
        let portrait = PanelSize(width: 480, height: 800), landscape = PanelSize(width: 800, height: 480)
        let dir = ConfigPaths.testsDirectory + "/StrangerConfigs/"
        let printer = try load(dir + "printer-panel.toml"), home = try load(dir + "home-panel-nl-pl.toml")
        let clinic = try load(dir + "clinic-he-ar.toml")
        var shots = [("coffee-home-480x800", coffee, "home", portrait), ("coffee-sizes-480x800", coffee, "sizes", portrait),
                     ("coffee-service-480x800", coffee, "service", portrait), ("rtl-home-800x480", rtl, "home", landscape),
                     ("rtl-media-800x480", rtl, "media", landscape), ("large-text-main-800x480", large, "main", landscape),
                     ("large-text-settings-800x480", large, "settings", landscape)]
        // The three of issue 32, at 800x480 and in portrait: a printer panel, a Dutch and Polish
        // home panel at text_scale 1.3, a Hebrew and Arabic clinic at 1.6.
        for (name, config, screens) in [("printer", printer, ["printer", "move", "presets"]), ("home", home, ["thuis", "licht"]),
                                        ("clinic", clinic, ["checkin", "times", "clinics"])] {
            for screen in screens {
                shots.append(("\(name)-\(screen)-800x480", config, screen, landscape))
                shots.append(("\(name)-\(screen)-480x800", config, screen, portrait))
            }
        }
        return shots
    }

    @Test func strangerGalleryIsCurrent() throws {
        let gallery = GoldenImages(directory: ConfigPaths.repository + "/docs/gallery/strangers")
        if GoldenImages.updating { try PNGCodec.createFolder(gallery.directory) }
        let scratch = ScratchDirectory()
        for (name, config, screen, size) in try Self.shots() {
            let file = scratch.path + "/\(name).png"
            try renderScreen(config, name: screen, width: size.width, height: size.height, rotation: .none, to: file)
            try gallery.expectMatches(try PNGCodec.read(path: file), name)
        }
    }
}

/// The banner's text grows with `text_scale` too, and still wraps within the screen.
@Suite struct BannerScaleTests {
    @Test func theBannerScalesWithTheText() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        let text = "Config not applied: screens.main.items[3].command[0]: /usr/local/bin/player does not exist"
        let normal = Banner(text, until: 1, font: font, width: 800, height: 480)
        let large = Banner(text, until: 1, font: font, width: 800, height: 480, scale: 1.5)
        #expect(Banner.textSize(height: 480, scale: 1.5) == Banner.textSize(height: 480) * 1.5)
        #expect(large.lines[0].count < normal.lines[0].count, "\(normal.lines) / \(large.lines)")
        let size = Banner.textSize(height: 480, scale: 1.5)
        #expect(large.lines.dropLast().allSatisfy { font.measure($0, size: size) <= 800 - 2 * size }, "\(large.lines)")
    }
}
