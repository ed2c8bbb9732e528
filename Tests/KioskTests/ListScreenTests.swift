import Geometry
@testable import Kiosk
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing

/// The grouped list driven as the app drives it: input between frames at 60 Hz, time moved by hand.
@Suite struct ListMenuControllerTests {
    /// Three sections of 5, 6 and 4 rows 50 px high in 2 columns, a 280 px viewport below a 40 px header.
    static let layout = ListLayout(width: 600, sections: [
        ListSection(headerHeight: 30, rowHeights: Array(repeating: 50, count: 5)),
        ListSection(headerHeight: 30, rowHeights: Array(repeating: 50, count: 6)),
        ListSection(headerHeight: 30, rowHeights: Array(repeating: 50, count: 4)),
    ], metrics: ListMetrics(columns: 2))
    static let viewport = Rect(x: 0, y: 40, width: 600, height: 280)

    static func frames(_ m: inout ListMenuController, from now: inout Double, seconds: Double,
                       each: (ListMenuController) -> Void = { _ in }) -> [MenuEvent] {
        var events: [MenuEvent] = []
        let end = now + seconds
        while now < end {
            events += m.update(now: now)
            each(m)
            now += 1.0 / 60
        }
        return events
    }

    /// Moves the finger from `p` by `dy` a frame for `frames` frames at 60 Hz (pressing it down
    /// first when `press`); returns where it ends.
    static func drag(_ m: inout ListMenuController, from p: Point, dy: Double, frames: Int, press: Bool = true,
                     now: inout Double) -> Point {
        if press { m.handle(.gesture(.pressed(at: p, time: now)), now: now) }
        var p = p
        for _ in 0..<frames {
            now += 1.0 / 60
            let q = Point(x: p.x, y: p.y + dy)
            m.handle(.gesture(.dragMoved(to: q, delta: q - p, time: now)), now: now)
            p = q
        }
        return p
    }

    static func fullyVisible(_ m: ListMenuController, _ row: Int) -> Bool {
        guard let f = m.screenFrame(ofRow: row) else { return false }
        return f.minY >= viewport.minY - 1e-9 && f.maxY <= viewport.maxY + 1e-9
    }

    @Test func knobMovesFocusInReadingOrderAndRevealsIt() {
        var m = ListMenuController(layout: Self.layout, viewport: Self.viewport)
        var now = 0.0
        #expect(Self.frames(&m, from: &now, seconds: 0.1) == [.selected(0)])
        let maxOffset = Self.layout.maximumOffset(viewportHeight: 280)
        for expected in 1..<15 {
            m.handle(.command(.next, count: 1), now: now)
            let events = Self.frames(&m, from: &now, seconds: 1)
            #expect(events == [.selected(expected)])
            #expect(m.selectedIndex == expected)
            #expect(Self.fullyVisible(m, expected), "row \(expected) in view")
            #expect(m.offset >= 0 && m.offset <= maxOffset.rounded(.up))
        }
        // Reading order alternates columns within a section (equal heights: shortest column, leftmost first).
        #expect(Self.layout.rows[0].column == 0 && Self.layout.rows[1].column == 1 && Self.layout.rows[2].column == 0)
        // The end stops it; the way back scrolls to the top.
        m.handle(.command(.next, count: 1), now: now)
        #expect(Self.frames(&m, from: &now, seconds: 1) == [])
        m.handle(.command(.previous, count: 14), now: now)
        #expect(Self.frames(&m, from: &now, seconds: 2) == [.selected(0)])
        #expect(m.offset == 0)  // with the first section's title
        m.handle(.command(.select, count: 1), now: now)
        #expect(m.update(now: now) == [.activated(0)])
    }

    @Test func knobBurstLandsOnce() {
        var m = ListMenuController(layout: Self.layout, viewport: Self.viewport)
        var now = 0.0
        _ = m.update(now: now)
        for i in 0..<9 { m.handle(.command(.next, count: 1), now: now + Double(i) * 0.004) }
        #expect(Self.frames(&m, from: &now, seconds: 2) == [.selected(9)])
        #expect(Self.fullyVisible(m, 9))
    }

