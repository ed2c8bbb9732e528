@testable import DRMOutput
import Foundation
import Geometry
import Glibc
import Kiosk
@testable import KioskConfiguration
@testable import KioskSystem
@testable import MenuScreens
import Raster
import TestSupport
import Testing

/// The whole app without devices: a config on disk, synthetic input and hand-moved time,
/// real programs for actions (a script that records its argv), reloads of every kind, and
/// frames against golden PNGs.
@Suite(.serialized) struct AppTests {
    /// A temporary folder with a config, a recorder program and a program that cannot start.
    final class Sandbox {
        let dir: String
        var config: String { dir + "/kiosk.toml" }
        var recorder: String { dir + "/record" }

        init() {
            var template = Array("/tmp/kiosk-app-test-XXXXXX".utf8CString)
            dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            // The status and metrics in a folder of their own, as on a device (/run/kiosk): the
            // programs the menu runs cannot write there, nor make anything new directly in its
            // parent (`LaunchConfinement`), so the recorder writes into a folder of its own.
            mkdir(dir + "/run", 0o755)
            mkdir(dir + "/records", 0o755)
            // Records its arguments, one per line, in records/record-<first argument>.txt.
            write(recorder, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/records/record-$1.txt\"\n", mode: 0o755)
            write(dir + "/broken", "#!/nonexistent/interpreter\n", mode: 0o755)
            write(config, Self.config(dir: dir))
        }

        deinit { _ = try? FileManager.default.removeItem(atPath: dir) }

        func write(_ path: String, _ text: String, mode: Int = 0o644) {
            let written = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
            #expect(written, "could not write \(path)")
        }

        /// Replaces the config the way a fleet does: a temporary file renamed over it.
        func replace(_ text: String) {
            write(config + ".new", text)
            rename(config + ".new", config)
        }

        func record(_ name: String) -> [String]? {
            (try? String(contentsOfFile: "\(dir)/records/record-\(name).txt", encoding: .utf8))?.split(separator: "\n").map(String.init)
        }

        static func config(dir: String, mainTitle: String = "Home", extraItem: String = "") -> String {
            """
            home = "main"
            idle_timeout = 30
            status_file = "\(dir)/run/status.json"
            metrics_file = "\(dir)/run/kiosk.prom"

            [background]
            pattern = "circles"
            cell = 48

            [screens.main]
            title = "\(mainTitle)"
            style = "arc"
            rows_visible = 7
            row_length = 0.3

            [[screens.main.items]]
            label = "More"
            action = "screen"
            screen = "more"

            [[screens.main.items]]
            label = "Run"
            action = "exec"
            command = ["\(dir)/record", "exec", "two words"]

            [[screens.main.items]]
            label = "Background"
            action = "spawn"
            command = ["\(dir)/record", "spawn"]

            [[screens.main.items]]
            label = "Broken"
            action = "exec"
            command = ["\(dir)/broken"]
            \(extraItem)

            [screens.more]
            title = "More"
            style = "list"
            columns = 2

            [[screens.more.sections]]
            title = "Things"

            [[screens.more.sections.items]]
            label = "Back"
            action = "back"

            [[screens.more.sections.items]]
            label = "Reload"
            action = "reload"
            """
        }
    }

