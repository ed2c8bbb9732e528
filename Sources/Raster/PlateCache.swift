import Geometry

/// Coverage of rounded plates (a menu row's fill, its outline) rasterized once per size and
/// sub-pixel phase, then replayed as spans on later frames. On a small panel flattening and
/// rasterizing nine rows costs far more than blending their pixels; a replayed plate costs about
/// what a plain rectangle does.
///
/// A plate is recorded with its top-left corner snapped to 1/`phaseSteps` of a pixel, so a cached
/// plate lies at most 1/32 px (in x and in y) from where the plain drawing (`Canvas.fill(_:color:opacity:)`)
/// puts it: edge pixels may differ a little (a test bounds it), whole-pixel and on-grid places
/// match. The colour is applied when replaying, so the normal, selected and pressed plates share
/// one recording. Holds at most `byteLimit` bytes; on reaching it the cache is emptied whole.
/// Not thread-safe (one per drawing thread, like a `Canvas`).
public final class PlateCache {
    /// Sub-pixel positions per pixel a plate is recorded at, in x and in y.
    public static let phaseSteps = 16
    /// Plates larger than this (pixels of their box) are drawn plainly: a cache entry stays small.
    public static let maximumPixels = 1 << 20
    /// The default bound, in bytes of recorded coverage.
    public static let defaultByteLimit = 2 << 20

    public var byteLimit: Int { masks.limit }
    public var byteCount: Int { masks.cost }
    /// Recordings made so far (misses), for tests and benchmarks.
    public private(set) var recordedCount = 0
    private var masks: BoundedCache<PlateKey, CoverageMask>

    public init(byteLimit: Int = PlateCache.defaultByteLimit) {
        masks = BoundedCache(limit: byteLimit)
    }

    public var count: Int { masks.count }

    public func removeAll() {
        masks.removeAll()
    }

    /// The recorded coverage of `shape` filled (`strokeWidth` 0) or stroked, and the whole pixel
    /// its recording's origin lands on; nil when the shape cannot be cached (not finite, huge).
    func mask(_ shape: RoundedRect, strokeWidth: Double) -> (mask: CoverageMask, x: Int, y: Int)? {
        let r = shape.rect
        let q = Double(Self.phaseSteps)
        guard r.width > 0, r.height > 0, r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite,
              Swift.abs(r.minX) < 1e7, Swift.abs(r.minY) < 1e7, strokeWidth >= 0, strokeWidth < 1e4,
              (r.width + 2 * strokeWidth + 4) * (r.height + 2 * strokeWidth + 4) <= Double(Self.maximumPixels) else { return nil }
        let qx = Int((r.minX * q).rounded()), qy = Int((r.minY * q).rounded())
        // phaseSteps is a power of two: the shift is a floor division, also for negative places.
        let shift = Self.phaseSteps.trailingZeroBitCount
        let key = PlateKey(width: r.width, height: r.height, radii: CornerRadii(shape), strokeWidth: strokeWidth,
                           phaseX: UInt8(qx & (Self.phaseSteps - 1)), phaseY: UInt8(qy & (Self.phaseSteps - 1)))
        if let m = masks[key] { return (m, qx >> shift, qy >> shift) }
        guard let m = CoverageMask.record(key, phaseSteps: Self.phaseSteps) else { return nil }
        recordedCount += 1
        masks.insert(m, for: key, cost: m.byteCount)
        return (m, qx >> shift, qy >> shift)
    }
}

/// What a recording depends on: the plate's size and radii, the outline's width (0: the fill)
/// and where in its first pixel the plate starts, in 1/`PlateCache.phaseSteps` px.
struct PlateKey: Hashable {
    var width: Double
    var height: Double
    var radii: CornerRadii
    var strokeWidth: Double
    var phaseX: UInt8
    var phaseY: UInt8
}

/// One shape's coverage, row by row: a left run of coverage bytes, a run of one constant coverage
/// (a plate's inside, or the hollow of an outline), a right run of bytes.
final class CoverageMask {
    struct Row {
        /// Columns, relative to the mask's left: [lo, a) bytes, [a, b) `constant`, [b, hi) bytes.
        var lo: Int32, a: Int32, b: Int32, hi: Int32
        var constant: UInt8
        /// Where this row's bytes start in `bytes` (the left run, then the right run).
        var offset: Int32
    }

    /// Offset of the mask's top-left pixel from the whole pixel the plate's origin is snapped to.
    let left: Int
    let top: Int
    let rows: [Row]
    let bytes: [UInt8]

    var byteCount: Int { bytes.count + rows.count * MemoryLayout<Row>.stride + 64 }

    private init(left: Int, top: Int, rows: [Row], bytes: [UInt8]) {
        (self.left, self.top, self.rows, self.bytes) = (left, top, rows, bytes)
    }

