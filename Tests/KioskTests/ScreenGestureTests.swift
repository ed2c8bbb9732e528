@testable import DRMOutput
import Geometry
@testable import InputSources
import Kiosk
@testable import KioskConfiguration
import LayoutCore
@testable import MenuScreens
import Testing

/// The same gestures on an arc, a dial and a list screen give the same events: the shapes share
/// one core (`MenuMotion`, `MenuController.handle`) and differ only where their docs say so.
@Suite struct ScreenGestureTests {
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case arc, dial, list

        var testDescription: String { rawValue }

        func make() throws -> MenuScreen {
            let resources = try ScreenFixtures.resources()
            switch self {
            case .arc:
                let config = ScreenFixtures.arcConfig()
                guard case .arc(let style) = config.layout else { throw ScreenFixtureError.wrongLayout }
                return try ArcScreen(config: config, style: style, resources: resources, showsBack: true)
            case .dial:
                return try DialScreen(config: ScreenFixtures.dialConfig(), style: DialStyle(), resources: resources, showsBack: true)
            case .list:
                return try ListScreen(config: ScreenFixtures.listConfig(), style: ListStyle(columns: 2, rowHeight: 0.1),
                                      resources: resources, showsBack: true)
            }
        }

        /// The centre of item `index` as the screen stands.
        func point(of index: Int, on screen: MenuScreen) -> Point? {
            switch screen {
            case let s as ArcScreen:
                let c = s.shape.controller
                return c.layout.visibleRows(at: c.viewOffset, domain: c.scroller.domain).first { $0.index == index }?.center
            case let s as DialScreen:
                return s.shape.itemFrame(index, at: s.position)?.center
            case let s as ListScreen:
                return s.shape.controller.screenFrame(ofRow: index)?.center
            default:
                return nil
            }
        }

