import Geometry
import Raster

/// Labels of one font composited once into a coverage image at their size, then blended in one
/// pass on later frames, instead of shaping lookups and one blend per glyph every frame.
///
/// A label is recorded by drawing it with the plain path (`Canvas.drawText`) in opaque white on a
/// transparent scratch image: each pixel's alpha is the coverage the plain path blends with, so a
/// replayed label is the plain drawing (where two glyphs' ink overlaps, the one blend of their
/// combined coverage may differ from two blends by a unit). Glyphs land on whole pixels, so a
/// recording serves every place where they round to the same offsets from each other; the cache
/// checks that and records another variant when they do not. The colour is applied when replaying.
/// Not cached (drawn plainly): rotated text, colour emoji, labels placed left of or above the
/// buffer's origin. Holds at most `byteLimit` bytes; on reaching it the cache is emptied whole.
public final class LabelCache {
    public let font: Font
    public var byteLimit: Int { labels.limit }
    public static let defaultByteLimit = 2 << 20
    /// Labels with a box larger than this (pixels) are drawn plainly.
    public static let maximumPixels = 1 << 18
    public var byteCount: Int { labels.cost }
    /// Recordings made so far (misses), for tests and benchmarks.
    public private(set) var recordedCount = 0
    /// Each label's recordings, one per way its glyphs round to whole pixels (at most one more than
    /// it has glyphs, and never more than `variantLimit`).
    private var labels: BoundedCache<LabelKey, [LabelImage]>
    static let variantLimit = 16

    /// A cache for labels drawn in `font` (text in another font is drawn plainly).
    public init(font: Font, byteLimit: Int = LabelCache.defaultByteLimit) {
        self.font = font
        labels = BoundedCache(limit: byteLimit)
    }

    /// Recordings held.
    public var count: Int { labels.values.reduce(0) { $0 + $1.count } }

    public func removeAll() {
        labels.removeAll()
    }

    /// The recording of `text` as `drawText` would shape it, valid for a line starting at
    /// `baseX`, `baseY`; nil when the label is not cached.
    fileprivate func image(_ text: String, size: Double, maxWidth: Double?, direction: TextDirection,
                           baseX: (Double) -> Double, baseY: Double) -> (LabelImage, x: Double)? {
        let key = LabelKey(text: TextKey(text: text), size64: Font.size64(size), maxWidth: maxWidth ?? -1, direction: direction)
        if let images = labels[key], let first = images.first {
            let x = baseX(first.line.width)
            for image in images where image.fits(x: x, y: baseY) { return (image, x) }
        }
        return record(key, text: text, size: size, maxWidth: maxWidth, baseX: baseX, baseY: baseY)
    }

    private func record(_ key: LabelKey, text: String, size: Double, maxWidth: Double?,
                        baseX: (Double) -> Double, baseY: Double) -> (LabelImage, x: Double)? {
        var string = text
        if let maxWidth { string = maxWidth > 0 ? font.truncated(text, size: size, maxWidth: maxWidth) : "" }
        let line = font.shape(string, size: size, direction: key.direction)
        let x = baseX(line.width)
        guard !line.glyphs.isEmpty, x >= 0, baseY >= 0,
              !line.glyphs.contains(where: { font.faces[$0.face].freeType.isColorBitmap }),
              let image = LabelImage.record(line, font: font, size: size, x: x, y: baseY) else { return nil }
        recordedCount += 1
        var images = labels[key] ?? []
        if images.count >= Self.variantLimit { images.removeFirst() }
        images.append(image)
        // Emptied to make room: the label's older variants went with the rest.
        if labels.insert(images, for: key, cost: images.reduce(0) { $0 + $1.byteCount }) {
            labels.insert([image], for: key, cost: image.byteCount)
        }
        return (image, x)
    }
}

struct LabelKey: Hashable {
    var text: TextKey
    var size64: Int
    /// -1: not shortened.
    var maxWidth: Double
    var direction: TextDirection
}

/// One label's coverage, its top-left pixel `left`, `top` from the whole pixel its line starts on,
/// and the glyph offsets (from that pixel) it was recorded with.
final class LabelImage {
    let line: ShapedText
    let coverage: [UInt8]
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    /// Each glyph's whole-pixel offset in x, then in y, from the line's start pixel.
    let offsets: [Int32]

    var byteCount: Int { coverage.count + offsets.count * 4 + line.glyphs.count * MemoryLayout<ShapedText.Glyph>.stride + 128 }

