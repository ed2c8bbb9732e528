/// A straight (not premultiplied) 8-bit sRGB colour with alpha.
public struct Color: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    @inlinable public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// `0xRRGGBB` with an opacity in 0...1 (NaN counts as 0).
    @inlinable public init(rgb: UInt32, opacity: Double = 1) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF),
                  alpha: opacityByte(opacity))
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let red = Color(red: 255, green: 0, blue: 0)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Premultiplied `0xAARRGGBB` after scaling alpha by `opacity` (clamped to 0...1, NaN = 0).
    @inlinable public func premultiplied(opacity: Double = 1) -> UInt32 {
        let a = mul255(UInt32(alpha), UInt32(opacityByte(opacity)))
        return (a << 24) | (mul255(UInt32(red), a) << 16) | (mul255(UInt32(green), a) << 8) | mul255(UInt32(blue), a)
    }
}

/// An opacity in 0...1 as a byte; NaN and negatives give 0, values above 1 give 255.
@inlinable func opacityByte(_ opacity: Double) -> UInt8 {
    guard opacity > 0 else { return 0 }
    guard opacity < 1 else { return 255 }
    return UInt8(opacity * 255 + 0.5)
}
