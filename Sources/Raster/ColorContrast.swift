import Glibc

/// WCAG 2.x contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): what `kiosk check-config`
/// measures a theme's text against, so that labels stay readable across a room.
extension Color {
    /// Relative luminance of the opaque colour (alpha ignored): sRGB channels linearised, then
    /// weighted 0.2126 R + 0.7152 G + 0.0722 B.
    public var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// (L1 + 0.05) / (L2 + 0.05), lighter over darker: 1 (same) to 21 (black and white).
    public static func contrastRatio(_ a: Color, _ b: Color) -> Double {
        let la = a.relativeLuminance, lb = b.relativeLuminance
        return (Swift.max(la, lb) + 0.05) / (Swift.min(la, lb) + 0.05)
    }

    /// This colour at its own alpha times `opacity`, blended over the opaque `backdrop` exactly as
    /// the rasterizer blends (source-over on sRGB bytes): the colour a reader actually sees.
    public func composited(over backdrop: Color, opacity: Double = 1) -> Color {
        let a = mul255(UInt32(alpha), UInt32(opacityByte(opacity)))
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 { UInt8(div255(UInt32(top) * a) + div255(UInt32(bottom) * (255 - a))) }
        return Color(red: mix(red, backdrop.red), green: mix(green, backdrop.green), blue: mix(blue, backdrop.blue))
    }
}
