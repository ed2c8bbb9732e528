import Geometry
import Raster
import ReferenceScene
import Testing
import TestSupport
import Text

/// The plate and label caches against the plain drawing they replace.
@Suite struct DrawingCacheTests {
    /// How far a cached plate may be from the plain one, per channel: it is recorded with its corner
    /// snapped to 1/16 px, so an edge pixel's coverage moves by at most 1/32 in x and in y (a corner
    /// pixel by up to 2/32, 16/255, times the colours' contrast).
    static let plateTolerance: UInt32 = 12

    func background(_ w: Int, _ h: Int) throws -> PixelBuffer {
        let b = try PixelBuffer(width: w, height: h)
        try PatternTile.named(.checker, cell: 7).fill(Canvas(b))
        return b
    }

    /// Random plates, filled and outlined, at random places: off the 1/8 px grid within the
    /// tolerance; on it (whole pixels, sixteenths) the same pixels up to a rounding unit.
    @Test func platesMatchThePlainDrawing() throws {
        var rng = SeededGenerator.fromEnvironment(defaultSeed: 14)
        let cache = PlateCache()
        for onGrid in [true, false] {
            for _ in 0..<60 {
                let plain = try background(160, 120), cached = try background(160, 120)
                func place(_ v: Double) -> Double { onGrid ? (v * 16).rounded() / 16 : v }
                let rect = Rect(x: place(Double.random(in: -20...120, using: &rng)), y: place(Double.random(in: -20...90, using: &rng)),
                                width: Double.random(in: 1...90, using: &rng), height: Double.random(in: 1...50, using: &rng))
                let corners: Corners = [.all, .top, .bottom, .topLeft, []][Int.random(in: 0..<5, using: &rng)]
                let shape = RoundedRect(rect: rect, radius: Double.random(in: 0...30, using: &rng), corners: corners)
                let color = Color(rgb: UInt32.random(in: 0...0xFFFFFF, using: &rng))
                let opacity = Double.random(in: 0.3...1, using: &rng), width = Double.random(in: 0.5...4, using: &rng)
                let clip = PixelRect(x: Int.random(in: 0..<40, using: &rng), y: 0, width: 100, height: 120)
                for (buffer, plates) in [(plain, nil), (cached, cache)] as [(PixelBuffer, PlateCache?)] {
                    let c = Canvas(buffer)
                    c.setClip(clip)
                    c.fill(shape, color: color, opacity: opacity, cache: plates)
                    c.stroke(shape, width: width, color: .white, opacity: opacity, cache: plates)
                }
                let d = channelDifference(plain, cached)
                #expect(d.worst <= (onGrid ? 1 : Self.plateTolerance), "\(shape) \(onGrid) \(rng.replay): \(d)")
            }
        }
        #expect(cache.recordedCount > 0 && cache.count > 0)
    }

    /// The cache never holds more than its bound, and keeps drawing right after emptying itself.
    @Test func platesStayWithinTheirBound() throws {
        let cache = PlateCache(byteLimit: 20_000)
        let plain = try background(200, 100), cached = try background(200, 100)
        for i in 0..<200 {
            let shape = RoundedRect(rect: Rect(x: Double(i % 50) * 0.37, y: 3, width: 60 + Double(i), height: 40), radius: 9)
            Canvas(plain).fill(shape, color: .red, opacity: 0.5)
            Canvas(cached).fill(shape, color: .red, opacity: 0.5, cache: cache)
            #expect(cache.byteCount <= cache.byteLimit)
        }
        #expect(channelDifference(plain, cached).worst <= Self.plateTolerance)
    }

    /// A cached label is the plain drawing: same glyph places, same coverage (up to two units where
    /// two glyphs' ink overlaps: one blend of their combined coverage rounds once, two blends twice),
    /// at any place, alignment and shortening, in any colour.
    @Test func labelsMatchThePlainDrawing() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        let cache = LabelCache(font: font)
        var rng = SeededGenerator.fromEnvironment(defaultSeed: 15)
        let texts = ["Item 4", "Espresso", "Zurück", "Wi-Fi AVAToday", "مرحبا بالعالم", "Run a program"]
        for round in 0..<120 {
            let plain = try background(240, 80), cached = try background(240, 80)
            let text = texts[round % texts.count]
            let size = [11.0, 17.3, 24][round % 3]
            let origin = Point(x: Double.random(in: 0...120, using: &rng), y: Double.random(in: 20...70, using: &rng))
            let alignment: TextAlignment = [.left, .center, .right][Int.random(in: 0..<3, using: &rng)]
            let maxWidth: Double? = round % 4 == 0 ? 60 : nil
            let color = Color(rgb: UInt32.random(in: 0...0xFFFFFF, using: &rng))
            Canvas(plain).drawText(text, font: font, size: size, at: origin, color: color, alignment: alignment, maxWidth: maxWidth)
            Canvas(cached).drawText(text, font: font, size: size, at: origin, color: color, alignment: alignment, maxWidth: maxWidth,
                                    cache: cache)
            let d = channelDifference(plain, cached)
            #expect(d.worst <= 2, "\(text) at \(origin) \(rng.replay): \(d)")
        }
        #expect(cache.recordedCount > 0 && cache.recordedCount < 120)
    }

    /// Scene S1 drawn through the caches against the plain scene, at rest and scrolling (the golden
    /// test holds the plain one to its goldens).
    @Test(arguments: [(800, 480), (1920, 1080)])
    func sceneS1Cached(width: Int, height: Int) throws {
        let plain = try ReferenceScene(width: width, height: height, pattern: .cross, cached: false)
        let cached = try ReferenceScene(width: width, height: height, pattern: .cross)
        for offset in [0, 0.5, 3.25, 17.37] {
            let a = try plain.makeFrame(), b = try cached.makeFrame()
            plain.render(on: Canvas(a), offset: offset)
            cached.render(on: Canvas(b), offset: offset)
            cached.render(on: Canvas(b), offset: offset)  // the second time from the caches
            let d = channelDifference(a, b)
            #expect(d.worst <= Self.plateTolerance, "offset \(offset): \(d)")
        }
        #expect(cached.plates!.count > 0 && cached.labelCache!.count > 0)
    }
}
