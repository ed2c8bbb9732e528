import Geometry
import Glibc
import Raster
import Text
import Testing

@Suite struct TextTests {
    let font: Font
    init() throws { font = try Font(path: Font.dejaVuSansPath) }

    @Test func missingFontIsAClearError() {
        #expect(throws: TextError.self) { try Font(path: "/nonexistent/font.ttf") }
        do { _ = try Font(path: "/nonexistent/font.ttf") } catch {
            #expect(error.description.contains("FT_New_Face"))
            #expect(error.description.contains("cannot open"))
        }
    }

    @Test func corruptFontIsAClearError() throws {
        let path = "/tmp/kiosk-corrupt-font-\(getpid()).ttf"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let junk = [UInt8](repeating: 0x5A, count: 300)
        _ = junk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(throws: TextError.self) { try Font(path: path) }
        unlink(path)
    }

    @Test func kerningNarrowsAV() {
        let pair = font.measure("AV", size: 40)
        let apart = font.measure("A", size: 40) + font.measure("V", size: 40)
        #expect(pair < apart, "AV \(pair) should be kerned tighter than A + V \(apart)")
    }

    @Test func measureGrowsWithTextAndSize() {
        #expect(font.measure("", size: 20) == 0)
        #expect(font.measure("Item", size: 20) < font.measure("Item 4", size: 20))
        #expect(font.measure("Item", size: 20) < font.measure("Item", size: 40))
    }

    @Test func ellipsisFitsTheWidth() {
        let text = "A label far too long for its row"
        let short = font.truncated(text, size: 16, maxWidth: 120)
        #expect(short.hasSuffix("\u{2026}"))
        #expect(font.measure(short, size: 16) <= 120)
        #expect(font.truncated("Fits", size: 16, maxWidth: 120) == "Fits")
        #expect(font.truncated(text, size: 16, maxWidth: 1) == "")
    }

    /// Ink extents of a drawing, to check alignment without a golden.
    func inkColumns(_ draw: (Canvas) -> Void) throws -> (Int, Int) {
        let buf = try PixelBuffer(width: 300, height: 40)
        draw(Canvas(buf))
        var lo = Int.max, hi = Int.min
        for y in 0..<40 { for x in 0..<300 where buf[x, y]! != 0 { lo = min(lo, x); hi = max(hi, x) } }
        return (lo, hi)
    }

    @Test func alignmentPlacesTheAnchor() throws {
        let left = try inkColumns { $0.drawText("Centre", font: font, size: 20, at: Point(x: 150, y: 30), color: .white, alignment: .left) }
        let centre = try inkColumns { $0.drawText("Centre", font: font, size: 20, at: Point(x: 150, y: 30), color: .white, alignment: .center) }
        let right = try inkColumns { $0.drawText("Centre", font: font, size: 20, at: Point(x: 150, y: 30), color: .white, alignment: .right) }
        #expect(abs(left.0 - 150) <= 3)
        #expect(abs(right.1 - 150) <= 3)
        #expect(abs((centre.0 + centre.1) / 2 - 150) <= 3)
    }

    @Test func steadyStateFramesNeverRasterizeAGlyphTwice() throws {
        let buf = try PixelBuffer(width: 200, height: 60)
        let canvas = Canvas(buf)
        canvas.drawText("Item 0123456789", font: font, size: 21, at: Point(x: 4, y: 30), color: .white)
        canvas.drawText("Dial", font: font, size: 21, at: Point(x: 4, y: 50), color: .white, rotation: Angle(degrees: 30))
        let (bitmaps, outlines) = (font.rasterizedGlyphCount, font.decodedOutlineCount)
        #expect(bitmaps > 0 && outlines > 0)
        for _ in 0..<3 {
            canvas.drawText("Item 9876543210", font: font, size: 21, at: Point(x: 4, y: 30), color: .white)
            canvas.drawText("Dial", font: font, size: 21, at: Point(x: 4, y: 50), color: .white, rotation: Angle(degrees: 75))
        }
        #expect(font.rasterizedGlyphCount == bitmaps)
        #expect(font.decodedOutlineCount == outlines)
    }

    @Test func layoutCacheIsBoundedAndAnswersLikeAFreshFont() throws {
        let cached = try Font(path: Font.dejaVuSansPath)
        let texts = (0..<3000).map { "Label \($0) AVAWAY" }
        for t in texts { _ = cached.measure(t, size: 17) }
        #expect(cached.cachedLayoutCount <= Font.layoutCacheLimit)
        #expect(cached.cachedLayoutCount > 0)
        let fresh = try Font(path: Font.dejaVuSansPath)
        for t in texts.suffix(50) + texts.prefix(50) {
            #expect(cached.measure(t, size: 17) == fresh.measure(t, size: 17))
            #expect(cached.measure(t, size: 17.4) == fresh.measure(t, size: 17.4))
        }
    }

