@testable import DRMOutput
@testable import KioskConfiguration
import Raster
import Testing
import TestSupport
@testable import Kiosk

/// The shipped example, `systemd/kiosk.toml`: it must load and validate cleanly on a Debian
/// machine with the packages of scripts/apt-packages.txt, and decode to what its comments say.
@Suite struct ConfigExampleTests {
    @Test func exampleValidatesWithoutProblems() throws {
        let check = ConfigReader(path: ConfigPaths.example, searchPath: "/usr/local/bin:/usr/bin:/bin").check()
        #expect(check.problems.isEmpty, "\(lines(check.problems))")
        #expect(check.isValid)
    }

    /// The example looks like a product on the common panels: at each size no label is
    /// shortened and nothing overlaps (`check-config --size` has nothing to say).
    @Test func exampleFitsEveryCommonPanel() throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        let warnings = LayoutProbe.warnings(config, file: "kiosk.toml", panels: ExampleGallery.sizes, assets: try LoadedAssets.load(for: config))
        #expect(warnings.isEmpty, "\(lines(warnings))")
    }

    /// The gallery (docs/gallery.md) (docs/gallery/WxH/NAME.png) is the example as `kiosk render` draws it
    /// now: each screen at each common panel size, compared as goldens are
    /// (KIOSK_UPDATE_GOLDENS=1 renders it again).
    @Test(arguments: ExampleGallery.sizes)
    func galleryIsCurrent(size: PanelSize) throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        let gallery = GoldenImages(directory: ConfigPaths.repository + "/docs/gallery/\(size.width)x\(size.height)")
        if GoldenImages.updating { try PNGCodec.createFolder(gallery.directory) }
        let scratch = ScratchDirectory()
        for screen in config.screens {
            let file = scratch.path + "/\(screen.name).png"
            try renderScreen(config, name: screen.name, width: size.width, height: size.height, rotation: .none, to: file)
            try gallery.expectMatches(try PNGCodec.read(path: file), screen.name)
        }
    }

    @Test func exampleUsesEveryStyleAndPattern() throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        #expect(config.home == "main")
        #expect(config.screens.map(\.name) == ["main", "media", "settings", "tools"], "file order is kept")
        #expect(Set(config.screens.map(\.style)) == Set(ScreenStyle.allCases))
        let patterns = Set(config.screens.map(\.background.pattern))
        #expect(patterns.isSuperset(of: [.checker, .cross, .circles]))
        let kinds = Set(config.screens.flatMap(\.items).map(\.action.kind))
        #expect(kinds.isSuperset(of: [.screen, .exec, .spawn, .back, .reload]))
    }

    @Test func exampleDecodesToTypedValues() throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        #expect(config.idleTimeout == 300)
        #expect(config.display.rotation == .none)
        #expect(config.input.keys == KeyBindings())
        let main = try #require(config.screen(named: "main"))
        guard case .arc(let arc) = main.layout else { Issue.record("main is not an arc"); return }
        #expect(arc.edge == .right && arc.wrap && arc.rowLength == nil && arc.rowsVisible == 9)
        let tools = try #require(config.screen(named: "tools"))
        guard case .arc(let toolsArc) = tools.layout else { Issue.record("tools is not an arc"); return }
        #expect(toolsArc.edge == .bottom && !toolsArc.wrap)
        // Icon files are relative to the file's directory; icon names stay names, and the theme has them.
        #expect(main.items[0].icon == "multimedia-player-symbolic")
        let media0 = try #require(config.screen(named: "media")).items[0]
        #expect(media0.icon == ConfigPaths.repository + "/systemd/icons/radio.png")
        #expect(config.theme.iconTheme == "Adwaita" && config.theme.iconColor == .text)
        #expect(main.items[3].action == .exec(Command(argv: ["/usr/bin/sleep", "3"])))
        // A screen background overrides only the keys it names.
        let media = try #require(config.screen(named: "media"))
        #expect(media.background.pattern == .checker && media.background.cell == 56)
        #expect(media.background.lineWidth == config.background.lineWidth)
        // Colours it leaves out come from the global background, whose colours come from the preset.
        #expect(config.theme.preset == .dark && media.background.background == ThemePreset.dark.background.background)
        #expect(media.items[3].action == .exec(Command(argv: ["/usr/bin/sleep", "2"], environment: ["LANG": "C.UTF-8"])))
        let settings = try #require(config.screen(named: "settings"))
        #expect(settings.layout == .list(ListStyle(columns: 2, rowHeight: 0.1)))
        #expect(settings.sections.map(\.title) == ["Configuration", "Power", "Navigation"])
        #expect(settings.items.count == 5)
    }

    @Test func exampleBackgroundsMakeTiles() throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        for screen in config.screens {
            let tile = try screen.background.makeTile(forHeight: 480)
            #expect(tile.cellWidth == screen.background.cellSize(forHeight: 480))
        }
        #expect(config.background.cellSize(forHeight: 1080) == 72)
        #expect(config.background.cellSize(forHeight: 480) == 32)
    }
}

/// The panel sizes the example is shown at: the common kiosk panels, landscape and portrait.
enum ExampleGallery {
    static let sizes = [(800, 480), (1024, 600), (1280, 800), (1920, 1080), (480, 800), (600, 1024)].map { PanelSize(width: $0.0, height: $0.1) }
}