    static func makeApp(_ sandbox: Sandbox, now: Double = 0) throws -> (KioskApp, ConfigReader) {
        let checker = ConfigReader(path: sandbox.config)
        let check = checker.check()
        #expect(check.problems.isEmpty, "\(check.report)")
        let app = try KioskApp(config: try #require(check.config), width: 800, height: 480, now: now)
        return (app, checker)
    }

    /// Moves the app on at 60 Hz for `seconds`, drawing every frame into `frame` as the runtime's
    /// pass does (advance, then draw); returns the effects it asked for.
    @discardableResult
    static func run(_ app: KioskApp, _ frame: PixelBuffer, from now: inout Double, seconds: Double) -> [Effect] {
        let canvas = Canvas(frame)
        var effects: [Effect] = []
        let end = now + seconds
        while now < end {
            effects += app.advance(now: now)
            canvas.resetClip()
            _ = app.draw(on: canvas, full: false)
            app.frameTaken()
            now += 1.0 / 60
        }
        return effects
    }

    /// The runtime on a headless panel, with its loop turned by hand.
    static func runtime(_ app: KioskApp, options: Runtime.Options = Runtime.Options()) throws -> (Runtime, HeadlessOutput) {
        let output = try HeadlessOutput(panelWidth: app.width, panelHeight: app.height, rotation: .none)
        let runtime = try Runtime(app: app, output: output, signals: try SignalSource(Runtime.handledSignals), config: nil,
                                  options: options, startup: StartupTimeline())
        try runtime.start()
        return (runtime, output)
    }

    /// Turns the runtime's loop until `done`, or for `Patience.seconds`. A child's SIGCHLD goes to whichever of the
    /// test process's threads does not block it, so the test raises it on the loop's thread, as
    /// the kernel does for the kiosk's single thread (reaping is WNOHANG: extra ones are harmless).
    static func turn(_ runtime: Runtime, until done: () -> Bool) throws {
        let deadline = MonotonicClock.now() + Patience.seconds
        while !done(), MonotonicClock.now() < deadline {
            raise(SIGCHLD)
            try runtime.runOnce(timeout: 0.02)
        }
    }

    @Test func bootsToTheHomeScreen() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        Self.run(app, frame, from: &now, seconds: 0.2)
        #expect(app.screenNames == ["main"])
        #expect(app.currentScreen.selectedIndex == 0)
        try goldens.expectMatches(frame, "app-home-800x480")
    }

