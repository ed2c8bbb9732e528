import Geometry
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing
@testable import Kiosk

/// Touch-down shows the plate pressed on the next frame; a drag, a lift or a cancel ends it.
@Suite(.serialized) struct PressFeedbackTests {
    typealias Shape = ScreenGestureTests.Shape

    static func pressed(_ screen: MenuScreen) -> PressTarget? {
        switch screen {
        case let s as ArcScreen: s.shape.controller.motion.pressed
        case let s as DialScreen: s.shape.controller.motion.pressed
        case let s as ListScreen: s.shape.controller.motion.pressed
        default: nil
        }
    }

    /// A screen that has drawn its first frame, and the point of its item 2.
    static func settled(_ shape: Shape, now: inout Double) throws -> (MenuScreen, Point) {
        let screen = try shape.make()
        _ = ScreenGestureTests.frames(screen, from: &now, seconds: 0.1)
        _ = screen.draw(on: Canvas(try PixelBuffer(width: ScreenFixtures.width, height: ScreenFixtures.height)), full: true)
        return (screen, try #require(shape.point(of: 2, on: screen)))
    }

    @Test(arguments: Shape.allCases)
    func touchDownPressesThePlateUntilItLifts(shape: Shape) throws {
        var now = 0.0
        let (screen, p) = try Self.settled(shape, now: &now)
        #expect(!screen.needsFrame && Self.pressed(screen) == nil)
        screen.handle(.gesture(.pressed(at: p, time: now)), now: now)
        #expect(screen.needsFrame, "the pressed look is due on the next frame")
        guard case .item(let item)? = Self.pressed(screen) else {
            Issue.record("\(shape): nothing pressed")
            return
        }
        if shape == .list { #expect(item == 2) }
        _ = screen.update(now: now)
        #expect(!screen.needsFrame)
        now += 0.05
        screen.handle(.gesture(.tap(at: p, time: now)), now: now)
        #expect(Self.pressed(screen) == nil && screen.needsFrame)
        #expect(ScreenGestureTests.frames(screen, from: &now, seconds: 1).contains(.tapped(2)), "lift activates or selects as before")
    }

    @Test(arguments: Shape.allCases)
    func aDragOrACancelEndsThePress(shape: Shape) throws {
        var now = 0.0
        let (screen, p) = try Self.settled(shape, now: &now)
        screen.handle(.gesture(.pressed(at: p, time: now)), now: now)
        #expect(Self.pressed(screen) != nil)
        screen.handle(.gesture(.dragBegan(from: p, time: now + 0.02)), now: now + 0.02)
        #expect(Self.pressed(screen) == nil, "the press became a scroll")
        screen.handle(.gesture(.dragEnded(at: p, time: now + 0.04)), now: now + 0.04)
        now += 1
        _ = ScreenGestureTests.frames(screen, from: &now, seconds: 1)
        screen.handle(.gesture(.pressed(at: try #require(shape.point(of: 2, on: screen)), time: now)), now: now)
        #expect(Self.pressed(screen) != nil)
        screen.handle(.gesture(.cancelled(time: now + 1)), now: now + 1)
        #expect(Self.pressed(screen) == nil)
    }

    @Test func aLongPressLiftsAsACancel() {
        var recognizer = TouchGestureRecognizer(maximumTapDuration: 0.8)
        _ = recognizer.handle(.down(slot: 0, at: Point(x: 5, y: 5), time: 0))
        #expect(recognizer.handle(.up(slot: 0, time: 2)) == [.cancelled(time: 2)])
    }

    @Test func theDialHubAndNothingOffTheDialPress() throws {
        var now = 0.0
        let (screen, _) = try Self.settled(.dial, now: &now)
        let dial = try #require(screen as? DialScreen)
        screen.handle(.gesture(.pressed(at: dial.shape.geometry.layout.center, time: now)), now: now)
        #expect(Self.pressed(screen) == .hub)
        screen.handle(.gesture(.cancelled(time: now)), now: now)
        screen.handle(.gesture(.pressed(at: Point(x: 5, y: Double(ScreenFixtures.height - 5)), time: now)), now: now)
        #expect(Self.pressed(screen) == nil)
    }

    @Test func aPressThatStopsAFlingingListPressesNothing() throws {
        var now = 0.0
        let (screen, p) = try Self.settled(.list, now: &now)
        screen.handle(.gesture(.pressed(at: p, time: now)), now: now)
        screen.handle(.gesture(.dragBegan(from: p, time: now)), now: now)
        for i in 1...5 {
            screen.handle(.gesture(.dragMoved(to: Point(x: p.x, y: p.y - Double(i) * 20), delta: Point(x: 0, y: -20), time: now + Double(i) / 60)),
                          now: now + Double(i) / 60)
        }
        now += 5.0 / 60
        screen.handle(.gesture(.dragEnded(at: Point(x: p.x, y: p.y - 100), time: now)), now: now)
        now += 1.0 / 60
        _ = screen.update(now: now)
        #expect(screen.isMoving)
        screen.handle(.gesture(.pressed(at: p, time: now)), now: now)
        #expect(Self.pressed(screen) == nil)
    }

    /// The arc with item 3 at the apex, a finger down on item 4: the pressed plate beside the selected one.
    @Test func pressedPlateGolden() throws {
        let config = ScreenFixtures.arcConfig()
        guard case .arc(let style) = config.layout else { return }
        let s = try ArcScreen(config: config, style: style, resources: try ScreenFixtures.resources(), showsBack: false)
        s.select(3)
        _ = s.update(now: 0)
        let c = s.shape.controller
        let row = try #require(c.layout.visibleRows(at: c.viewOffset, domain: c.scroller.domain).first { $0.index == 4 })
        s.handle(.gesture(.pressed(at: row.center, time: 0)), now: 0)
        let frame = try ScreenFixtures.frame(of: s)
        let theme = ThemeConfig()
        let pixel = frame[Int(row.frame.minX + 4), Int(row.center.y)]!
        #expect(pixel & 0xFF_FFFF == (UInt32(theme.pressedRow.red) << 16) | (UInt32(theme.pressedRow.green) << 8) | UInt32(theme.pressedRow.blue))
        try goldens.expectMatches(frame, "arc-pressed-800x480")
    }
}

/// The list's selection plate glides to the next row instead of jumping.
@Suite(.serialized) struct ListGlideTests {
    @Test func theSelectionGlidesEasedAndThenRests() throws {
        let s = try ListScreenTests.screen()
        var now = 0.0
        _ = ScreenGestureTests.frames(s, from: &now, seconds: 0.1)
        let c0 = s.shape.controller
        let from = try #require(c0.selectionFrame)
        #expect(from == c0.layout.rows[0].frame && !s.isMoving)
        s.handle(.command(.next, count: 1), now: now)
        #expect(s.isMoving && s.needsFrame)
        let to = s.shape.controller.layout.rows[1].frame
        _ = s.update(now: now + ListMenuController.glideDuration / 2)
        let mid = try #require(s.shape.controller.selectionFrame)
        // Eased out: past the middle at half the time (1 - 0.5³ = 0.875 of the way).
        let expectedX = from.minX + (to.minX - from.minX) * 0.875
        #expect(abs(mid.minX - expectedX) < 1e-9 && abs(mid.minY - (from.minY + (to.minY - from.minY) * 0.875)) < 1e-9)
        #expect(s.isMoving)
        var frame = try ScreenFixtures.frame(of: s, now: now + ListMenuController.glideDuration / 2)
        try goldens.expectMatches(frame, "list-glide-800x480")
        _ = s.update(now: now + ListMenuController.glideDuration + 0.001)
        #expect(s.shape.controller.selectionFrame == to)
        #expect(!s.isMoving, "idle once the glide is done")
        // A jump (restoring a selection) does not glide.
        s.select(5)
        #expect(!s.isMoving && s.shape.controller.selectionFrame == s.shape.controller.layout.rows[5].frame)
        frame = try ScreenFixtures.frame(of: s, now: now + 1)
        #expect(!s.isMoving)
    }
}

/// Each preset on an arc screen and a list screen, on the preset's own background.
@Suite(.serialized) struct PresetGoldenTests {
    @Test(arguments: ThemePreset.allCases)
    func presetScreens(preset: ThemePreset) throws {
        let resources = try ScreenFixtures.resources(theme: ThemeConfig(preset: preset))
        var arcConfig = ScreenFixtures.arcConfig()
        arcConfig.background = BackgroundConfig(preset: preset)
        guard case .arc(let style) = arcConfig.layout else { return }
        let arc = try ArcScreen(config: arcConfig, style: style, resources: resources, showsBack: true)
        arc.select(3)
        try goldens.expectMatches(try ScreenFixtures.frame(of: arc), "preset-\(preset.rawValue)-arc-800x480")
        var listConfig = ScreenFixtures.listConfig()
        listConfig.background = BackgroundConfig(preset: preset)
        let list = try ListScreen(config: listConfig, style: ListStyle(columns: 2, rowHeight: 0.1), resources: resources, showsBack: true)
        list.select(5)
        try goldens.expectMatches(try ScreenFixtures.frame(of: list), "preset-\(preset.rawValue)-list-800x480")
    }
}
