@testable import InputSources
import Kiosk
@testable import KioskConfiguration
import LayoutCore
import Testing

@Suite struct KeyCodeTests {
    /// Spot checks against linux/input-event-codes.h.
    @Test func namesMatchTheKernelHeader() {
        #expect(KeyCode.byName["KEY_A"] == 30)
        #expect(KeyCode.byName["KEY_Q"] == 16)
        #expect(KeyCode.byName["KEY_Z"] == 44)
        #expect(KeyCode.byName["KEY_1"] == 2)
        #expect(KeyCode.byName["KEY_0"] == 11)
        #expect(KeyCode.byName["KEY_F1"] == 59)
        #expect(KeyCode.byName["KEY_F10"] == 68)
        #expect(KeyCode.byName["KEY_F12"] == 88)
        #expect(KeyCode.byName["BTN_9"] == 0x109)
        #expect(KeyCode.byName["KEY_PLAYPAUSE"] == 164)
    }

    @Test func standardKeys() {
        #expect(KeyMapping.standard.command(for: KeyCode.volumeUp) == .next)
        #expect(KeyMapping.standard.command(for: KeyCode.button0) == .select)
        #expect(KeyMapping.standard.command(for: KeyCode.back) == .back)
        #expect(KeyMapping.standard.command(for: 999) == nil)
        #expect(KeyCode.byName["KEY_KPENTER"] == 96)
    }
}
