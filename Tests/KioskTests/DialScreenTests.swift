import Geometry
import Kiosk
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Raster
import Testing

/// The dial driven as the app drives it: input between frames at 60 Hz, time moved by hand.
@Suite struct DialMenuControllerTests {
    /// A 600x600 area centred at (300, 300); 8 slots, so one item is 45°.
    static func geometry(slots: Int = 8, count: Int = 8) -> DialGeometry {
        DialGeometry(style: DialStyle(slots: slots, radius: 0.4), area: Rect(x: 0, y: 0, width: 600, height: 600),
                     screenMin: 600, count: count, highlightWidth: 2)
    }

    static func frames(_ m: inout DialMenuController, from now: inout Double, seconds: Double) -> [MenuEvent] {
        var events: [MenuEvent] = []
        let end = now + seconds
        while now < end {
            events += m.update(now: now)
            now += 1.0 / 60
        }
        return events
    }

    static func point(degrees: Double, radius: Double, center: Point = Point(x: 300, y: 300)) -> Point {
        let a = Angle(degrees: degrees)
        return Point(x: center.x + radius * a.cos, y: center.y + radius * a.sin)
    }

    /// Moves a finger from `from` to `to` degrees around the centre in 1° steps at 60 Hz, holds it, lifts it.
    static func turn(_ m: inout DialMenuController, from: Double, to: Double, radius: Double, now: inout Double) -> [MenuEvent] {
        var events: [MenuEvent] = []
        var last = point(degrees: from, radius: radius)
        m.handle(.gesture(.pressed(at: last, time: now)), now: now)
        let steps = Int(abs(to - from))
        for i in 1...steps {
            now += 1.0 / 60
            let p = point(degrees: from + Double(i) * (to > from ? 1 : -1), radius: radius)
            m.handle(.gesture(.dragMoved(to: p, delta: p - last, time: now)), now: now)
            last = p
            events += m.update(now: now)
        }
        now += 0.2  // held still before lifting: no fling
        m.handle(.gesture(.dragEnded(at: last, time: now)), now: now)
        return events + frames(&m, from: &now, seconds: 1)
    }

    @Test func geometryFitsBelowTheHeaderAndNeverOverlapsItems() {
        let g = DialGeometry(style: DialStyle(slots: 8, radius: 0.45), area: Rect(x: 0, y: 46, width: 800, height: 434),
                             screenMin: 480, count: 8, highlightWidth: 2)
        #expect(g.layout.radius < 0.45 * 480)  // shrunk to fit
        #expect(g.bounds.minY >= 46 && g.bounds.maxY <= 480)
        #expect(g.layout.center == Point(x: 400, y: 263))
        // Neighbours' round areas are apart: chord between centres > 2 × item radius.
        let items = g.layout.visibleItems(at: .zero, domain: .wrapping(period: 8), count: 8)
        let sorted = items.sorted { $0.slot < $1.slot }
        for i in 0..<sorted.count {
            let d = (sorted[i].center - sorted[(i + 1) % sorted.count].center).length
            #expect(d > 2 * g.layout.itemRadius)
        }
        #expect(g.hubRadius > 0 && g.hubRadius < g.layout.radius - g.layout.itemRadius)
    }

    /// The finger goes clockwise from 120° to 255°, through the atan2 seam at 180°: three items' worth.
    @Test func fingerTurnsTheDialAcrossTheSeam() {
        var m = DialMenuController(geometry: Self.geometry(), count: 8, wraps: true)
        var now = 0.0
        #expect(Self.frames(&m, from: &now, seconds: 0.1) == [.selected(0)])
        let events = Self.turn(&m, from: 120, to: 255, radius: 200, now: &now)
        // Clockwise brings earlier items to the pointer: 0 - 3 wraps to 5.
        #expect(events.filter { if case .selected = $0 { true } else { false } } == [.selected(5)])
        #expect(events.contains(.released(velocity: 0, moved: -3)))
        #expect(m.selectedIndex == 5)
        #expect(m.scroller.position.isIntegral && !m.isMoving)
        // And back anticlockwise across the seam from 200° to 155°: one item on.
        let back = Self.turn(&m, from: 200, to: 155, radius: 200, now: &now)
        #expect(back.last == .selected(6))
    }

