import Geometry
@testable import KioskConfiguration
@testable import KioskSystem
@testable import MenuScreens
import Raster
import Testing
import Text
@testable import Kiosk

/// Changes of screen in motion (`ScreenTransition`, with time moved by hand), the app running them
/// frame by frame, and the banner that wraps.
@Suite(.serialized) struct TransitionTests {
    // MARK: The state alone

    @Test func styleAndChangeGiveTheKind() {
        func kind(_ change: ScreenChange, _ style: TransitionStyle) -> ScreenTransition.Kind? {
            ScreenTransition(change, style: style, start: 0, reading: .leftToRight)?.kind
        }
        #expect(kind(.push, .slide) == .push && kind(.pop, .slide) == .pop && kind(.replace, .slide) == .fade)
        #expect(kind(.push, .fade) == .fade && kind(.pop, .fade) == .fade && kind(.replace, .fade) == .fade)
        #expect(kind(.push, .none) == nil && kind(.pop, .none) == nil && kind(.replace, .none) == nil)
    }

    /// Ease-out cubic over the duration: half the time is 7/8 of the way; clamped at both ends.
    @Test func progressIsEasedOutAndClamped() {
        let t = ScreenTransition(kind: .push, start: 10)
        #expect(t.progress(at: 9) == 0 && t.progress(at: 10) == 0)
        #expect(abs(t.progress(at: 10 + ScreenTransition.duration / 2) - 0.875) < 1e-12)
        #expect(t.progress(at: 10 + ScreenTransition.duration) == 1 && t.progress(at: 100) == 1)
        #expect(!t.isFinished(at: 10.2) && t.isFinished(at: 10.25))
        // Every step moves forward, the early ones most.
        let samples = (0...25).map { t.progress(at: 10 + Double($0) / 100) }
        let steps = zip(samples, samples.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 > 0 } && zip(steps, steps.dropFirst()).allSatisfy { $1 < $0 })
        #expect(ScreenTransition(kind: .fade, start: 0, duration: 0).isFinished(at: 0))
        #expect(t.progress(at: .nan) == 1)
    }

    /// A push brings the new picture from the right (the old one leaving to the left beside it); a
    /// pop the other way; right to left mirrors both.
    @Test func slidesMoveTheWayTheyShould() {
        let w = 800
        for (kind, rtl, startX) in [(ScreenTransition.Kind.push, ReadingDirection.leftToRight, 800), (.pop, .leftToRight, -800),
                                    (.push, .rightToLeft, -800), (.pop, .rightToLeft, 800)] {
            let t = ScreenTransition(kind: kind, start: 0, reading: rtl)
            #expect(t.incomingX(width: w, at: 0) == startX, "\(kind) rtl \(rtl)")
            #expect(t.incomingX(width: w, at: 0.125) == startX / 8, "\(kind) rtl \(rtl)")
            #expect(t.incomingX(width: w, at: 0.25) == 0, "\(kind) rtl \(rtl)")
        }
    }

    @Test func configSaysWhichTransition() throws {
        let scratch = ScratchDirectory()
        for (text, expected) in [("", TransitionStyle.slide), ("transition = \"fade\"\n", .fade), ("transition = \"none\"\n", .none)] {
            let check = ConfigReader(path: scratch.write("k.toml", text + minimalConfig()), displayName: "k.toml").check()
            #expect(check.config?.transition == expected, "\(lines(check.problems))")
        }
        let wrong = ConfigReader(path: scratch.write("k.toml", "transition = \"slid\"\n" + minimalConfig()), displayName: "k.toml").check()
        #expect(lines(wrong.problems) == #"k.toml:1:14: transition: expected one of "slide", "fade", "none", got "slid" (did you mean "slide"?)"#)
    }

    // MARK: In the app

    /// An app on the test config of `AppTests` with `transition` set, at `width` x `height`.
    static func makeApp(_ sandbox: AppTests.Sandbox, transition: String? = nil, width: Int = 800, height: Int = 480) throws -> KioskApp {
        if let transition {
            sandbox.replace("transition = \"\(transition)\"\n" + AppTests.Sandbox.config(dir: sandbox.dir))
        }
        let check = ConfigReader(path: sandbox.config).check()
        return try KioskApp(config: try #require(check.config), width: width, height: height, now: 0)
    }

    /// An app on the test config with its first frames drawn (until 0.1 s) into the frame returned.
    static func settledApp(_ sandbox: AppTests.Sandbox) throws -> (KioskApp, PixelBuffer, Canvas) {
        let app = try makeApp(sandbox)
        let frame = try PixelBuffer(width: 800, height: 480)
        let canvas = Canvas(frame)
        for i in 0..<6 { pass(app, canvas, at: Double(i) / 60) }
        return (app, frame, canvas)
    }

    /// One pass of the runtime at `now`: advance, then draw; returns the damage.
    @discardableResult
    static func pass(_ app: KioskApp, _ canvas: Canvas, at now: Double) -> [PixelRect] {
        _ = app.advance(now: now)
        canvas.resetClip()
        guard app.frameNeed != .none else { return [] }
        defer { app.frameTaken() }
        return app.draw(on: canvas, full: false)
    }

    /// Opening a screen slides it in (golden half way through), one frame per pass while it moves,
    /// whole frames each; then the screen itself, and nothing more to draw.
    @Test func pushSlidesInThenRests() throws {
        let sandbox = AppTests.Sandbox()
        let (app, frame, canvas) = try Self.settledApp(sandbox)
        #expect(app.frameNeed == .none && !app.isAnimating)
        let start = 0.1
        app.handle(.command(.select, count: 1), now: start)  // "More"
        Self.pass(app, canvas, at: start)
        #expect(app.currentTransition?.kind == .push && app.screenNames == ["main", "more"])
        // Its frame is drawn; time moving on makes the next one due.
        #expect(app.isAnimating && app.frameNeed == .none)
        _ = app.advance(now: start + 0.01)
        #expect(app.frameNeed != .none)
        let damage = Self.pass(app, canvas, at: start + ScreenTransition.duration / 2)
        #expect(damage == [frame.bounds])
        try goldens.expectMatches(frame, "transition-push-50-800x480")
        Self.pass(app, canvas, at: start + ScreenTransition.duration + 1.0 / 60)
        #expect(app.currentTransition == nil && !app.isAnimating)
        try goldens.expectMatches(frame, "app-more-800x480")
        #expect(app.frameNeed == .none, "frames go on after the transition")

        // Back slides the other way, and ends on the home screen as it was.
        app.handle(.command(.back, count: 1), now: 1)
        Self.pass(app, canvas, at: 1)
        #expect(app.currentTransition?.kind == .pop)
        Self.pass(app, canvas, at: 1.1)
        Self.pass(app, canvas, at: 1.3)
        #expect(app.currentTransition == nil && app.frameNeed == .none && app.screenNames == ["main"])
        try goldens.expectMatches(frame, "app-home-800x480")
    }

    /// Through the runtime on a headless output (whose flips complete at once): frames while the
    /// transition runs, then none at all.
    @Test func runtimeDrawsTheTransitionThenIdles() throws {
        let sandbox = AppTests.Sandbox()
        let app = try Self.makeApp(sandbox)
        let (runtime, output) = try AppTests.runtime(app)
        try AppTests.turn(runtime) { output.presentedFrames > 0 && app.frameNeed == .none && !app.isAnimating }
        let before = output.presentedFrames
        app.handle(.command(.select, count: 1), now: MonotonicClock.now())
        try AppTests.turn(runtime) { app.screenNames.count == 2 && app.currentTransition == nil && app.frameNeed == .none }
        let after = output.presentedFrames
        // At least its first frame and the screen at rest; how many between depends on the host's speed.
        #expect(after - before >= 2, "\(after - before) frames for a transition")
        for _ in 0..<10 { try runtime.runOnce(timeout: 0.02) }
        #expect(output.presentedFrames == after, "frames after the transition ended")
    }

    /// Input during a transition ends it at once and goes to the screen coming in.
    @Test func inputInterruptsATransition() throws {
        let sandbox = AppTests.Sandbox()
        let app = try Self.makeApp(sandbox)
        let canvas = Canvas(try PixelBuffer(width: 800, height: 480))
        Self.pass(app, canvas, at: 0)
        app.handle(.command(.select, count: 1), now: 0.1)
        Self.pass(app, canvas, at: 0.1)
        Self.pass(app, canvas, at: 0.13)
        #expect(app.currentTransition != nil)
        app.handle(.command(.next, count: 1), now: 0.15)
        #expect(app.currentTransition == nil && app.frameNeed != .none)
        #expect(app.currentScreen.config.name == "more" && app.currentScreen.selectedIndex == 1)
        var now = 0.15
        while now < 1 { Self.pass(app, canvas, at: now); now += 1.0 / 60 }
        #expect(app.frameNeed == .none && !app.isAnimating)
    }

    /// Opening a screen slides by default, cross-fades with `transition = "fade"`, and with
    /// `"none"` the screen changes at once.
    @Test(arguments: [("slide", ScreenTransition.Kind?.some(.push)), ("fade", .fade), ("none", nil)])
    func styleDecidesHowAScreenOpens(style: String, kind: ScreenTransition.Kind?) throws {
        let sandbox = AppTests.Sandbox()
        let app = try Self.makeApp(sandbox, transition: style)
        let canvas = Canvas(try PixelBuffer(width: 800, height: 480))
        Self.pass(app, canvas, at: 0)
        app.handle(.command(.select, count: 1), now: 0.1)
        Self.pass(app, canvas, at: 0.1)
        #expect(app.currentTransition?.kind == kind && app.screenNames == ["main", "more"])
    }

    /// A reload cross-fades (golden half way); past the first frame only where the two pictures
    /// differ (here the title) is drawn again.
    @Test func reloadCrossFades() throws {
        let sandbox = AppTests.Sandbox()
        let (app, frame, canvas) = try Self.settledApp(sandbox)
        sandbox.replace(AppTests.Sandbox.config(dir: sandbox.dir, mainTitle: "Coffee"))
        #expect(app.apply(ConfigReader(path: sandbox.config).check(), now: 0.2))
        #expect(app.currentTransition?.kind == .fade)
        #expect(Self.pass(app, canvas, at: 0.2) == [frame.bounds])
        let damage = Self.pass(app, canvas, at: 0.2 + ScreenTransition.duration / 2)
        let changed = try #require(damage.first)
        #expect(changed.y < 80 && changed.maxY < 100 && changed.width < 300, "the fade redrew \(changed)")
        try goldens.expectMatches(frame, "transition-fade-50-800x480")
        Self.pass(app, canvas, at: 0.5)
        #expect(app.currentTransition == nil && app.frameNeed == .none)
    }

    // MARK: The banner

    static let longProblem = ConfigProblem(.error, file: "/etc/kiosk/releases/2026-11-24T03-00/kiosk.toml",
                                           at: ConfigLocation(line: 42, column: 11, keyPath: "screens.coffee.items"),
                                           "\"/usr/local/bin/coffee-machine-selftest\" does not exist or is not executable by the kiosk user")

    /// The error first, then the file, line and key.
    @Test func bannerLeadsWithTheError() throws {
        #expect(Self.longProblem.messageFirst == "\"/usr/local/bin/coffee-machine-selftest\" does not exist or is not executable by the kiosk user"
            + " — /etc/kiosk/releases/2026-11-24T03-00/kiosk.toml:42:11, screens.coffee.items")
        let sandbox = AppTests.Sandbox()
        let app = try Self.makeApp(sandbox)
        sandbox.replace("[screens.main\n")
        #expect(!app.apply(ConfigReader(path: sandbox.config).check(), now: 0))
        let text = try #require(app.bannerText)
        #expect(text.hasPrefix("Config not applied: ") && !text.hasPrefix("Config not applied: /"), "\(text)")
        #expect(text.contains(" — \(sandbox.config):1:"), "\(text)")
    }

    /// Up to three lines, each within the width, breaking after spaces and slashes (or inside a
    /// word longer than a line); nothing lost but what the third line cannot hold.
    @Test func bannerWraps() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        let text = "Config not applied: " + Self.longProblem.messageFirst
        let size = Banner.textSize(height: 600), width = 1024 - 2 * size
        let lines = Banner.wrap(text, font: font, size: size, width: width, maxLines: 3)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.dropLast().allSatisfy { font.measure($0, size: size) <= width }, "\(lines)")
        #expect(lines.joined(separator: " ").filter { $0 != " " } == text.filter { $0 != " " }, "\(lines)")
        #expect(Banner.wrap("Short", font: font, size: size, width: width, maxLines: 3) == ["Short"])
        let word = String(repeating: "W", count: 200)
        let split = Banner.wrap(word, font: font, size: size, width: 300, maxLines: 3)
        #expect(split.count == 3 && split[0].count > 1 && font.measure(split[0], size: size) <= 300, "\(split)")
        #expect(Banner.wrap("", font: font, size: size, width: 300, maxLines: 3) == [""])
    }

    @Test func bannerAt1024x600() throws {
        let sandbox = AppTests.Sandbox()
        let app = try Self.makeApp(sandbox, width: 1024, height: 600)
        let frame = try PixelBuffer(width: 1024, height: 600)
        let canvas = Canvas(frame)
        app.showBanner("Config not applied: " + Self.longProblem.messageFirst, now: 0)
        Self.pass(app, canvas, at: 0)
        Self.pass(app, canvas, at: 0.1)
        try goldens.expectMatches(frame, "banner-wrapped-1024x600")
    }
}