        /// A finger path, one point a frame, that moves the menu by more than one item.
        func dragPath(on screen: MenuScreen) -> [Point] {
            switch screen {
            case let s as ArcScreen:
                let start = point(of: s.selectedIndex, on: s) ?? .zero
                let pitch = s.shape.controller.layout.pitch
                return (0...30).map { Point(x: start.x, y: start.y - 1.6 * pitch * Double($0) / 30) }
            case let s as DialScreen:
                let layout = s.shape.geometry.layout
                return (0...70).map { i in
                    let a = Angle(degrees: -90 + Double(i))
                    return Point(x: layout.center.x + layout.radius * a.cos, y: layout.center.y + layout.radius * a.sin)
                }
            default:
                return (0...20).map { Point(x: 200, y: 400 - 5 * Double($0)) }
            }
        }
    }

    enum ScreenFixtureError: Error { case wrongLayout }

    /// Updates every 1/60 s from `now` for `seconds`, collecting events.
    static func frames(_ screen: MenuScreen, from now: inout Double, seconds: Double) -> [MenuEvent] {
        var events: [MenuEvent] = []
        let end = now + seconds
        while now < end {
            events += screen.update(now: now)
            now += 1.0 / 60
        }
        return events
    }

    static func tap(_ screen: MenuScreen, at p: Point, now: inout Double) {
        screen.handle(.gesture(.pressed(at: p, time: now)), now: now)
        now += 0.05
        screen.handle(.gesture(.tap(at: p, time: now)), now: now)
    }

    @Test(arguments: Shape.allCases)
    func sameGesturesGiveTheSameEvents(shape: Shape) throws {
        let screen = try shape.make()
        var now = 0.0
        // A new screen reports its selection once.
        #expect(Self.frames(screen, from: &now, seconds: 0.1) == [.selected(0)])

        // A tap on the item resting at the selection chooses it; nothing moved, so no `.selected`.
        Self.tap(screen, at: try #require(shape.point(of: 0, on: screen)), now: &now)
        #expect(Self.frames(screen, from: &now, seconds: 1) == [.tapped(0), .activated(0)])

        // One knob detent: exactly one `.selected` once it settles.
        screen.handle(.command(.next, count: 1), now: now)
        #expect(Self.frames(screen, from: &now, seconds: 2) == [.selected(1)])
        #expect(screen.selectedIndex == 1 && !screen.isMoving)

        screen.handle(.command(.select, count: 1), now: now)
        #expect(Self.frames(screen, from: &now, seconds: 0.1) == [.activated(1)])
        screen.handle(.command(.back, count: 1), now: now)
        #expect(Self.frames(screen, from: &now, seconds: 0.1) == [.back])

        // The back button says back, and does not move the menu.
        let b = try ScreenFixtures.resources().backButton(reading: .leftToRight)
        Self.tap(screen, at: Point(x: b.midX, y: b.midY), now: &now)
        #expect(Self.frames(screen, from: &now, seconds: 0.5) == [.back])

        // A tap on another item: the arc and the dial bring it to the selection; the list (which
        // has no place to bring it to) focuses and activates it at once.
        Self.tap(screen, at: try #require(shape.point(of: 3, on: screen)), now: &now)
        let expected: [MenuEvent] = shape == .list ? [.tapped(3), .activated(3), .selected(3)] : [.tapped(3), .selected(3)]
        #expect(Self.frames(screen, from: &now, seconds: 1) == expected)

        // A drag let go: the release, then one `.selected` where the menu came to rest.
        let path = shape.dragPath(on: screen)
        let before = screen.position
        screen.handle(.gesture(.pressed(at: path[0], time: now)), now: now)
        screen.handle(.gesture(.dragBegan(from: path[0], time: now)), now: now)
        var events: [MenuEvent] = []
        for (last, p) in zip(path, path.dropFirst()) {
            now += 1.0 / 60
            screen.handle(.gesture(.dragMoved(to: p, delta: p - last, time: now)), now: now)
            events += screen.update(now: now)
        }
        now += 0.2  // held still before lifting: no fling
        screen.handle(.gesture(.dragEnded(at: path[path.count - 1], time: now)), now: now)
        events += Self.frames(screen, from: &now, seconds: 2)
        #expect(events.count == 2)
        guard case .released(let velocity, let moved)? = events.first else {
            Issue.record("no release: \(events)")
            return
        }
        #expect(velocity == 0 && moved != 0)
        #expect(Int(before.distance(to: screen.position).rounded()) == moved)
        #expect(events.last == .selected(screen.selectedIndex))
        #expect(!screen.isMoving)
    }

    /// Two fingers landing on the selected item, through the input router as the runtime feeds it:
    /// nothing is tapped or activated, whichever finger lifts first, and the menu stays put.
    @Test(arguments: Shape.allCases, [[Int32(0), 1], [1, 0]])
    func twoFingersOnAnItemNeverChooseIt(shape: Shape, liftOrder: [Int32]) throws {
        let screen = try shape.make()
        var now = 0.0
        _ = Self.frames(screen, from: &now, seconds: 0.1)
        let p = try #require(shape.point(of: 0, on: screen))
        let panel = PanelGeometry(width: ScreenFixtures.width, height: ScreenFixtures.height, rotation: .none)
        func fraction(_ q: Point) -> Point { Point(x: q.x / Double(panel.width), y: q.y / Double(panel.height)) }
        var router = InputRouter()
        var events: [MenuEvent] = []
        for raw: RawInputEvent in [.touchDown(slot: 0, fraction: fraction(p), time: now),
                                   .touchDown(slot: 1, fraction: fraction(p + Point(x: 12, y: 6)), time: now + 0.02),
                                   .touchUp(slot: liftOrder[0], time: now + 0.1),
                                   .touchUp(slot: liftOrder[1], time: now + 0.15)] {
            for input in router.route(raw, panel: panel) { screen.handle(input, now: now) }
            now += 0.05
            events += screen.update(now: now)
        }
        events += Self.frames(screen, from: &now, seconds: 1)
        #expect(!events.contains { if case .activated = $0 { true } else if case .tapped = $0 { true } else { false } }, "\(events)")
        #expect(screen.selectedIndex == 0 && !screen.isMoving)
    }

    /// `jump(to:)` puts the scroller exactly there, fraction and all, without a report.
    @Test(arguments: Shape.allCases)
    func jumpPlacesTheScrollerExactly(shape: Shape) throws {
        let screen = try shape.make()
        var now = 0.0
        _ = Self.frames(screen, from: &now, seconds: 0.1)
        let target = ScrollOffset(whole: 1, fraction: 0.25)
        screen.jump(to: target)
        #expect(screen.needsFrame)
        #expect(Self.frames(screen, from: &now, seconds: 0.5) == [])
        #expect(screen.position == target && !screen.isMoving)
    }
}
