/// Linux input event codes (linux/input-event-codes.h) by name, for config files and defaults.
public enum KeyCode {
    public static let escape: UInt32 = 1
    public static let backspace: UInt32 = 14
    public static let enter: UInt32 = 28
    public static let space: UInt32 = 57
    public static let keypadEnter: UInt32 = 96
    public static let up: UInt32 = 103
    public static let pageUp: UInt32 = 104
    public static let left: UInt32 = 105
    public static let right: UInt32 = 106
    public static let down: UInt32 = 108
    public static let pageDown: UInt32 = 109
    public static let volumeDown: UInt32 = 114
    public static let volumeUp: UInt32 = 115
    public static let back: UInt32 = 158
    public static let leftControl: UInt32 = 29
    public static let leftAlt: UInt32 = 56
    public static let rightControl: UInt32 = 97
    public static let sysRq: UInt32 = 99
    public static let rightAlt: UInt32 = 100
    public static let button0: UInt32 = 0x100
    public static let buttonLeft: UInt32 = 0x110

    /// Names as in linux/input-event-codes.h, so a config can say "KEY_VOLUMEUP": the keys and
    /// buttons that kiosks, remotes, knobs and keypads send.
    public static let byName: [String: UInt32] = {
        var names: [String: UInt32] = [
            "KEY_ESC": escape, "KEY_BACKSPACE": backspace, "KEY_TAB": 15, "KEY_ENTER": enter, "KEY_SPACE": space,
            "KEY_KPENTER": keypadEnter, "KEY_HOME": 102, "KEY_UP": up, "KEY_PAGEUP": pageUp, "KEY_LEFT": left,
            "KEY_RIGHT": right, "KEY_END": 107, "KEY_DOWN": down, "KEY_PAGEDOWN": pageDown, "KEY_INSERT": 110,
            "KEY_DELETE": 111, "KEY_MUTE": 113, "KEY_VOLUMEDOWN": volumeDown, "KEY_VOLUMEUP": volumeUp, "KEY_POWER": 116,
            "KEY_MENU": 139, "KEY_BACK": back, "KEY_FORWARD": 159, "KEY_NEXTSONG": 163, "KEY_PLAYPAUSE": 164,
            "KEY_PREVIOUSSONG": 165, "KEY_STOPCD": 166, "KEY_HOMEPAGE": 172, "KEY_PLAY": 207, "KEY_OK": 0x160,
            "KEY_SELECT": 0x161, "KEY_EXIT": 174, "KEY_SCROLLUP": 177, "KEY_SCROLLDOWN": 178,
            "KEY_KPPLUS": 78, "KEY_KPMINUS": 74,
            "BTN_LEFT": buttonLeft, "BTN_RIGHT": 0x111, "BTN_MIDDLE": 0x112, "BTN_SIDE": 0x113, "BTN_EXTRA": 0x114,
        ]
        for (i, key) in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"].enumerated() { names["KEY_\(key)"] = UInt32(2 + i) }
        for (i, f) in (1...10).enumerated() { names["KEY_F\(f)"] = UInt32(59 + i) }
        names["KEY_F11"] = 87
        names["KEY_F12"] = 88
        for (i, letter) in "QWERTYUIOP".enumerated() { names["KEY_\(letter)"] = UInt32(16 + i) }
        for (i, letter) in "ASDFGHJKL".enumerated() { names["KEY_\(letter)"] = UInt32(30 + i) }
        for (i, letter) in "ZXCVBNM".enumerated() { names["KEY_\(letter)"] = UInt32(44 + i) }
        for i in 0...9 { names["BTN_\(i)"] = button0 + UInt32(i) }
        return names
    }()
}