    @Test func missingGlyphDrawsAVisibleBox() throws {
        #expect(!font.hasGlyph(for: "\u{10FFFD}"))
        let (lo, hi) = try inkColumns { $0.drawText("\u{10FFFD}", font: font, size: 24, at: Point(x: 10, y: 30), color: .white) }
        #expect(hi > lo, "the fallback box has ink")
    }

    @Test func rotatedTextByAQuarterTurnIsTall() throws {
        let buf = try PixelBuffer(width: 100, height: 140)
        Canvas(buf).drawText("Rotated", font: font, size: 18, at: Point(x: 50, y: 10), color: .white, rotation: Angle(degrees: 90))
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for y in 0..<140 { for x in 0..<100 where buf[x, y]! != 0 { minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y) } }
        #expect(maxY - minY > 3 * (maxX - minX), "a quarter-turned word is taller than wide")
        // Turned clockwise on a y-down screen, "up" (0, -1) becomes (1, 0): the glyphs' tops face right,
        // so the ink of a word without descenders lies right of the vertical baseline x = 50, below y = 10.
        #expect(minX >= 49 && minY >= 9, "ink at \(minX),\(minY)")
    }
}

@Suite struct PatternTests {
    /// Tiling must equal looking up each pixel in the cell modulo its size, for any phase (exact),
    /// in a wide rectangle (rows doubled onto themselves) and a narrow one (rows copied whole).
    @Test(arguments: [(0, 0, 90), (7, 3, 90), (-5, -13, 90), (31, 100, 90), (7, 3, 40), (-5, -13, 17)])
    func tilingEqualsModuloLookup(phaseX: Int, phaseY: Int, width: Int) throws {
        let tile = try PatternTile.cross(cell: 12)
        let buf = try PixelBuffer(width: 101, height: 37)
        let rect = PixelRect(x: 3, y: 2, width: width, height: 30)
        tile.fill(Canvas(buf), rect: rect, phaseX: phaseX, phaseY: phaseY)
        for y in 0..<37 {
            for x in 0..<101 {
                let want: UInt32
                if x >= rect.minX && x < rect.maxX && y >= rect.minY && y < rect.maxY {
                    let cx = ((x - phaseX) % 12 + 12) % 12, cy = ((y - phaseY) % 12 + 12) % 12
                    want = tile.cell[cx, cy]! & 0x00FF_FFFF
                } else {
                    want = 0
                }
                if buf[x, y]! != want { Issue.record("pixel (\(x), \(y)) = \(buf[x, y]!) want \(want)"); return }
            }
        }
    }

    @Test func checkerCellHasBlackQuartersOnWhite() throws {
        let tile = try PatternTile.checker(cell: 8)
        #expect(tile.cell[1, 1]! & 0xFFFFFF == 0)
        #expect(tile.cell[6, 6]! & 0xFFFFFF == 0)
        #expect(tile.cell[6, 1]! & 0xFFFFFF == 0xFFFFFF)
        #expect(tile.cell[1, 6]! & 0xFFFFFF == 0xFFFFFF)
    }

    @Test func tilingHonoursTheClip() throws {
        let buf = try PixelBuffer(width: 40, height: 40)
        let canvas = Canvas(buf)
        canvas.withClip(PixelRect(x: 10, y: 10, width: 5, height: 5)) { try! PatternTile.solid(.white).fill(canvas) }
        #expect(buf[12, 12] == 0xFFFFFF)
        #expect(buf[9, 12] == 0 && buf[15, 12] == 0 && buf[12, 9] == 0 && buf[12, 15] == 0)
    }
}

@Suite struct ImageTests {
    @Test func oneToOneDrawingCopiesPixelsExactly() throws {
        let img = try PNGCodec.read(path: "\(fixtureDirectory)/rgb-interlaced.png")
        let buf = try PixelBuffer(width: 10, height: 10)
        Canvas(buf).draw(img, in: Rect(x: 3, y: 2, width: 4, height: 3))
        for y in 0..<3 { for x in 0..<4 { #expect(buf[x + 3, y + 2]! == img[x, y]! & 0xFFFFFF) } }
        #expect(buf[2, 2] == 0 && buf[7, 2] == 0)
    }

    @Test func bilinearUpscaleInterpolatesBetweenNeighbours() throws {
        let img = try PixelBuffer(width: 2, height: 1, format: .argb8888Premultiplied)
        img.setPixel(x: 0, y: 0, 0xFF00_0000)
        img.setPixel(x: 1, y: 0, 0xFFFF_FFFF)
        let buf = try PixelBuffer(width: 8, height: 1)
        Canvas(buf).draw(img, in: Rect(x: 0, y: 0, width: 8, height: 1))
        // Source x of destination pixel i is (i + 0.5) / 4 - 0.5, clamped to [0, 1].
        let values = (0..<8).map { buf[$0, 0]! & 0xFF }
        #expect(values[0] == 0 && values[1] == 0 && values[7] == 255 && values[6] == 255)
        #expect(values == values.sorted())
        #expect(abs(Int(values[3]) - 96) <= 1 && abs(Int(values[4]) - 159) <= 1)
    }
}