    @Test func tapActivatesTheRowUnderTheFinger() {
        var m = ListMenuController(layout: Self.layout, viewport: Self.viewport)
        var now = 0.0
        _ = m.update(now: now)
        let row3 = m.screenFrame(ofRow: 3)!
        m.handle(.gesture(.pressed(at: row3.center, time: now)), now: now)
        m.handle(.gesture(.tap(at: row3.center, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 1) == [.tapped(3), .activated(3), .selected(3)])
        // A section title is not a row.
        let header = Self.layout.headers[0].frame.offsetBy(dx: 0, dy: Self.viewport.minY)
        m.handle(.gesture(.pressed(at: header.center, time: now)), now: now)
        m.handle(.gesture(.tap(at: header.center, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 0.5) == [])
        // A partly hidden row is scrolled into view when tapped.
        let bottomRow = (0..<15).first { m.screenFrame(ofRow: $0)!.maxY > Self.viewport.maxY && m.screenFrame(ofRow: $0)!.minY < Self.viewport.maxY - 10 }!
        let p = Point(x: m.screenFrame(ofRow: bottomRow)!.midX, y: Self.viewport.maxY - 5)
        m.handle(.gesture(.pressed(at: p, time: now)), now: now)
        m.handle(.gesture(.tap(at: p, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 1) == [.tapped(bottomRow), .activated(bottomRow), .selected(bottomRow)])
        #expect(Self.fullyVisible(m, bottomRow))
    }

    @Test func dragIsOneToOneAndFlickStaysInBoundsAndSettles() {
        var m = ListMenuController(layout: Self.layout, viewport: Self.viewport)
        var now = 0.0
        _ = m.update(now: now)
        let maxOffset = Double(Int(Self.layout.maximumOffset(viewportHeight: 280).rounded(.up)))
        // Slowly up by 100 px: the content follows the finger exactly.
        var p = Self.drag(&m, from: Point(x: 300, y: 300), dy: -5, frames: 20, now: &now)
        #expect(m.offset == 100)
        // Then flicked hard upwards: momentum, clamped at the end, settled on a whole pixel.
        p = Self.drag(&m, from: p, dy: -60, frames: 5, press: false, now: &now)
        m.handle(.gesture(.dragEnded(at: p, time: now)), now: now)
        var inBounds = true
        let events = Self.frames(&m, from: &now, seconds: 3) { m in
            if m.offset < 0 || m.offset > maxOffset { inBounds = false }
        }
        #expect(inBounds)
        #expect(events.count == 2)
        if case .released(let v, _)? = events.first { #expect(v > 1000) } else { Issue.record("no release: \(events)") }
        #expect(events.last == .selected(0))
        #expect(m.offset == maxOffset && !m.isMoving)
        // A tap while it flies back down stops it and activates nothing.
        p = Self.drag(&m, from: p, dy: 40, frames: 5, now: &now)
        m.handle(.gesture(.dragEnded(at: p, time: now)), now: now)
        _ = Self.frames(&m, from: &now, seconds: 0.05)
        #expect(m.isMoving)
        m.handle(.gesture(.pressed(at: Point(x: 150, y: 200), time: now)), now: now)
        m.handle(.gesture(.tap(at: Point(x: 150, y: 200), time: now + 0.05)), now: now + 0.05)
        let afterTap = Self.frames(&m, from: &now, seconds: 1)
        #expect(!afterTap.contains { if case .activated = $0 { true } else { false } })
        #expect(m.offset > 0 && m.offset < maxOffset && !m.isMoving)
    }

    /// After scrolling away by touch, the knob continues from the rows in view, not from the old focus.
    @Test func knobAfterTouchScrollStartsFromWhatIsVisible() {
        var m = ListMenuController(layout: Self.layout, viewport: Self.viewport)
        var now = 0.0
        _ = m.update(now: now)
        let p = Self.drag(&m, from: Point(x: 300, y: 300), dy: -5, frames: 20, now: &now)
        now += 0.2
        m.handle(.gesture(.dragEnded(at: p, time: now)), now: now)
        _ = Self.frames(&m, from: &now, seconds: 1)
        #expect(m.offset == 100 && !Self.fullyVisible(m, 0))
        m.handle(.command(.next, count: 1), now: now)
        _ = Self.frames(&m, from: &now, seconds: 1)
        let firstVisible = (0..<15).first { Self.fullyVisible(m, $0) }!
        #expect(firstVisible == 4 && m.selectedIndex == 4)
        #expect(m.offset == 100)  // it was in view already: nothing scrolled
    }
}

/// The list screen rendered.
@Suite(.serialized) struct ListScreenTests {
    static func screen(showsBack: Bool = true) throws -> ListScreen {
        try ListScreen(config: ScreenFixtures.listConfig(), style: ListStyle(columns: 2, rowHeight: 0.1),
                       resources: try ScreenFixtures.resources(), showsBack: showsBack)
    }

    static func rgb(_ buffer: PixelBuffer, _ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int) {
        let v = buffer[Int(x), Int(y)]!
        return (Int((v >> 16) & 0xFF), Int((v >> 8) & 0xFF), Int(v & 0xFF))
    }

    @Test func layoutIsColumnarAndCornersFollowThePlaceInTheSection() throws {
        let s = try Self.screen()
        s.select(5)
        let frame = try ScreenFixtures.frame(of: s)
        let rows = s.shape.layout.rows
        #expect(rows.count == 14)
        #expect(Set(rows.map(\.column)) == [0, 1])
        #expect(rows.allSatisfy { $0.frame.height == 48 })  // 0.1 × 480
        // The screen's selection is the focused row's flat item index.
        #expect(s.selectedIndex == 5)
        #expect(s.config.items[5].label == "Screen saver")
        // A rounded top corner shows the background; a square (middle) corner shows the row.
        let top = try #require(rows.firstIndex { $0.position == .top })
        let middle = try #require(rows.firstIndex { $0.position == .middle || $0.position == .bottom })
        let viewportTop = try ScreenFixtures.resources().headerHeight
        let offsetY = viewportTop - s.controllerOffset
        func corner(_ i: Int) -> (r: Int, g: Int, b: Int) {
            Self.rgb(frame, rows[i].frame.minX + 1, rows[i].frame.minY + offsetY + 3)
        }
        // The row fill over either colour of the checker behind it.
        let theme = ThemeConfig(), background = s.config.background
        let plates = [background.background, background.foreground].map { theme.row.composited(over: $0, opacity: theme.rowOpacity) }
        func isPlate(_ c: (r: Int, g: Int, b: Int)) -> Bool {
            plates.contains { abs(Int($0.red) - c.r) <= 2 && abs(Int($0.green) - c.g) <= 2 && abs(Int($0.blue) - c.b) <= 2 }
        }
        #expect(!isPlate(corner(top)))  // the background behind the rounded corner
        #expect(isPlate(corner(middle)))  // the row fill in the square corner
        // The selection is filled and outlined: the outline at its left edge, the fill inside.
        let focused = rows[5].frame.offsetBy(dx: 0, dy: offsetY)
        let ring = Self.rgb(frame, focused.minX + 0.5, focused.midY)
        #expect(ring.b > 200 && ring.r < 140)
        let fill = Self.rgb(frame, focused.minX + 6, focused.minY + 6)
        #expect(fill == (Int(theme.selectedRow.red), Int(theme.selectedRow.green), Int(theme.selectedRow.blue)))
        let other = rows[4].frame.offsetBy(dx: 0, dy: offsetY)
        #expect(Self.rgb(frame, other.minX + 0.5, other.midY).b < 120)
        try goldens.expectMatches(frame, "list-800x480")
    }

    @Test func scrolledUnderTheHeaderAndDamageIsTheContentArea() throws {
        let s = try Self.screen()
        let buffer = try ScreenFixtures.frame(of: s)
        let full = try ScreenFixtures.frame(of: s)
        #expect(buffer.hasSamePixels(as: full))
        s.handle(.command(.next, count: 11), now: 0)
        _ = s.update(now: 2)
        let damage = s.draw(on: Canvas(buffer), full: false)
        let header = Int(try ScreenFixtures.resources().headerHeight)
        #expect(damage == PixelRect(x: 0, y: header, width: 800, height: 480 - header))
        #expect(s.selectedIndex == 11 && !s.isMoving)
        // The header band kept the first frame's pixels; the content moved.
        #expect(try buffer.view(of: PixelRect(x: 0, y: 0, width: 800, height: header))
            .hasSamePixels(as: try full.view(of: PixelRect(x: 0, y: 0, width: 800, height: header))))
        #expect(!buffer.hasSamePixels(as: full))
        try goldens.expectMatches(buffer, "list-scrolled-800x480")
    }

    @Test func backButtonTapSaysBack() throws {
        let s = try Self.screen()
        _ = try ScreenFixtures.frame(of: s)
        let b = try ScreenFixtures.resources().backButton(reading: .leftToRight)
        s.handle(.gesture(.pressed(at: Point(x: b.midX, y: b.midY), time: 0)), now: 0)
        s.handle(.gesture(.tap(at: Point(x: b.midX, y: b.midY), time: 0.05)), now: 0.05)
        let events = s.update(now: 0.1)
        #expect(events.contains(.back))
        #expect(!events.contains { if case .activated = $0 { true } else { false } })
    }
}

/// The arc screen, which had no golden yet.
@Suite(.serialized) struct ArcScreenGoldenTests {
    @Test func arcScreenFrame() throws {
        let config = ScreenFixtures.arcConfig()
        guard case .arc(let style) = config.layout else { return }
        let s = try ArcScreen(config: config, style: style, resources: try ScreenFixtures.resources(), showsBack: false)
        s.select(3)
        let frame = try ScreenFixtures.frame(of: s)
        #expect(s.selectedIndex == 3)
        try goldens.expectMatches(frame, "arc-800x480")
    }
}

extension ListScreen {
    /// The content's scroll offset in pixels, for tests that locate rows on screen.
    var controllerOffset: Double { shape.controller.offset }
}