    @Test func knobOpensAScreenAndBackReturns() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        Self.run(app, frame, from: &now, seconds: 0.1)
        app.handle(.command(.select, count: 1), now: now)
        Self.run(app, frame, from: &now, seconds: 1)
        #expect(app.screenNames == ["main", "more"])
        try goldens.expectMatches(frame, "app-more-800x480")
        // The knob's back key, then the list's own "Back" item.
        app.handle(.command(.back, count: 1), now: now)
        Self.run(app, frame, from: &now, seconds: 0.5)
        #expect(app.screenNames == ["main"])
        app.handle(.command(.select, count: 1), now: now)
        Self.run(app, frame, from: &now, seconds: 0.5)
        app.handle(.command(.select, count: 1), now: now)  // "Back" is the list's first row
        Self.run(app, frame, from: &now, seconds: 0.5)
        #expect(app.screenNames == ["main"])
        #expect(app.lastAction?.action == "back")
    }

    /// The real runtime hands the display over for an `exec` item, gets it back when the program
    /// exits (reaped through SIGCHLD), and records how background programs ended.
    @Test func execAndSpawnRunTheirArgv() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let (runtime, output) = try Self.runtime(app)
        try Self.turn(runtime) { output.presentedFrames > 0 && app.frameNeed == .none }
        app.handle(.command(.next, count: 1), now: MonotonicClock.now())
        try Self.turn(runtime) { app.currentScreen.selectedIndex == 1 && !app.currentScreen.isMoving }
        app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        var framesWhileHandedOver: Int?
        try Self.turn(runtime) {
            if output.isHandedOver { framesWhileHandedOver = output.presentedFrames }
            return app.lastAction?.result.hasPrefix("exited") == true
        }
        let framesBefore = try #require(framesWhileHandedOver, "the display was not handed over while the program ran")
        #expect(!output.isHandedOver, "the display was not taken back")
        #expect(sandbox.record("exec") == ["exec", "two words"])
        #expect(app.lastAction?.result == "exited with status 0")
        #expect(app.bannerText == nil)
        try Self.turn(runtime) { output.presentedFrames > framesBefore }
        #expect(output.presentedFrames > framesBefore, "no frame after taking the display back")

        app.handle(.command(.next, count: 1), now: MonotonicClock.now())
        try Self.turn(runtime) { app.currentScreen.selectedIndex == 2 && !app.currentScreen.isMoving }
        app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try Self.turn(runtime) { app.lastAction?.action == "spawn" && app.lastAction?.result.hasPrefix("exited") == true }
        #expect(sandbox.record("spawn") == ["spawn"])
        #expect(!output.isHandedOver, "a background program took the display")

        // The metrics file follows, at most a second behind (the loop's timer writes what changed).
        let metricsPath = sandbox.dir + "/run/kiosk.prom"
        func metrics() -> String { (try? String(contentsOfFile: metricsPath, encoding: .utf8)) ?? "" }
        try Self.turn(runtime) { metrics().contains(#"kiosk_actions_total{action="spawn",result="ok"} 1"#) }
        let text = metrics()
        for line in ["kiosk_up 1", "kiosk_config_generation 1", "kiosk_config_valid 1", #"kiosk_screen_info{screen="main"} 1"#,
                     "kiosk_display_connected 1", #"kiosk_actions_total{action="exec",result="ok"} 1"#,
                     #"kiosk_actions_total{action="spawn",result="ok"} 1"#] {
            #expect(text.contains(line + "\n"), "\(line) not in:\n\(text)")
        }
        let frames = text.split(separator: "\n").first { $0.hasPrefix("kiosk_frames_total ") }?.split(separator: " ").last.flatMap { Int($0) }
        #expect((frames ?? 0) > 0, "no frames counted in:\n\(text)")
        #expect(!FileManager.default.fileExists(atPath: metricsPath + ".tmp"))
    }

    @Test func aProgramThatCannotStartShowsABannerAndTheMenuStays() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let (runtime, output) = try Self.runtime(app)
        try Self.turn(runtime) { output.presentedFrames > 0 }
        app.handle(.command(.next, count: 3), now: MonotonicClock.now())  // "Broken", the last item (the arc does not wrap)
        try Self.turn(runtime) { app.currentScreen.selectedIndex == 3 && !app.currentScreen.isMoving }
        app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try Self.turn(runtime) { app.lastAction?.result.hasPrefix("failed to start") == true }
        #expect(app.lastAction?.result.hasPrefix("failed to start") == true)
        #expect(app.bannerText?.hasPrefix("Broken: failed to start") == true)
        #expect(!output.isHandedOver, "the display stayed with a program that never started")
        // The banner as drawn (with a fixed text: the real one names the random test folder).
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        app.showBanner("Broken: failed to start (No such file or directory)", now: now)
        Self.run(app, frame, from: &now, seconds: 0.2)
        try goldens.expectMatches(frame, "app-banner-800x480")
        // The banner goes away by itself.
        Self.run(app, frame, from: &now, seconds: KioskApp.bannerSeconds)
        #expect(app.bannerText == nil)
        #expect(app.screenNames == ["main"])
    }

    /// With handover actions off (the desktop preview), an `exec` item runs nothing and keeps
    /// the display; the banner and the status say what would have run. `spawn` still runs.
    @Test func handoverActionsOffSayWhatWouldRun() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let (runtime, output) = try Self.runtime(app, options: Runtime.Options(runsHandoverActions: false))
        try Self.turn(runtime) { output.presentedFrames > 0 && app.frameNeed == .none }
        app.handle(.command(.next, count: 1), now: MonotonicClock.now())  // "Run", an exec item
        try Self.turn(runtime) { app.currentScreen.selectedIndex == 1 && !app.currentScreen.isMoving }
        app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try Self.turn(runtime) { app.lastAction != nil }
        #expect(app.lastAction?.result == "would run \(sandbox.dir)/record exec two words")
        #expect(app.bannerText == "Run: would run \(sandbox.dir)/record exec two words")
        #expect(!output.isHandedOver)
        #expect(sandbox.record("exec") == nil, "the exec program ran")

        app.handle(.command(.next, count: 1), now: MonotonicClock.now())  // "Background", a spawn item
        try Self.turn(runtime) { app.currentScreen.selectedIndex == 2 && !app.currentScreen.isMoving }
        app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try Self.turn(runtime) { app.lastAction?.action == "spawn" && app.lastAction?.result.hasPrefix("exited") == true }
        #expect(sandbox.record("spawn") == ["spawn"])
    }

    /// Valid, invalid, truncated, binary, 10 MB, deleted and renamed-over files, one after another.
    @Test func reloadsKeepTheLastGoodConfig() throws {
        let sandbox = Sandbox()
        let (app, checker) = try Self.makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        Self.run(app, frame, from: &now, seconds: 0.1)
        app.handle(.command(.next, count: 2), now: now)  // "Background"
        Self.run(app, frame, from: &now, seconds: 1)

        // A valid replacement with one more item before it: the selection follows the label.
        let newItem = "\n[[screens.main.items]]\nlabel = \"Extra\"\naction = \"reload\"\n"
        sandbox.replace(Sandbox.config(dir: sandbox.dir, mainTitle: "Renamed", extraItem: newItem))
        #expect(app.apply(checker.check(), now: now))
        #expect(app.generation == 2 && app.configValid)
        #expect(app.currentScreen.config.title == "Renamed")
        #expect(app.currentScreen.config.items[app.currentScreen.selectedIndex].label == "Background")
        // Past the reload's cross-fade.
        Self.run(app, frame, from: &now, seconds: 0.5)
        let goodPixels = try PixelBuffer(width: 800, height: 480)
        try goodPixels.copyPixels(from: frame)

        let valid = try String(contentsOfFile: sandbox.config, encoding: .utf8)
        var bad: [(String, () -> Void)] = [
            ("syntax error", { sandbox.replace("[screens.main\nlabel = broken\n") }),
            ("truncated", { sandbox.replace(String(valid.prefix(valid.count / 2))) }),
            ("binary", { sandbox.write(sandbox.config, String(decoding: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }, as: UTF8.self) + "\0") }),
            ("10 MB", { sandbox.replace(valid + String(repeating: "# padding\n", count: 1_048_576)) }),
            ("deleted", { unlink(sandbox.config) }),
        ]
        bad.append(("unknown screen", { sandbox.replace(valid.replacingOccurrences(of: "screen = \"more\"", with: "screen = \"nowhere\"")) }))
        for (name, breakIt) in bad {
            breakIt()
            let check = checker.check()
            #expect(!check.isValid, "\(name) was accepted")
            #expect(!app.apply(check, now: now), "\(name)")
            #expect(app.generation == 2, "\(name) changed the generation")
            #expect(!app.configValid)
            #expect(app.bannerText?.hasPrefix("Config not applied") == true, "\(name): banner \(app.bannerText ?? "none")")
            #expect(app.currentScreen.config.title == "Renamed", "\(name) lost the running menu")
            // Everything but the banner still shows the last good menu.
            Self.run(app, frame, from: &now, seconds: 0.2)
            let shown = frame
            var outsideBanner = 0
            for y in 0..<400 { for x in 0..<800 where shown[x, y] != goodPixels[x, y] { outsideBanner += 1 } }
            #expect(outsideBanner == 0, "\(name): \(outsideBanner) pixels of the menu changed")
        }
        // Renamed back into place: applied again.
        sandbox.replace(valid)
        #expect(app.apply(checker.check(), now: now))
        #expect(app.generation == 3 && app.configValid && app.bannerText == nil)
    }

    /// A config applied while a finger drags the menu: the finger goes on moving the new menu and
    /// its release settles it on an item (the drag was lost before: the menu stayed off its stops).
    @Test func aReloadMidDragKeepsTheDrag() throws {
        let sandbox = Sandbox()
        let (app, checker) = try Self.makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        Self.run(app, frame, from: &now, seconds: 0.1)
        let start = app.currentScreen.position
        // The arc hugs the right edge: a finger on its rows, moving up, scrolls it on.
        var p = Point(x: 700, y: 300)
        app.handle(.gesture(.pressed(at: p, time: now)), now: now)
        app.handle(.gesture(.dragBegan(from: p, time: now)), now: now)
        func dragUp() {
            for _ in 0..<5 {
                now += 1.0 / 60
                p.y -= 12
                app.handle(.gesture(.dragMoved(to: p, delta: Point(x: 0, y: -12), time: now)), now: now)
                _ = app.advance(now: now)
            }
        }
        dragUp()
        let beforeReload = app.currentScreen.position
        #expect(beforeReload != start, "the drag did not move the menu")
        sandbox.replace(Sandbox.config(dir: sandbox.dir, mainTitle: "Renamed"))
        #expect(app.apply(checker.check(), now: now))
        #expect(app.currentScreen.config.title == "Renamed")
        #expect(app.currentScreen.position == beforeReload, "the new menu did not keep the dragged position")
        dragUp()
        let moved = app.currentScreen.position
        #expect(moved != beforeReload, "the finger no longer moves the menu after the reload")
        app.handle(.gesture(.dragEnded(at: p, time: now)), now: now)
        Self.run(app, frame, from: &now, seconds: 3)
        #expect(!app.currentScreen.isMoving)
        #expect(app.currentScreen.position.isIntegral, "the release did not settle the menu: \(app.currentScreen.position)")
    }

    @Test func idleTimeoutReturnsHome() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        app.handle(.command(.select, count: 1), now: now)
        Self.run(app, frame, from: &now, seconds: 1)
        #expect(app.screenNames == ["main", "more"])
        #expect(app.nextDeadline == 30)  // due 30 s after the last input
        now = 29.9
        _ = app.advance(now: now)
        #expect(app.screenNames == ["main", "more"])
        now = 30.1
        _ = app.advance(now: now)
        #expect(app.screenNames == ["main"])
        #expect(app.nextDeadline == nil, "nothing to return from at home")
    }

    @Test func statusIsJSONAndSaysWhatIsShown() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        app.handle(.command(.select, count: 1), now: now)
        Self.run(app, frame, from: &now, seconds: 1)
        let path = sandbox.dir + "/run/status.json"
        var doc = KioskStatus(pid: 42, config: app.configStatus(path: nil), menu: app.menuStatus, lock: app.lockStatus)
        doc.menu.banner = "quote \" backslash \\ newline \n tab \t control \u{1} delete \u{7F} é"
        try writeFileAtomically(path, doc.json)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let status = try #require(object)
        #expect(status["screen"] as? String == "more")
        #expect(status["screens"] as? [String] == ["main", "more"])
        #expect(status["generation"] as? Int == 1)
        #expect(status["config_valid"] as? Bool == true)
        #expect(status["pid"] as? Int == 42)
        #expect(status["banner"] as? String == "quote \" backslash \\ newline \n tab \t control \u{1} delete \u{7F} é")
        #expect((status["last_action"] as? [String: String])?["action"] == "screen")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }
}