    @Test func fingerThroughTheCentreDoesNotJump() {
        var m = DialMenuController(geometry: Self.geometry(), count: 8, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        // Straight across from left to right through the centre: a naive atan2 would turn half a dial.
        var last = Point(x: 180, y: 300)
        m.handle(.gesture(.pressed(at: last, time: now)), now: now)
        for x in stride(from: 184.0, through: 420, by: 4) {
            now += 1.0 / 60
            let p = Point(x: x, y: 300)
            m.handle(.gesture(.dragMoved(to: p, delta: p - last, time: now)), now: now)
            last = p
        }
        #expect(abs(m.scroller.position.distance(to: .zero)) < 1e-9)
        now += 0.2
        m.handle(.gesture(.dragEnded(at: last, time: now)), now: now)
        _ = Self.frames(&m, from: &now, seconds: 1)
        #expect(m.selectedIndex == 0)
    }

    @Test func knobBurstsAccumulateAndWrapOrStop() {
        var m = DialMenuController(geometry: Self.geometry(), count: 8, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        for i in 0..<20 { m.handle(.command(.next, count: 1), now: now + Double(i) * 0.005) }
        #expect(Self.frames(&m, from: &now, seconds: 2) == [.selected(4)])  // 20 mod 8
        m.handle(.command(.previous, count: 6), now: now)
        #expect(Self.frames(&m, from: &now, seconds: 2) == [.selected(6)])  // 4 - 6 wraps

        // Twelve items on eight slots, no wrap: the dial is a window and stops at the last item.
        var bounded = DialMenuController(geometry: Self.geometry(count: 12), count: 12, wraps: false)
        _ = bounded.update(now: now)
        bounded.handle(.command(.next, count: 30), now: now)
        #expect(Self.frames(&bounded, from: &now, seconds: 3) == [.selected(11)])
        bounded.handle(.command(.select, count: 1), now: now)
        #expect(bounded.update(now: now) == [.activated(11)])
    }

    @Test func tapTurnsAnItemToThePointerThenActivatesIt() {
        let g = Self.geometry()
        var m = DialMenuController(geometry: g, count: 8, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        let item2 = g.layout.visibleItems(at: .zero, domain: .wrapping(period: 8), count: 8).first { $0.index == 2 }!
        m.handle(.gesture(.pressed(at: item2.center, time: now)), now: now)
        m.handle(.gesture(.tap(at: item2.center, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 1) == [.tapped(2), .selected(2)])
        // Item 2 now rests at the pointer (straight up): tapping it there activates it.
        let top = Self.point(degrees: -90, radius: g.layout.radius)
        m.handle(.gesture(.pressed(at: top, time: now)), now: now)
        m.handle(.gesture(.tap(at: top, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 0.5) == [.tapped(2), .activated(2)])
        // The hub activates whatever is at the pointer.
        m.handle(.gesture(.pressed(at: g.layout.center, time: now)), now: now)
        m.handle(.gesture(.tap(at: g.layout.center, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 0.5) == [.activated(2)])
        // Outside the dial a touch does nothing.
        let outside = Point(x: 5, y: 5)
        m.handle(.gesture(.pressed(at: outside, time: now)), now: now)
        m.handle(.gesture(.tap(at: outside, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 0.5) == [])
    }

    @Test func flickCarriesOnAndSettlesOnAnItem() {
        var m = DialMenuController(geometry: Self.geometry(), count: 8, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        // A quick anticlockwise flick, 90° in 100 ms, lifted while moving.
        var last = Self.point(degrees: 0, radius: 200)
        m.handle(.gesture(.pressed(at: last, time: now)), now: now)
        for i in 1...6 {
            now += 1.0 / 60
            let p = Self.point(degrees: -15 * Double(i), radius: 200)
            m.handle(.gesture(.dragMoved(to: p, delta: p - last, time: now)), now: now)
            last = p
        }
        m.handle(.gesture(.dragEnded(at: last, time: now)), now: now)
        let events = Self.frames(&m, from: &now, seconds: 3)
        guard case .released(let v, let moved)? = events.first else {
            Issue.record("no release: \(events)")
            return
        }
        #expect(v > 10)  // 2 items in 0.1 s
        #expect(moved > 2)  // momentum carried it past where the finger left it
        #expect(events.last == .selected(moved % 8))
        #expect(m.scroller.position.isIntegral)
    }
}

/// The dial screen rendered: where things are drawn, what a frame redraws, and how it looks.
@Suite(.serialized) struct DialScreenTests {
    static func screen(labels: [String] = ScreenFixtures.dialLabels, showsBack: Bool = true) throws -> DialScreen {
        let config = ScreenFixtures.dialConfig(labels: labels)
        return try DialScreen(config: config, style: DialStyle(), resources: try ScreenFixtures.resources(), showsBack: showsBack)
    }

    /// Blue over red at a point: the selection's tint is blue, rows are grey-blue and dark.
    static func blueness(_ buffer: PixelBuffer, _ p: Point) -> Int {
        let v = buffer[Int(p.x), Int(p.y)]!
        return Int(v & 0xFF) - Int((v >> 16) & 0xFF)
    }

    @Test func highlightedItemIsTheOneAtThePointer() throws {
        let s = try Self.screen()
        s.select(2)
        let frame = try ScreenFixtures.frame(of: s)
        #expect(s.selectedIndex == 2)
        let layout = s.shape.geometry.layout
        let selected = try #require(s.shape.itemFrame(2, at: ScrollOffset(whole: 2)))
        let pointer = Point(x: layout.center.x + layout.radius * layout.pointer.cos, y: layout.center.y + layout.radius * layout.pointer.sin)
        #expect((selected.center - pointer).length < 1e-9)
        // Only the selected item is tinted: sample each item inside its top edge, clear of its label.
        for index in 0..<8 {
            let r = try #require(s.shape.itemFrame(index, at: ScrollOffset(whole: 2)))
            let sample = Point(x: r.midX, y: r.minY + r.height * 0.12)
            if index == 2 {
                #expect(Self.blueness(frame, sample) > 60, "item \(index)")
            } else {
                #expect(Self.blueness(frame, sample) < 40, "item \(index)")
            }
        }
        try goldens.expectMatches(frame, "dial-800x480")
    }

    @Test func aFrameRedrawsOnlyTheDialSquare() throws {
        let s = try Self.screen()
        let marker: UInt32 = 0x00FF_00FF
        let buffer = try ScreenFixtures.frame(of: s)
        let reference = try PixelBuffer(width: ScreenFixtures.width, height: ScreenFixtures.height)
        s.handle(.command(.next, count: 3), now: 0)
        // Outside the damage the target is left alone: paint it and see that the paint stays.
        Canvas(buffer).clear(Color(rgb: marker), rect: PixelRect(x: 0, y: 0, width: ScreenFixtures.width, height: 40))
        _ = s.update(now: 0.1)
        let damage = s.draw(on: Canvas(buffer), full: false)
        #expect(damage == s.damage)
        #expect(damage.area < ScreenFixtures.width * ScreenFixtures.height / 2)
        #expect(damage.minY >= 40)
        #expect(buffer[10, 10]! & 0x00FF_FFFF == marker)
        // Inside it, the partial frame is what a full frame at the same moment draws.
        _ = s.draw(on: Canvas(reference), full: true)
        let inside = try buffer.view(of: damage), expected = try reference.view(of: damage)
        #expect(inside.hasSamePixels(as: expected))
        // Every item and the highlight lie inside the damage square.
        for index in 0..<8 {
            let r = try #require(s.shape.itemFrame(index, at: ScrollOffset(whole: 0)))
            #expect(damage.rect.contains(Point(x: r.minX, y: r.minY)) && damage.rect.contains(Point(x: r.maxX, y: r.maxY)))
        }
    }

    @Test func backButtonTapSaysBack() throws {
        let s = try Self.screen(showsBack: true)
        _ = try ScreenFixtures.frame(of: s)
        let b = try ScreenFixtures.resources().backButton(reading: .leftToRight)
        s.handle(.gesture(.tap(at: Point(x: b.midX, y: b.midY), time: 0)), now: 0)
        let events = s.update(now: 0.02)
        #expect(events == [.back])
    }

    /// Twelve items on eight slots mid-way through a turn: the window moves through the list.
    @Test func windowOntoALongerListWhileTurning() throws {
        let labels = ScreenFixtures.dialLabels + ["Garden", "Cameras", "Heating", "Blinds"]
        let s = try Self.screen(labels: labels)
        s.select(10)
        let buffer = try ScreenFixtures.frame(of: s)
        s.handle(.command(.next, count: 1), now: 0)
        _ = s.update(now: 0.05)
        _ = s.draw(on: Canvas(buffer), full: false)
        #expect(s.isMoving)
        #expect(s.selectedIndex == 11)
        try goldens.expectMatches(buffer, "dial-window-turning-800x480")
    }
}

/// Hostile styles from a config never put NaN into the rasterizer.
@Suite struct DialGeometryHostileTests {
    @Test(arguments: [DialStyle(slots: 0, radius: .nan, pointer: .infinity), DialStyle(slots: -3, radius: -1, pointer: .nan),
                      DialStyle(slots: 1_000_000, radius: 1e300, pointer: 1e300), DialStyle(slots: 1, radius: 0.3, pointer: 45)])
    func geometryStaysFinite(style: DialStyle) throws {
        for area in [Rect(x: 0, y: 46, width: 800, height: 434), Rect(x: 0, y: 480, width: 800, height: 0)] {
            let g = DialGeometry(style: style, area: area, screenMin: 480, count: 5, highlightWidth: 2)
            let values = [g.layout.radius, g.layout.itemRadius, g.hubRadius, g.itemSize.width, g.itemSize.height,
                          g.bounds.minX, g.bounds.maxY, g.layout.pointer.radians]
            #expect(values.allSatisfy { $0.isFinite && $0 >= -1e6 })
            for item in g.layout.visibleItems(at: ScrollOffset(2.5), domain: .wrapping(period: 5), count: 5) {
                #expect(item.center.isFinite)
            }
        }
        let config = ScreenFixtures.dialConfig(style: style)
        let screen = try DialScreen(config: config, style: style, resources: try ScreenFixtures.resources(), showsBack: false)
        screen.handle(.command(.next, count: 7), now: 0)
        _ = try ScreenFixtures.frame(of: screen, now: 0.1)
    }
}