    /// Draws the shape of `key` with the plain path, opaque white on a transparent scratch image:
    /// each pixel's alpha is then exactly the coverage the plain path blends with.
    static func record(_ key: PlateKey, phaseSteps: Int) -> CoverageMask? {
        let margin = Int(key.strokeWidth / 2) + 2
        let w = Int(key.width.rounded(.up)) + 2 * margin + 1, h = Int(key.height.rounded(.up)) + 2 * margin + 1
        guard let scratch = try? PixelBuffer(width: w, height: h, format: .argb8888Premultiplied) else { return nil }
        let canvas = Canvas(scratch)
        let q = Double(phaseSteps)
        let rect = Rect(x: Double(margin) + Double(key.phaseX) / q, y: Double(margin) + Double(key.phaseY) / q,
                        width: key.width, height: key.height)
        if key.strokeWidth > 0 {
            canvas.stroke(rect, radii: key.radii, width: key.strokeWidth, color: .white)
        } else {
            canvas.fill(rect, radii: key.radii, color: .white)
        }
        var rows: [Row] = []
        var bytes: [UInt8] = []
        var firstRow: Int?
        var coverage = [UInt8](repeating: 0, count: w)
        for y in 0..<h {
            let line = scratch.row(y)
            for x in 0..<w { coverage[x] = UInt8(truncatingIfNeeded: line[x] >> 24) }
            guard let lo = coverage.firstIndex(where: { $0 != 0 }) else {
                if firstRow != nil { rows.append(Row(lo: 0, a: 0, b: 0, hi: 0, constant: 0, offset: Int32(bytes.count))) }
                continue
            }
            if firstRow == nil { firstRow = y }
            let hi = coverage.lastIndex(where: { $0 != 0 })! + 1
            // The longest run of one value is the constant part (for an outline's middle rows: zeros).
            var best = (start: lo, end: lo), start = lo
            for x in lo..<hi where x + 1 == hi || coverage[x + 1] != coverage[start] {
                if x + 1 - start > best.end - best.start { best = (start, x + 1) }
                start = x + 1
            }
            let offset = Int32(bytes.count)
            bytes.append(contentsOf: coverage[lo..<best.start])
            bytes.append(contentsOf: coverage[best.end..<hi])
            rows.append(Row(lo: Int32(lo), a: Int32(best.start), b: Int32(best.end), hi: Int32(hi),
                            constant: coverage[best.start], offset: offset))
        }
        guard let firstRow else { return CoverageMask(left: 0, top: 0, rows: [], bytes: []) }
        while let last = rows.last, last.lo == last.hi { rows.removeLast() }
        return CoverageMask(left: -margin, top: firstRow - margin, rows: rows, bytes: bytes)
    }
}

extension Canvas {
    /// `fill(_:color:opacity:)` through `cache` (nil: the plain path). See `PlateCache` for how
    /// close the two are.
    public func fill(_ shape: RoundedRect, color: Color, opacity: Double = 1, cache: PlateCache?) {
        guard let cache, let (mask, x, y) = cache.mask(shape, strokeWidth: 0) else {
            fill(shape, color: color, opacity: opacity)
            return
        }
        replay(mask, x: x, y: y, blender: SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format))
    }

    /// `stroke(_:width:color:opacity:)` through `cache` (nil: the plain path).
    public func stroke(_ shape: RoundedRect, width: Double, color: Color, opacity: Double = 1, cache: PlateCache?) {
        guard let cache, width > 0, let (mask, x, y) = cache.mask(shape, strokeWidth: width) else {
            stroke(shape, width: width, color: color, opacity: opacity)
            return
        }
        replay(mask, x: x, y: y, blender: SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format))
    }

    /// Blends the mask's spans, its origin at whole pixel (x, y), within the clip.
    func replay(_ mask: CoverageMask, x: Int, y: Int, blender: SpanBlender) {
        guard !blender.isInvisible else { return }
        let ox = x + mask.left, oy = y + mask.top
        let y0 = Swift.max(clip.minY, oy), y1 = Swift.min(clip.maxY, oy + mask.rows.count)
        guard y0 < y1 else { return }
        let cx0 = clip.minX, cx1 = clip.maxX
        mask.bytes.withUnsafeBufferPointer { buffer in
            guard let bytes = buffer.baseAddress ?? UnsafePointer<UInt8>(bitPattern: 1) else { return }
            mask.rows.withUnsafeBufferPointer { rows in
                for yy in y0..<y1 {
                    let r = rows[yy - oy]
                    let line = target.row(yy)
                    let lo = ox + Int(r.lo), a = ox + Int(r.a), b = ox + Int(r.b), hi = ox + Int(r.hi)
                    // The left bytes, the constant run, the right bytes, each cut to the clip.
                    var s = Swift.max(lo, cx0), e = Swift.min(a, cx1)
                    if s < e { blender.blendRow(line + s, coverage: bytes + Int(r.offset) + (s - lo), count: e - s) }
                    s = Swift.max(a, cx0); e = Swift.min(b, cx1)
                    if s < e { blender.fill(line + s, count: e - s, coverage: UInt32(r.constant)) }
                    s = Swift.max(b, cx0); e = Swift.min(hi, cx1)
                    if s < e { blender.blendRow(line + s, coverage: bytes + Int(r.offset) + Int(r.a - r.lo) + (s - b), count: e - s) }
                }
            }
        }
    }
}
