import CSDL2
import Kiosk
import KioskConfiguration

/// SDL scancodes (USB HID usages) to the Linux key codes a device reports
/// (linux/input-event-codes.h), for the keys a config can name (`KeyCode.byName`), so a
/// binding such as `next = ["KEY_VOLUMEUP"]` works the same in the window. The pairs follow
/// SDL's own Linux table (scancodes_linux.h). KEY_OK, KEY_EXIT, KEY_PLAY and KEY_SCROLLUP/DOWN
/// have no SDL scancode and cannot be pressed in the preview.
enum SDLKeyCodes {
    static let linux: [UInt32: UInt32] = {
        func code(_ name: String) -> UInt32 { KeyCode.byName[name]! }
        // Pairs, not a dictionary keyed by SDL_Scancode: Swift 6.0.3 does not import it as Hashable.
        var table: [(SDL_Scancode, String)] = [
            (SDL_SCANCODE_ESCAPE, "KEY_ESC"), (SDL_SCANCODE_BACKSPACE, "KEY_BACKSPACE"), (SDL_SCANCODE_TAB, "KEY_TAB"),
            (SDL_SCANCODE_RETURN, "KEY_ENTER"), (SDL_SCANCODE_SPACE, "KEY_SPACE"), (SDL_SCANCODE_KP_ENTER, "KEY_KPENTER"),
            (SDL_SCANCODE_HOME, "KEY_HOME"), (SDL_SCANCODE_UP, "KEY_UP"), (SDL_SCANCODE_PAGEUP, "KEY_PAGEUP"),
            (SDL_SCANCODE_LEFT, "KEY_LEFT"), (SDL_SCANCODE_RIGHT, "KEY_RIGHT"), (SDL_SCANCODE_END, "KEY_END"),
            (SDL_SCANCODE_DOWN, "KEY_DOWN"), (SDL_SCANCODE_PAGEDOWN, "KEY_PAGEDOWN"), (SDL_SCANCODE_INSERT, "KEY_INSERT"),
            (SDL_SCANCODE_DELETE, "KEY_DELETE"), (SDL_SCANCODE_MUTE, "KEY_MUTE"), (SDL_SCANCODE_AUDIOMUTE, "KEY_MUTE"),
            (SDL_SCANCODE_VOLUMEDOWN, "KEY_VOLUMEDOWN"), (SDL_SCANCODE_VOLUMEUP, "KEY_VOLUMEUP"), (SDL_SCANCODE_POWER, "KEY_POWER"),
            (SDL_SCANCODE_MENU, "KEY_MENU"), (SDL_SCANCODE_AC_BACK, "KEY_BACK"), (SDL_SCANCODE_AC_FORWARD, "KEY_FORWARD"),
            (SDL_SCANCODE_AUDIONEXT, "KEY_NEXTSONG"), (SDL_SCANCODE_AUDIOPLAY, "KEY_PLAYPAUSE"),
            (SDL_SCANCODE_AUDIOPREV, "KEY_PREVIOUSSONG"), (SDL_SCANCODE_AUDIOSTOP, "KEY_STOPCD"),
            (SDL_SCANCODE_AC_HOME, "KEY_HOMEPAGE"), (SDL_SCANCODE_SELECT, "KEY_SELECT"),
            (SDL_SCANCODE_KP_PLUS, "KEY_KPPLUS"), (SDL_SCANCODE_KP_MINUS, "KEY_KPMINUS"),
        ]
        // Letters, digits and F1...F12 are runs in both numberings.
        for (i, letter) in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".enumerated() {
            table.append((SDL_Scancode(SDL_SCANCODE_A.rawValue + UInt32(i)), "KEY_\(letter)"))
        }
        for (i, digit) in "1234567890".enumerated() {
            table.append((SDL_Scancode(SDL_SCANCODE_1.rawValue + UInt32(i)), "KEY_\(digit)"))
        }
        for f in 1...12 {
            table.append((SDL_Scancode(SDL_SCANCODE_F1.rawValue + UInt32(f - 1)), "KEY_F\(f)"))
        }
        return Dictionary(uniqueKeysWithValues: table.map { ($0.0.rawValue, code($0.1)) })
    }()

    /// Mouse buttons other than the left one (which is the finger) as the device's BTN_ codes.
    static let buttons: [Int32: UInt32] = [
        SDL_BUTTON_MIDDLE: KeyCode.byName["BTN_MIDDLE"]!, SDL_BUTTON_RIGHT: KeyCode.byName["BTN_RIGHT"]!,
        SDL_BUTTON_X1: KeyCode.byName["BTN_SIDE"]!, SDL_BUTTON_X2: KeyCode.byName["BTN_EXTRA"]!,
    ]
}
