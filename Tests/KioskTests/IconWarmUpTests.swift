import DRMOutput
import Geometry
import Glibc
@testable import KioskConfiguration
import MenuScreens
import Raster
import Testing
@testable import Kiosk

/// SVG and named icons are rasterized when a config loads (on the loader's thread, at the output's
/// size), so the loop's frames after a load only copy them: the icons' render counter
/// (`LoadedAssets.iconRasterizations`) does not move while every screen is drawn with every item
/// selected. Without a size the loader cannot know, and the loop rasterizes: the counter moves.
@Suite struct IconWarmUpTests {
    /// Four shapes that draw icons at different sizes and colours: an arc with its side panel, a
    /// horizontal arc of tiles, a list, a dial; an SVG file and Adwaita's symbolic icons by name.
    static func writeConfig(in dir: ScratchDirectory) -> String {
        let svg = String(decoding: readBytes(ConfigPaths.fixture("icon-themes/Kiosk-Base/scalable/apps/test-base.svg")), as: UTF8.self)
        _ = dir.write("cup.svg", svg)
        let icons = ["cup.svg", "go-previous-symbolic", "media-playback-start-symbolic", "preferences-system-symbolic",
                     "multimedia-player-symbolic", nil]
        var text = "home = \"arc\"\n"
        for (name, style) in [("arc", "style = \"arc\"\nedge = \"right\""), ("tiles", "style = \"arc\"\nedge = \"bottom\""),
                              ("list", "style = \"list\""), ("dial", "style = \"dial\"")] {
            text += "\n[screens.\(name)]\ntitle = \"\(name)\"\n\(style)\n"
            // A list's items come in sections.
            let items = name == "list" ? "sections.items" : "items"
            if name == "list" { text += "\n[[screens.list.sections]]\ntitle = \"Section\"\n" }
            for (i, icon) in icons.enumerated() {
                text += "\n[[screens.\(name).\(items)]]\nlabel = \"Item \(i) of \(name)\"\naction = \"back\"\n"
                text += "description = \"What item \(i) does, in a sentence.\"\n"
                if let icon { text += "icon = \"\(icon)\"\n" }
            }
        }
        return dir.write("kiosk.toml", text)
    }

    /// `iconBudget`: unbounded by default, so that a loaded test host does not cut the warm-up short.
    static func load(_ path: String, outputSize: (width: Int, height: Int)?, iconBudget: Double = .infinity) throws -> (KioskConfig, LoadedAssets) {
        let worker = try ConfigLoadWorker(path: path, displayName: "kiosk.toml", iconBudget: iconBudget)
        worker.request(outputSize: outputSize)
        ConfigLoadWorkerTests.waitForResult(worker)
        let loaded = try #require(worker.takeResult())
        let config = try #require(loaded.check.config, "\(loaded.check.report)")
        return (config, try #require(loaded.assets))
    }

    /// Shows every screen and draws it with each item selected (settled, so the side panel shows).
    static func drawEveryScreen(_ app: KioskApp) throws {
        let frame = try PixelBuffer(width: app.width, height: app.height)
        var now = 1.0
        for name in app.config.screens.map(\.name) {
            try app.show(screen: name, now: now)
            now += 5
            _ = app.advance(now: now)
            for index in app.currentScreen.config.items.indices {
                app.currentScreen.select(index)
                now += 5
                _ = app.advance(now: now)
                _ = app.draw(on: Canvas(frame), full: true)
                #expect(app.currentScreen.selectedIndex == index)
            }
        }
    }

    @Test func theLoopRasterizesNoIconAfterALoad() throws {
        let dir = ScratchDirectory()
        let (config, assets) = try Self.load(Self.writeConfig(in: dir), outputSize: (800, 480))
        #expect(assets.vectors.count == 5)
        let warmed = assets.iconRasterizations
        #expect(warmed > 0)
        let app = try KioskApp(config: config, assets: assets, width: 800, height: 480, now: 0)
        try Self.drawEveryScreen(app)
        #expect(assets.iconRasterizations == warmed, "the loop rasterized \(assets.iconRasterizations - warmed) icons")
    }

    /// The control: the same drawing does rasterize when the load was not told the size.
    @Test func withoutTheOutputSizeTheLoopRasterizes() throws {
        try Self.expectTheLoopRasterizes(outputSize: nil)
    }

    /// A reload's rasterizing stops at its budget; the loop draws the rest when first shown.
    @Test func aSpentBudgetLeavesTheRestToTheLoop() throws {
        try Self.expectTheLoopRasterizes(outputSize: (800, 480), iconBudget: 0)
    }

    /// A load that rasterized nothing, after which drawing every screen at 800x480 rasterizes.
    static func expectTheLoopRasterizes(outputSize: (width: Int, height: Int)?, iconBudget: Double = .infinity) throws {
        let dir = ScratchDirectory()
        let (config, assets) = try load(writeConfig(in: dir), outputSize: outputSize, iconBudget: iconBudget)
        #expect(assets.iconRasterizations == 0)
        let app = try KioskApp(config: config, assets: assets, width: 800, height: 480, now: 0)
        try drawEveryScreen(app)
        #expect(assets.iconRasterizations > 0)
    }

    /// A new panel size (a hotplug, another mode) is laid out on the loop: its first frames
    /// rasterize the icons at the new sizes there, each once; drawing them all again does not.
    @Test func aNewSizeRasterizesOnTheLoopOnce() throws {
        let dir = ScratchDirectory()
        let (config, assets) = try Self.load(Self.writeConfig(in: dir), outputSize: (800, 480))
        let app = try KioskApp(config: config, assets: assets, width: 800, height: 480, now: 0)
        try app.resize(width: 480, height: 800)
        let before = assets.iconRasterizations
        try Self.drawEveryScreen(app)
        let after = assets.iconRasterizations
        #expect(after > before)
        try Self.drawEveryScreen(app)
        #expect(assets.iconRasterizations == after)
    }

    /// Start-up renders the icons too: once the output is open, before the loop's first frame.
    @Test func startUpRasterizesBeforeTheLoopDraws() throws {
        let dir = ScratchDirectory()
        let path = Self.writeConfig(in: dir)
        let runtime = try Runtime.launch(configPath: path) { _ in
            try HeadlessOutput(panelWidth: 800, panelHeight: 480, rotation: .none)
        } options: { _ in Runtime.Options() }
        let assets = runtime.app.assets
        let warmed = assets.iconRasterizations
        #expect(warmed > 0)
        try Self.drawEveryScreen(runtime.app)
        #expect(assets.iconRasterizations == warmed, "the loop rasterized \(assets.iconRasterizations - warmed) icons")
    }
}
