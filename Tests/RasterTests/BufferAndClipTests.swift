import Geometry
import Raster
import Text
import ReferenceScene
import Testing

@Suite struct BufferAndClipTests {
    @Test func badSizesAreErrorsNotCrashes() {
        #expect(throws: RasterError.self) { try PixelBuffer(width: 0, height: 10) }
        #expect(throws: RasterError.self) { try PixelBuffer(width: -5, height: 10) }
        #expect(throws: RasterError.self) { try PixelBuffer(width: 100_000, height: 100_000) }
        #expect(throws: RasterError.self) { try PixelBuffer(width: 10, height: 10, bytesPerRow: 39) }
        #expect(throws: RasterError.self) { try PatternTile.checker(cell: 0) }
        #expect(throws: RasterError.self) { try ReferenceScene(width: 0, height: 480, pattern: .checker) }
    }

    @Test func largerStrideLeavesPaddingUntouched() throws {
        let buf = try PixelBuffer(width: 10, height: 4, bytesPerRow: 64)
        let canvas = Canvas(buf)
        canvas.clear(.white)
        canvas.fill(.circle(center: Point(x: 5, y: 2), radius: 20), color: .red)
        #expect(buf[9, 3] == 0xFF0000)
        // The padding pixels (columns 10..<16) are outside the buffer and stay 0.
        var padding: [UInt32] = []
        buf.withRows { _, row -> Void? in
            let raw = UnsafeMutableRawPointer(row.baseAddress!)
            for k in 10..<16 { padding.append(raw.load(fromByteOffset: k * 4, as: UInt32.self)) }
            return nil
        }
        #expect(padding.allSatisfy { $0 == 0 })
    }

    @Test func viewsDrawIntoTheirParentAndNowhereElse() throws {
        let parent = try PixelBuffer(width: 20, height: 20)
        let view = try parent.view(of: PixelRect(x: 5, y: 6, width: 8, height: 4))
        Canvas(view).fill(.rect(Rect(x: -100, y: -100, width: 1000, height: 1000)), color: .white)
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = x >= 5 && x < 13 && y >= 6 && y < 10
                #expect(parent[x, y] == (inside ? 0xFFFFFF : 0), "(\(x), \(y))")
            }
        }
    }

    @Test func nothingBleedsOutsideTheClip() throws {
        let buf = try PixelBuffer(width: 32, height: 32)
        let canvas = Canvas(buf)
        let clip = PixelRect(x: 7, y: 9, width: 13, height: 11)
        canvas.withClip(clip) {
            canvas.fill(.circle(center: Point(x: 16.3, y: 15.7), radius: 14), color: .white)
            canvas.stroke(.line(from: Point(x: 0, y: 0), to: Point(x: 32, y: 32)), width: 3, color: .red)
            canvas.fill(Rect(x: 0.5, y: 0.5, width: 31, height: 31), color: .white, opacity: 0.5)
            canvas.drawText("Wide text", font: try! Font(path: Font.dejaVuSansPath), size: 20, at: Point(x: 2, y: 20), color: .white)
            canvas.draw(try! PixelBuffer(width: 3, height: 3, format: .xrgb8888), in: Rect(x: 0, y: 0, width: 32, height: 32))
        }
        for y in 0..<32 {
            for x in 0..<32 where !(x >= 7 && x < 20 && y >= 9 && y < 20) {
                #expect(buf[x, y] == 0, "pixel (\(x), \(y)) outside the clip was written")
            }
        }
    }

    @Test func nanInfiniteAndHugeCoordinatesNeverTrap() throws {
        let buf = try PixelBuffer(width: 16, height: 16)
        let canvas = Canvas(buf)
        var p = Path()
        p.move(to: Point(x: .nan, y: 3))
        p.line(to: Point(x: 10, y: .infinity))
        p.line(to: Point(x: 4, y: 12))
        p.close()
        canvas.fill(p, color: .white)
        #expect(buf.withRows { _, row in row.contains { $0 != 0 } ? true : nil } == nil, "a path with NaN is dropped")
        canvas.fill(.circle(center: Point(x: 1e300, y: -1e300), radius: 1e300), color: .white)
        canvas.fill(.polygon([Point(x: -1e12, y: -1e12), Point(x: 1e12, y: -1e12), Point(x: 0, y: 1e12)]), color: .red)
        #expect(buf[8, 8] == 0xFF0000, "a huge triangle covering the buffer fills it")
        canvas.fill(Rect(x: .nan, y: 0, width: 5, height: 5), color: .white)
        canvas.fill(.roundedRect(Rect(x: 2, y: 2, width: -4, height: 8), radius: .nan), color: .white)
        canvas.stroke(.circle(center: Point(x: 8, y: 8), radius: 4), width: .nan, color: .white)
        canvas.fill(.circle(center: Point(x: 8, y: 8), radius: 4), color: .white, transform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        canvas.drawText("x", font: try Font(path: Font.dejaVuSansPath), size: .nan, at: Point(x: .nan, y: 1), color: .white)
        canvas.draw(buf, in: Rect(x: 0, y: 0, width: .infinity, height: 4))
        #expect(buf[8, 8] == 0xFF0000)
    }
}

@Suite struct DamageTests {
    @Test func overlappingRectsMerge() {
        var d = DamageRegion()
        d.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        d.add(PixelRect(x: 5, y: 0, width: 10, height: 10))
        #expect(d.rects == [PixelRect(x: 0, y: 0, width: 15, height: 10)])
    }

    @Test func distantRectsStaySeparateAndContainedOnesVanish() {
        var d = DamageRegion()
        d.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        d.add(PixelRect(x: 500, y: 300, width: 10, height: 10))
        d.add(PixelRect(x: 2, y: 2, width: 3, height: 3))
        #expect(d.rects.count == 2)
        #expect(d.area == 200)
    }

    @Test func countIsCappedByMergingTheCheapestPair() {
        var d = DamageRegion(maximumCount: 3)
        for i in 0..<10 { d.add(PixelRect(x: i * 100, y: (i % 2) * 50, width: 20, height: 20)) }
        #expect(d.rects.count <= 3)
        // Every added pixel is still covered.
        for i in 0..<10 {
            let r = PixelRect(x: i * 100, y: (i % 2) * 50, width: 20, height: 20)
            #expect(d.rects.contains { $0.contains(r) })
        }
        d.add(PixelRect(x: 0, y: 0, width: 0, height: 5))
        #expect(d.rects.count <= 3)
    }

    @Test func clippedToTheScreen() {
        var d = DamageRegion()
        d.add(PixelRect(x: -10, y: -10, width: 30, height: 30), within: PixelRect(x: 0, y: 0, width: 800, height: 480))
        #expect(d.rects == [PixelRect(x: 0, y: 0, width: 20, height: 20)])
    }
}

@Suite struct PixelBufferMemoryTests {
    /// New buffers are zeroed and start on a cache line, small (heap) and frame-sized (mmap) alike.
    @Test(arguments: [(3, 2), (100, 7), (1920, 1080)])
    func newBuffersAreZeroedAndCacheLineAligned(width: Int, height: Int) throws {
        for _ in 0..<4 {
            let buf = try PixelBuffer(width: width, height: height)
            buf.withUnsafePixels { base, bytesPerRow in
                #expect(Int(bitPattern: base) % 64 == 0)
                let bytes = UnsafeRawBufferPointer(start: base, count: bytesPerRow * height)
                #expect(!bytes.contains { $0 != 0 })
            }
            Canvas(buf).clear(.white)   // dirty the memory before it is freed and reused
        }
    }
}
