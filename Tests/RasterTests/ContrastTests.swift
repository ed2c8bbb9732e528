import Geometry
import Raster
import Testing

/// WCAG 2.x contrast against values published with the definition and by common checkers.
@Suite struct ContrastTests {
    @Test func knownRatios() {
        #expect(Color.contrastRatio(.white, .black) == 21)
        #expect(Color.contrastRatio(.black, .white) == 21, "symmetric")
        #expect(Color.contrastRatio(Color(rgb: 0x777777), .white) > 4.47)
        #expect(Color.contrastRatio(Color(rgb: 0x777777), .white) < 4.49)  // 4.48: the classic just-fails grey
        #expect(abs(Color.contrastRatio(Color(rgb: 0x767676), .white) - 4.54) < 0.01)  // the lightest grey that passes
        #expect(Color.contrastRatio(Color(rgb: 0x5FA8FF), Color(rgb: 0x5FA8FF)) == 1)
    }

    @Test func luminanceIsLinearisedSRGB() {
        #expect(Color.black.relativeLuminance == 0)
        #expect(abs(Color.white.relativeLuminance - 1) < 1e-12)
        #expect(abs(Color(rgb: 0xFF0000).relativeLuminance - 0.2126) < 1e-12)
        // 0x80 = 128/255: ((0.502 + 0.055) / 1.055)^2.4 = 0.2159
        #expect(abs(Color(rgb: 0x808080).relativeLuminance - 0.2159) < 1e-4)
        // Below the knee the curve is linear: 10/255 / 12.92
        #expect(abs(Color(rgb: 0x0A0A0A).relativeLuminance - 10.0 / 255 / 12.92) < 1e-12)
    }

    @Test func compositingBlendsLikeTheRasterizer() throws {
        let cases: [(Color, Color, Double)] = [
            (Color(rgb: 0x202833), .white, 0.85), (Color(rgb: 0x123456), .white, 1), (Color(rgb: 0x123456), .white, 0),
            (Color(red: 0, green: 0, blue: 0, alpha: 128), .white, 0.5), (Color(rgb: 0x8AB4F8), Color(rgb: 0x14181F), 0.92),
            (.black, .white, .nan),
        ]
        let buffer = try PixelBuffer(width: 1, height: 1)
        let canvas = Canvas(buffer)
        for (color, backdrop, opacity) in cases {
            canvas.clear(backdrop)
            canvas.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: color, opacity: opacity)
            let drawn = buffer[0, 0]!
            let expected = Color(red: UInt8((drawn >> 16) & 0xFF), green: UInt8((drawn >> 8) & 0xFF), blue: UInt8(drawn & 0xFF))
            #expect(color.composited(over: backdrop, opacity: opacity) == expected, "\(color) at \(opacity) over \(backdrop)")
        }
    }
}
