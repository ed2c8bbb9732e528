@testable import DRMOutput
import Geometry
@testable import InputSources
import Kiosk
@testable import KioskConfiguration
import LayoutCore
import Testing

@Suite struct InputRouterTests {
    static let panel = PanelGeometry(width: 800, height: 480, rotation: .none)

    @Test func touchesAreTurnedIntoLogicalCoordinates() {
        // A 1024x768 panel turned 90°: the layout sees 768x1024. The panel's top-right corner
        // is the logical top-left.
        let panel = PanelGeometry(width: 1024, height: 768, rotation: .quarter)
        var r = InputRouter()
        let out = r.route(.touchDown(slot: 0, fraction: Point(x: 1014.0 / 1024, y: 10.0 / 768), time: 0), panel: panel)
            + r.route(.touchUp(slot: 0, time: 0.1), panel: panel)
        #expect(out == [.gesture(.pressed(at: Point(x: 10, y: 10), time: 0)), .gesture(.tap(at: Point(x: 10, y: 10), time: 0.1))])
    }

    @Test func wheelAndKeysBecomeCommands() {
        var r = InputRouter()
        #expect(r.route(.wheel(v120: 360, time: 0), panel: Self.panel) == [.command(.next, count: 3)])
        #expect(r.route(.wheel(v120: -60, time: 0), panel: Self.panel) == [])  // half a detent back: at the middle, not past it
        #expect(r.route(.wheel(v120: -1, time: 0), panel: Self.panel) == [.command(.previous, count: 1)])
        #expect(r.route(.wheel(v120: -30, time: 0), panel: Self.panel) == [])
        #expect(r.route(.key(code: KeyCode.volumeDown, pressed: true, time: 0), panel: Self.panel) == [.command(.previous, count: 1)])
        #expect(r.route(.key(code: KeyCode.volumeDown, pressed: false, time: 0), panel: Self.panel) == [])
        #expect(r.route(.key(code: KeyCode.button0, pressed: true, time: 0), panel: Self.panel) == [.command(.select, count: 1)])
        #expect(r.route(.key(code: KeyCode.escape, pressed: true, time: 0), panel: Self.panel) == [.command(.back, count: 1)])
        #expect(r.route(.dial(steps: -2, time: 0), panel: Self.panel) == [.command(.previous, count: 2)])
        #expect(r.route(.key(code: 30 /* KEY_A */, pressed: true, time: 0), panel: Self.panel) == [])
    }

    /// Ctrl+Alt and SysRq chords belong to the console and the kernel: with F2, Delete and B bound
    /// to menu commands, Ctrl+Alt+F2, Ctrl+Alt+Del and Alt+SysRq+B do nothing in the menu; Ctrl or
    /// Alt alone does not block a key.
    @Test func consoleChordsAreNotMenuKeys() {
        let f2: UInt32 = 60, delete: UInt32 = 111, b: UInt32 = 48
        var r = InputRouter(keys: KeyMapping([f2: .select, delete: .back, b: .back, KeyCode.enter: .select]))
        func key(_ code: UInt32, _ pressed: Bool) -> [MenuInput] { r.route(.key(code: code, pressed: pressed, time: 0), panel: Self.panel) }
        #expect(key(f2, true) == [.command(.select, count: 1)])
        for (ctrl, alt) in [(KeyCode.leftControl, KeyCode.leftAlt), (KeyCode.rightControl, KeyCode.rightAlt), (KeyCode.leftControl, KeyCode.rightAlt)] {
            #expect(key(ctrl, true) == [] && key(alt, true) == [])
            #expect(key(f2, true) == [] && key(f2, false) == [])
            #expect(key(delete, true) == [] && key(KeyCode.enter, true) == [])
            #expect(key(alt, false) == [])
            #expect(key(delete, true) == [.command(.back, count: 1)])  // Ctrl alone
            #expect(key(alt, true) == [] && key(ctrl, false) == [])
            #expect(key(f2, true) == [.command(.select, count: 1)])  // Alt alone
            #expect(key(alt, false) == [])
        }
        #expect(key(KeyCode.leftAlt, true) == [] && key(KeyCode.sysRq, true) == [])
        #expect(key(b, true) == [] && key(b, false) == [])
        #expect(key(KeyCode.sysRq, false) == [] && key(KeyCode.leftAlt, false) == [])
        #expect(key(b, true) == [.command(.back, count: 1)])
    }

    @Test func reversedKnob() {
        var r = InputRouter(knob: KnobAccumulator(direction: -1))
        #expect(r.route(.dial(steps: 2, time: 0), panel: Self.panel) == [.command(.previous, count: 2)])
    }
}