extension AppTests {
    /// A display of another size: the same screens and selection, laid out for the new size.
    @Test func anotherDisplaySizeKeepsScreensAndSelection() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        var frame = try PixelBuffer(width: 800, height: 480)
        var now = 0.0
        app.handle(.command(.next, count: 2), now: now)
        Self.run(app, frame, from: &now, seconds: 1)
        try app.resize(width: 480, height: 800)
        frame = try PixelBuffer(width: 480, height: 800)
        Self.run(app, frame, from: &now, seconds: 0.2)
        #expect((app.width, app.height) == (480, 800))
        #expect(app.screenNames == ["main"])
        #expect(app.currentScreen.selectedIndex == 2)
    }
}

/// A horizontal arc (bottom edge) draws its rows as portrait tiles: icon over a label fitted to the width.
@Suite struct PortraitTileTests {
    @Test func bottomEdgeArcDrawsFittedTiles() throws {
        let icon = "\(goldens.directory)/../../../systemd/icons/settings.png"
        let items = ["Log", "Wait a moment longer", "Back"].map { MenuItem(label: $0, icon: icon, action: .back) }
        let config = ScreenConfig(name: "tools", title: "Tools",
                                  layout: .arc(ArcStyle(edge: .bottom, radiusRatio: 0.5, rowsVisible: 5, rowLength: 0.3)),
                                  sections: [MenuSection(items: items)])
        let screen = try ArcScreen(config: config, style: ArcStyle(edge: .bottom, radiusRatio: 0.5, rowsVisible: 5, rowLength: 0.3),
                                   resources: try ScreenFixtures.resources(imagePaths: [icon]), showsBack: false)
        let frame = try ScreenFixtures.frame(of: screen)
        try goldens.expectMatches(frame, "arc-bottom-tiles-800x480")
    }
}