    private init(line: ShapedText, coverage: [UInt8], width: Int, height: Int, left: Int, top: Int, offsets: [Int32]) {
        (self.line, self.coverage, self.width, self.height, self.left, self.top, self.offsets) =
            (line, coverage, width, height, left, top, offsets)
    }

    /// Whether the glyphs of a line starting at (x, y) round to the recorded offsets, as the plain
    /// path rounds them.
    func fits(x: Double, y: Double) -> Bool {
        guard x >= 0, y >= 0, x < 1e7, y < 1e7 else { return false }
        let ix = Int(x.rounded(.down)), iy = Int(y.rounded(.down))
        let n = line.glyphs.count
        for (i, g) in line.glyphs.enumerated() {
            if Int32(Int((x + g.x).rounded()) - ix) != offsets[i] || Int32(Int((y + g.y).rounded()) - iy) != offsets[n + i] {
                return false
            }
        }
        return true
    }

    /// Draws `line` with the plain path in opaque white on a transparent scratch image, its start
    /// at the same place within a pixel as (x, y), and keeps the alpha of the pixels it touched.
    static func record(_ line: ShapedText, font: Font, size: Double, x: Double, y: Double) -> LabelImage? {
        let px = Font.validSize(size)
        let margin = Int(px) + 4
        let fx = x - x.rounded(.down), fy = y - y.rounded(.down)
        let w = Int(line.width.rounded(.up)) + 2 * margin, h = 4 * margin
        guard w * h <= LabelCache.maximumPixels * 4,
              let scratch = try? PixelBuffer(width: w, height: h, format: .argb8888Premultiplied) else { return nil }
        let oy = 2 * margin
        Canvas(scratch).draw(line, font: font, size: size, at: Point(x: Double(margin) + fx, y: Double(oy) + fy), color: .white)
        var alpha = [UInt8](repeating: 0, count: w * h)
        var minX = w, maxX = -1, minY = h, maxY = -1
        _ = scratch.withRows { row, pixels -> Void? in
            for col in 0..<w where pixels[col] >> 24 != 0 {
                alpha[row * w + col] = UInt8(truncatingIfNeeded: pixels[col] >> 24)
                minX = Swift.min(minX, col); maxX = Swift.max(maxX, col)
                minY = Swift.min(minY, row); maxY = Swift.max(maxY, row)
            }
            return nil
        }
        var offsets: [Int32] = line.glyphs.map { Int32(Int((fx + $0.x).rounded())) }
        offsets += line.glyphs.map { Int32(Int((fy + $0.y).rounded())) }
        guard maxX >= minX, maxY >= minY else {
            return LabelImage(line: line, coverage: [], width: 0, height: 0, left: 0, top: 0, offsets: offsets)
        }
        let cw = maxX - minX + 1, ch = maxY - minY + 1
        guard cw * ch <= LabelCache.maximumPixels else { return nil }
        var coverage = [UInt8](repeating: 0, count: cw * ch)
        for row in 0..<ch {
            for col in 0..<cw { coverage[row * cw + col] = alpha[(minY + row) * w + minX + col] }
        }
        return LabelImage(line: line, coverage: coverage, width: cw, height: ch, left: minX - margin, top: minY - oy, offsets: offsets)
    }
}

extension Canvas {
    /// `drawText` through `cache` (nil, another font, rotated text: the plain path).
    public func drawText(_ text: String, font: Font, size: Double, at origin: Point, color: Color, opacity: Double = 1,
                         alignment: TextAlignment = .left, maxWidth: Double? = nil, rotation: Angle = .zero,
                         direction: TextDirection = .auto, cache: LabelCache?) {
        guard let cache, cache.font === font, rotation.radians == 0, origin.isFinite, abs(origin.x) < 1e7, abs(origin.y) < 1e7,
              !text.isEmpty, opacity > 0,
              let (image, x) = cache.image(text, size: size, maxWidth: maxWidth, direction: direction, baseX: { width in
                  switch alignment {
                  case .left: origin.x
                  case .center: origin.x - width / 2
                  case .right: origin.x - width
                  }
              }, baseY: origin.y) else {
            drawText(text, font: font, size: size, at: origin, color: color, opacity: opacity, alignment: alignment,
                     maxWidth: maxWidth, rotation: rotation, direction: direction)
            return
        }
        guard image.width > 0 else { return }
        blend(coverage: image.coverage, width: image.width, height: image.height,
              x: Int(x.rounded(.down)) + image.left, y: Int(origin.y.rounded(.down)) + image.top, color: color, opacity: opacity)
    }
}
