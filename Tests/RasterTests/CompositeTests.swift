import Geometry
import Testing
@testable import Raster

/// `Canvas.composite` (a 1:1 blit with source-over, for colour glyphs) against the general scaled
/// image path, which at the image's own size and a whole-pixel place must give the same pixels.
@Suite struct CompositeTests {
    func image() throws -> PixelBuffer {
        let img = try PixelBuffer(width: 23, height: 17, format: .argb8888Premultiplied)
        var rng = SystemRandomNumberGenerator()
        for y in 0..<17 { for x in 0..<23 {
            let a = UInt32.random(in: 0...255, using: &rng)
            func c() -> UInt32 { UInt32.random(in: 0...a, using: &rng) }
            img.setPixel(x: x, y: y, a << 24 | c() << 16 | c() << 8 | c())
        } }
        return img
    }

    @Test(arguments: [(5, 7, 1.0), (-4, -3, 1.0), (30, 20, 0.5), (0, 0, 0.0)])
    func equalsTheScaledPathAtOneToOne(x: Int, y: Int, opacity: Double) throws {
        let img = try image()
        let a = try PixelBuffer(width: 40, height: 30), b = try PixelBuffer(width: 40, height: 30)
        Canvas(a).clear(Color(rgb: 0x336699)); Canvas(b).clear(Color(rgb: 0x336699))
        Canvas(a).composite(img, x: x, y: y, opacity: opacity)
        Canvas(b).draw(img, in: Rect(x: Double(x), y: Double(y), width: 23, height: 17), opacity: opacity)
        #expect(a.hasSamePixels(as: b))
    }

    @Test func respectsTheClip() throws {
        let img = try image()
        let buf = try PixelBuffer(width: 40, height: 30)
        let canvas = Canvas(buf)
        canvas.withClip(PixelRect(x: 10, y: 10, width: 5, height: 5)) { canvas.composite(img, x: 0, y: 0) }
        for y in 0..<30 { for x in 0..<40 where !(10..<15).contains(x) || !(10..<15).contains(y) { #expect(buf[x, y] == 0) } }
    }
}