extension AppTests {
    /// Half a detent turned on one screen does not count on the next: the runtime resets the knob
    /// when another screen is shown (through real device events and the input pipeline).
    @Test func partialKnobMotionStaysWithItsScreen() throws {
        let sandbox = Sandbox()
        let (app, _) = try Self.makeApp(sandbox)
        let (runtime, output) = try Self.runtime(app)
        try Self.turn(runtime) { output.presentedFrames > 0 }
        let now = { MonotonicClock.now() }
        runtime.deliver(.wheel(v120: 59, time: now()))  // short of the middle between two rests
        runtime.deliver(.key(code: KeyCode.enter, pressed: true, time: now()))
        try Self.turn(runtime) { app.screenNames == ["main", "more"] }
        #expect(app.screenNames == ["main", "more"])
        runtime.deliver(.wheel(v120: 59, time: now()))  // with the first 59 it would pass the middle
        try Self.turn(runtime) { app.frameNeed == .none && !app.isAnimating }
        #expect(app.currentScreen.selectedIndex == 0, "the old screen's half detent moved the new one")
        runtime.deliver(.wheel(v120: 2, time: now()))  // now past the middle: one item
        try Self.turn(runtime) { app.currentScreen.selectedIndex == 1 }
        #expect(app.currentScreen.selectedIndex == 1)
    }
}

