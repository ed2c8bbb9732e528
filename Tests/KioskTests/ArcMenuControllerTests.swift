import Geometry
import Kiosk
import LayoutCore
@testable import MenuScreens
import Testing

/// The menu driven as the app drives it: input between frames paced at 60 Hz, time by hand.
@Suite struct ArcMenuControllerTests {
    static let layout = ArcLayout(viewport: Rect(x: 0, y: 0, width: 1024, height: 768), edge: .right, pitch: 768.0 / 9,
                                  rowLength: 0.19 * 1024, rowThickness: 0.8 * 768 / 9, radiusRatio: 0.6, inset: 16)

    /// Runs frames every 1/60 s from `now` for `seconds`, collecting events.
    static func frames(_ m: inout ArcMenuController, from now: inout Double, seconds: Double) -> [MenuEvent] {
        var events: [MenuEvent] = []
        let end = now + seconds
        while now < end {
            events += m.update(now: now)
            now += 1.0 / 60
        }
        return events
    }

    @Test func everyMotionEndsWithOneSelection() {
        var m = ArcMenuController(layout: Self.layout, count: 12, wraps: true)
        var now = 0.0
        #expect(Self.frames(&m, from: &now, seconds: 0.1) == [.selected(0)])
        // A burst of 20 detents 5 ms apart, arriving between frames.
        for i in 0..<20 { m.handle(.command(.next, count: 1), now: now + Double(i) * 0.005) }
        #expect(Self.frames(&m, from: &now, seconds: 2) == [.selected(8)])
        // 12 items on a 12-item menu: back on the same index, still one report.
        m.handle(.command(.next, count: 12), now: now)
        #expect(Self.frames(&m, from: &now, seconds: 3) == [.selected(8)])
        // Nothing moves: nothing reported.
        #expect(Self.frames(&m, from: &now, seconds: 1) == [])
    }

    @Test func detentsInterleavedWithFramesAccumulate() {
        var m = ArcMenuController(layout: Self.layout, count: 100, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        var events: [MenuEvent] = []
        for _ in 0..<30 {
            m.handle(.command(.next, count: 1), now: now)
            now += 0.007
            events += m.update(now: now)
        }
        events += Self.frames(&m, from: &now, seconds: 3)
        #expect(events == [.selected(30)])
    }

    @Test func tapMovesTheTappedRowToTheApex() {
        var m = ArcMenuController(layout: Self.layout, count: 12, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        let row2 = Self.layout.row(item: 2, at: .zero, domain: .wrapping(period: 12))!.center
        m.handle(.gesture(.pressed(at: row2, time: now)), now: now)
        m.handle(.gesture(.tap(at: row2, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 1) == [.tapped(2), .selected(2)])
        m.handle(.command(.select, count: 1), now: now)
        #expect(m.update(now: now) == [.activated(2)])
        // Tapping the selected row while the menu rests activates it; nothing moved, so no `.selected`.
        let apex = Self.layout.row(item: 2, at: ScrollOffset(whole: 2), domain: .wrapping(period: 12))!.center
        m.handle(.gesture(.pressed(at: apex, time: now)), now: now)
        m.handle(.gesture(.tap(at: apex, time: now + 0.05)), now: now + 0.05)
        #expect(Self.frames(&m, from: &now, seconds: 0.5) == [.tapped(2), .activated(2)])
    }

    @Test func slowDragMovesExactlyWhatTheFingerMoved() {
        var m = ArcMenuController(layout: Self.layout, count: 12, wraps: true)
        var now = 0.0
        _ = m.update(now: now)
        m.handle(.gesture(.pressed(at: Point(x: 700, y: 520), time: now)), now: now)
        // Two rows up over 2.5 s, then lifted.
        for i in 1...50 {
            now += 0.05
            m.handle(.gesture(.dragMoved(to: Point(x: 700, y: 520), delta: Point(x: 0, y: -2 * 768.0 / 9 / 50), time: now)), now: now)
            _ = m.update(now: now)
            _ = i
        }
        m.handle(.gesture(.dragEnded(at: Point(x: 700, y: 349), time: now)), now: now)
        let events = Self.frames(&m, from: &now, seconds: 1)
        #expect(events.count == 2)
        if case .released(let v, let moved) = events.first {
            #expect(moved == 2)
            #expect(abs(v - 0.8) < 0.01)  // 2 items in 2.5 s
        } else {
            Issue.record("no release event: \(events)")
        }
        #expect(events.last == .selected(2))
    }
}
