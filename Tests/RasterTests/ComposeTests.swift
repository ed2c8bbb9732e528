import Geometry
import Raster
import Testing

/// Whole-picture composition (what screen transitions use) against per-pixel references.
@Suite struct ComposeTests {
    /// A picture whose every pixel differs: `tag` in the top byte, the position below.
    static func picture(_ tag: UInt32, width: Int = 37, height: Int = 9, bytesPerRow: Int? = nil) throws -> PixelBuffer {
        let b = try PixelBuffer(width: width, height: height, format: .argb8888Premultiplied, bytesPerRow: bytesPerRow)
        for y in 0..<height { for x in 0..<width { b.setPixel(x: x, y: y, tag << 24 | UInt32(y) << 12 | UInt32(x)) } }
        return b
    }

    /// Every seam, packed buffers (one shifted block copy) and padded ones (row by row): each
    /// column comes from the right picture at the right place.
    @Test(arguments: [nil, 200])
    func sideBySideAtEverySeam(bytesPerRow: Int?) throws {
        let left = try Self.picture(1, bytesPerRow: bytesPerRow), right = try Self.picture(2, bytesPerRow: bytesPerRow)
        let out = try Self.picture(9, bytesPerRow: bytesPerRow)
        for seam in -3...(out.width + 3) {
            out.showSideBySide(left: left, right: right, seam: seam)
            let s = min(out.width, max(0, seam))
            var wrong = 0
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let expected = x < s ? left[x + out.width - s, y] : right[x - s, y]
                    if out[x, y] != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "seam \(seam): \(wrong) pixels wrong")
        }
    }

    /// Eight pixels at a time and the tail alike: each channel is (a * (256 - t) + b * t) / 256,
    /// and nothing outside the rectangle changes.
    @Test func crossFadeMixesEachChannel() throws {
        let a = try Self.picture(0x10), b = try Self.picture(0xF0)
        b.setPixel(x: 3, y: 2, 0xFFFF_FFFF)
        a.setPixel(x: 3, y: 2, 0)
        let out = try Self.picture(0), untouched = try Self.picture(0)
        let rect = PixelRect(x: 2, y: 1, width: 30, height: 7)
        for amount in [0, 1, 128, 255, 256] {
            out.crossFade(from: a, to: b, amount: amount, in: rect)
            var wrong = 0
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let p = a[x, y]!, q = b[x, y]!
                    var expected: UInt32 = 0
                    for shift: UInt32 in [0, 8, 16, 24] {
                        let c = (((p >> shift) & 0xFF) * UInt32(256 - amount) + ((q >> shift) & 0xFF) * UInt32(amount)) >> 8
                        expected |= c << shift
                    }
                    let inside = x >= rect.minX && x < rect.maxX && y >= rect.minY && y < rect.maxY
                    if out[x, y] != (inside ? expected : untouched[x, y]) { wrong += 1 }
                }
            }
            #expect(wrong == 0, "amount \(amount): \(wrong) pixels wrong")
        }
    }

    @Test func differingBoundsFindsTheChange() throws {
        let a = try Self.picture(1), b = try Self.picture(1)
        #expect(a.differingBounds(from: b) == .zero)
        b.setPixel(x: 5, y: 7, 0)
        b.setPixel(x: 30, y: 2, 0)
        #expect(a.differingBounds(from: b) == PixelRect(x: 5, y: 2, width: 26, height: 6))
    }
}
