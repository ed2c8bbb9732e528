import DRMOutput
import Geometry
import Glibc
@testable import KioskConfiguration
import MenuScreens
import Raster
import KioskSystem
import Testing
import TestSupport
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

    /// A reload's rasterizing stops at its budget; without a runtime (tests, `kiosk render`) the
    /// rest is rendered where it is drawn.
    @Test func aSpentBudgetLeavesTheRestToTheFirstDraw() throws {
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

    /// Waits (not a timed check: up to `Patience.seconds`) until `app`'s icon renders in
    /// the background have all arrived; whether the arrivals were signalled.
    static func waitForIcons(_ app: KioskApp, _ arrivals: WakeSource) -> Bool {
        var pfd = pollfd(fd: arrivals.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now() + Patience.seconds
        var signalled = false
        // The count drops before each arrival is signalled.
        while app.iconRendersPending > 0 || !signalled, MonotonicClock.now() < deadline {
            if poll(&pfd, 1, 100) > 0 { signalled = true }
        }
        arrivals.acknowledge()
        app.iconsArrived()
        return signalled && app.iconRendersPending == 0
    }

    /// Once the runtime draws with the icons (`iconArrivals` set), an icon size not rendered yet is
    /// rendered off the caller's thread: the frame that asks for it is drawn without it at once,
    /// and the frame after its arrival equals one drawn with the icon rendered in place.
    static func expectRenderedOffTheLoop(app: KioskApp, reference: KioskApp, screen: String, item: Int) throws {
        for a in [app, reference] {
            try a.show(screen: screen, now: 1)
            a.currentScreen.select(item)
            _ = a.advance(now: 10)
        }
        let arrivals = try WakeSource()
        app.iconArrivals = arrivals
        let first = try PixelBuffer(width: app.width, height: app.height)
        _ = app.draw(on: Canvas(first), full: true)
        #expect(app.lastFrameLacksIcons)
        #expect(waitForIcons(app, arrivals), "no icon arrived")
        let second = try PixelBuffer(width: app.width, height: app.height)
        _ = app.draw(on: Canvas(second), full: true)
        #expect(!app.lastFrameLacksIcons)
        let expected = try PixelBuffer(width: reference.width, height: reference.height)
        _ = reference.draw(on: Canvas(expected), full: true)
        #expect(channelDifference(first, expected).pixels > 0, "the first frame already had its icons: they were rendered on the loop")
        #expect(channelDifference(second, expected).pixels == 0, "the frame after the icons arrived differs from one drawn with them in place")
    }

    /// A reload whose warm-up ran out of its budget: the rest arrives from the background.
    @Test func aSpentBudgetsRestIsRenderedOffTheLoop() throws {
        let dir = ScratchDirectory()
        let path = Self.writeConfig(in: dir)
        let (config, assets) = try Self.load(path, outputSize: (800, 480), iconBudget: 0)
        let (refConfig, refAssets) = try Self.load(path, outputSize: nil)
        let app = try KioskApp(config: config, assets: assets, width: 800, height: 480, now: 0)
        let reference = try KioskApp(config: refConfig, assets: refAssets, width: 800, height: 480, now: 0)
        try Self.expectRenderedOffTheLoop(app: app, reference: reference, screen: "arc", item: 0)
    }

    /// A new panel size (a hotplug, another mode) is laid out on the loop, and the icons at their
    /// new sizes (the side panel's too) are rendered off it, each once.
    @Test func aNewSizesIconsAreRenderedOffTheLoop() throws {
        let dir = ScratchDirectory()
        let path = Self.writeConfig(in: dir)
        let (config, assets) = try Self.load(path, outputSize: (800, 480))
        let (refConfig, refAssets) = try Self.load(path, outputSize: nil)
        let app = try KioskApp(config: config, assets: assets, width: 800, height: 480, now: 0)
        try app.resize(width: 480, height: 800)
        let reference = try KioskApp(config: refConfig, assets: refAssets, width: 480, height: 800, now: 0)
        try Self.expectRenderedOffTheLoop(app: app, reference: reference, screen: "arc", item: 2)
        let after = assets.iconRasterizations
        let again = try PixelBuffer(width: app.width, height: app.height)
        _ = app.draw(on: Canvas(again), full: true)
        #expect(!app.lastFrameLacksIcons)
        #expect(assets.iconRasterizations == after, "an icon that arrived once was rendered again")
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