/// Outputs report a presented frame from the loop, never from inside `present`: the runtime
/// must not be re-entered while it hands a frame over.
@Suite struct OutputContractTests {
    final class Spy: OutputDelegate {
        var presented = 0, fullFrames = 0
        func outputPresented() { presented += 1 }
        func outputNeedsFullFrame() { fullFrames += 1 }
    }

    @Test func headlessCompletionComesFromTheLoop() throws {
        let output = try HeadlessOutput(panelWidth: 64, panelHeight: 48, rotation: .quarter)
        let loop = try EventLoop()
        let spy = Spy()
        try output.attach(to: loop, delegate: spy)
        let frame = try PixelBuffer(width: output.logicalWidth, height: output.logicalHeight)
        #expect((frame.width, frame.height) == (48, 64))
        #expect(output.present(frame, damage: [frame.bounds]))
        #expect(spy.presented == 0, "completion reported from inside present")
        #expect(!output.isReady && !output.present(frame, damage: [frame.bounds]), "a second frame taken while one is in flight")
        try loop.runOnce(timeout: 1)
        #expect(spy.presented == 1 && output.isReady)
        output.handOver()
        #expect(!output.isReady && !output.present(frame, damage: [frame.bounds]))
        output.takeBack()
        #expect(spy.fullFrames == 1 && output.isReady)
    }
}
