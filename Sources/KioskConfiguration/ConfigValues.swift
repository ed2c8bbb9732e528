import Raster

/// Parsing of the small value formats a config writes as strings.
enum ConfigValues {
    /// `#rrggbb` or `#rrggbbaa` (hex digits in either case).
    static func color(_ text: String) -> Color? {
        let digits = Array(text.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var value: UInt32 = 0
        for d in digits.dropFirst() {
            guard let v = hexValue(d) else { return nil }
            value = value << 4 | v
        }
        if digits.count == 7 {
            return Color(rgb: value)
        }
        return Color(red: UInt8(value >> 24), green: UInt8((value >> 16) & 0xFF), blue: UInt8((value >> 8) & 0xFF),
                     alpha: UInt8(value & 0xFF))
    }

    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// `#rrggbb` or `#rrggbbaa`, the form `color(_:)` reads.
    static func hex(_ color: Color) -> String {
        func two(_ v: UInt8) -> String {
            let s = String(v, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + two(color.red) + two(color.green) + two(color.blue) + (color.alpha == 255 ? "" : two(color.alpha))
    }

    /// A path as written in the config, made absolute against the config file's directory.
    static func resolve(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") { return path }
        var parts = directory.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Evdev key and button names as libinput and `input-event-codes.h` spell them.
    static func isKeyName(_ name: String) -> Bool {
        guard name.hasPrefix("KEY_") || name.hasPrefix("BTN_") else { return false }
        return name.count > 4 && name.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "_")
        }
    }
}
