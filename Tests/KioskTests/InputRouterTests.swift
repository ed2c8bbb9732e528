import Geometry
import Kiosk
import LayoutCore
import Testing

@Suite struct InputRouterTests {
    @Test func touchesAreTurnedIntoLogicalCoordinates() {
        // A 1024x768 panel turned 90°: the layout sees 768x1024. The panel's top-right corner
        // is the logical top-left.
        var r = InputRouter(rotation: .quarter, panelWidth: 1024, panelHeight: 768)
        let out = r.route(.touchDown(slot: 0, panel: Point(x: 1014, y: 10), time: 0)) + r.route(.touchUp(slot: 0, time: 0.1))
        #expect(out == [.gesture(.pressed(at: Point(x: 10, y: 10), time: 0)), .gesture(.tap(at: Point(x: 10, y: 10), time: 0.1))])
    }

    @Test func wheelAndKeysBecomeCommands() {
        var r = InputRouter(rotation: .none, panelWidth: 800, panelHeight: 480)
        #expect(r.route(.wheel(v120: 360, time: 0)) == [.command(.next, count: 3)])
        #expect(r.route(.wheel(v120: -60, time: 0)) == [])  // half a detent back: at the middle, not past it
        #expect(r.route(.wheel(v120: -1, time: 0)) == [.command(.previous, count: 1)])
        #expect(r.route(.wheel(v120: -30, time: 0)) == [])
        #expect(r.route(.key(code: KeyCode.volumeDown, pressed: true, time: 0)) == [.command(.previous, count: 1)])
        #expect(r.route(.key(code: KeyCode.volumeDown, pressed: false, time: 0)) == [])
        #expect(r.route(.key(code: KeyCode.button0, pressed: true, time: 0)) == [.command(.select, count: 1)])
        #expect(r.route(.key(code: KeyCode.escape, pressed: true, time: 0)) == [.command(.back, count: 1)])
        #expect(r.route(.dial(steps: -2, time: 0)) == [.command(.previous, count: 2)])
        #expect(r.route(.key(code: 30 /* KEY_A */, pressed: true, time: 0)) == [])
    }

    @Test func reversedKnob() {
        var r = InputRouter(rotation: .none, panelWidth: 800, panelHeight: 480, knob: KnobAccumulator(direction: -1))
        #expect(r.route(.dial(steps: 2, time: 0)) == [.command(.previous, count: 2)])
    }
}
