import Raster
import Testing
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
        let panels = [(800, 480), (1024, 600), (1280, 800), (1920, 1080), (480, 800), (600, 1024)].map { PanelSize(width: $0.0, height: $0.1) }
        let warnings = LayoutProbe.warnings(config, file: "kiosk.toml", panels: panels, assets: try LoadedAssets.load(for: config))
        #expect(warnings.isEmpty, "\(lines(warnings))")
    }

    @Test func exampleUsesEveryStyleAndPattern() throws {
        let config = try #require(ConfigReader(path: ConfigPaths.example).check().config)
        #expect(config.home == "main")
        #expect(config.screens.map(\.name) == ["main", "media", "settings", "tools"], "file order is kept")
        #expect(Set(config.screens.map(\.style)) == Set(ScreenStyle.allCases))
        let patterns = Set(config.screens.map(\.background.pattern))
        #expect(patterns.isSuperset(of: [.checker, .cross, .circles]))
        let kinds = Set(config.screens.flatMap(\.items).map(\.action.kind))
        #expect(kinds.isSuperset(of: ["screen", "exec", "spawn", "back", "reload"]))
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
        // Icons are relative to the file's directory.
        #expect(main.items[0].icon == ConfigPaths.repository + "/systemd/icons/radio.png")
        #expect(main.items[3].action == .exec(Command(argv: ["/usr/bin/sleep", "3"])))
        // A screen background overrides only the keys it names.
        let media = try #require(config.screen(named: "media"))
        #expect(media.background.pattern == .circles && media.background.cell == 64)
        #expect(media.background.lineWidth == config.background.lineWidth)
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
        #expect(config.background.cellSize(forHeight: 1080) == 40)
        #expect(config.background.cellSize(forHeight: 480) == 18)
    }
}
