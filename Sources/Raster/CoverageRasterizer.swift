/// How overlapping parts of a path combine.
public enum FillRule: Sendable, Hashable {
    case nonZero
    case evenOdd
}

/// Anti-aliased coverage by signed-area accumulation (the font-rs method).
///
/// Every edge adds, to the cells of each row it crosses, the signed area it sweeps to its right;
/// a running sum along a row then gives each pixel's exact coverage for non-overlapping edges.
/// The accumulation buffer is dense (one `Float` per pixel of the clipped bounding box, plus two
/// guard cells per row) and reused between fills; each row is zeroed as it is read.
@usableFromInline
final class CoverageRasterizer {
    // Scratch memory, each freed by its own deinit; raw pointers rather than arrays so
    // that the hot loops pay no exclusivity or bounds checks (every index is derived from the
    // clipped area below).
    @usableFromInline var cells = Scratch<Float>()
    @usableFromInline var coverageRow = Scratch<UInt8>()
    /// Leftmost and rightmost touched cell of each row, so that untouched stretches are never scanned.
    @usableFromInline var rowMin = Scratch<Int32>()
    @usableFromInline var rowMax = Scratch<Int32>()
    /// One bit per group of 4 cells per row: set when an edge wrote into the group.
    /// Untouched groups hold zeros, so the sweep fills them as one constant-coverage span.
    @usableFromInline var touchedGroups = Scratch<UInt64>()
    @usableFromInline var wordsPerRow = 0
    @usableFromInline static let groupShift = 2
    @usableFromInline var width = 0
    @usableFromInline var height = 0
    @usableFromInline var stride = 0

    @usableFromInline init() {}

    /// Prepares a zeroed area of `width`x`height` pixels.
    @usableFromInline func reset(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width + 2
        cells.reserve(stride * height)
        coverageRow.reserve(stride)
        rowMin.reserve(height)
        rowMax.reserve(height)
        for y in 0..<height { rowMin.base[y] = Int32.max; rowMax.base[y] = -1 }
        wordsPerRow = ((stride >> Self.groupShift) + 1 + 63) / 64
        touchedGroups.reserve(wordsPerRow * height)
    }

    /// Marks the groups holding cells `from...to` of `row` as touched.
    @inlinable @inline(__always) static func markTouched(_ bits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int, row: Int, from: Int, to: Int) {
        var g = from >> groupShift
        let last = to >> groupShift
        let base = row &* wordsPerRow
        while g <= last {
            bits[base &+ (g >> 6)] |= 1 << UInt64(g & 63)
            g += 1
        }
    }

    /// Adds every segment of the polylines (closing each), offset by (-originX, -originY).
    @usableFromInline func addPolylines(_ polylines: [Polyline], originX: Int, originY: Int) {
        let ox = Double(originX), oy = Double(originY)
        let edges = EdgeAccumulator(cells: cells.base, rowMin: rowMin.base, rowMax: rowMax.base, bits: touchedGroups.base,
                                    wordsPerRow: wordsPerRow, width: width, height: height, stride: stride)
        for poly in polylines {
            let pts = poly.points
            guard pts.count >= 2 else { continue }
            var prev = pts[pts.count - 1]
            for p in pts {
                edges.addEdge(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy)
                prev = p
            }
        }
    }

    /// Converts each row's accumulated areas into coverage and hands it out as spans: `partial` gets
    /// (row, first column, coverage bytes, count) for stretches that edges touched, `constant` gets
    /// (row, first column, count, coverage byte) for stretches between edges, which need no per-pixel
    /// coverage at all. Leaves the buffer zeroed.
    @inlinable func sweep(rule: FillRule,
                          partial: (Int, Int, UnsafePointer<UInt8>, Int) -> Void,
                          constant: (Int, Int, Int, UInt32) -> Void) {
        let shift = Self.groupShift
        let acc = cells.base, cov = coverageRow.base, bits = touchedGroups.base
        let rowMin = self.rowMin.base, rowMax = self.rowMax.base, wordsPerRow = self.wordsPerRow
        let height = self.height, width = self.width, stride = self.stride
        @inline(__always) func toByte(_ sum: Float) -> UInt8 {
            let a: Float
            switch rule {
            case .nonZero:
                a = Swift.min(Swift.abs(sum), 1)
            case .evenOdd:
                let m = Swift.abs(sum) - 2 * (Swift.abs(sum) * 0.5).rounded(.down)
                a = Swift.min(Swift.max(m > 1 ? 2 - m : m, 0), 1)
            }
            return UInt8(truncatingIfNeeded: Int32(a * 255 + 0.5))
        }
        for row in 0..<height {
            let lo = Int(rowMin[row]), hi = Int(rowMax[row])
            guard lo <= hi else { continue }
            let line = acc + row * stride
            let rowBits = bits + row * wordsPerRow
            let end = Swift.min(hi, width - 1)
            var sum: Float = 0
            var pendingStart = lo, pendingCount = 0
            var x = lo
            while x <= end {
                let g = x >> shift
                let groupEnd = Swift.min((g + 1) << shift, end + 1)
                if rowBits[g >> 6] & (1 << UInt64(g & 63)) != 0 {
                    while x < groupEnd {
                        sum += line[x]
                        line[x] = 0
                        cov[pendingCount] = toByte(sum)
                        pendingCount += 1
                        x += 1
                    }
                } else {
                    // Untouched groups: constant coverage up to the next touched group,
                    // found a word of the bitmap at a time.
                    let lastGroup = end >> shift
                    var h = g + 1
                    while h <= lastGroup {
                        let word = rowBits[h >> 6] >> UInt64(h & 63)
                        if word != 0 { h += word.trailingZeroBitCount; break }
                        h = (h | 63) + 1
                    }
                    let runEnd = Swift.min(h << shift, end + 1)
                    if pendingCount > 0 { partial(row, pendingStart, UnsafePointer(cov), pendingCount) }
                    let c = UInt32(toByte(sum))
                    if c != 0 { constant(row, x, runEnd - x, c) }
                    x = runEnd
                    pendingStart = x
                    pendingCount = 0
                }
            }
            if pendingCount > 0 { partial(row, pendingStart, UnsafePointer(cov), pendingCount) }
            // Clear the guard cells and the touched bits of this row.
            var k = Swift.max(lo, end + 1)
            while k <= hi && k < stride { line[k] = 0; k += 1 }
            for w in 0..<wordsPerRow { rowBits[w] = 0 }
        }
    }
}

/// A growable, zero-initialised scratch allocation; not copyable, so its one owner frees it once.
@usableFromInline
struct Scratch<Element>: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity = 0

    @usableFromInline init() { base = UnsafeMutablePointer<Element>.allocate(capacity: 1) }

    /// Ensures room for `count` elements; new memory is zeroed, kept memory keeps its (zero) contents.
    @usableFromInline mutating func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        base = UnsafeMutablePointer<Element>.allocate(capacity: count)
        UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: count * MemoryLayout<Element>.stride)
        capacity = count
    }

    // Inlinable: the optimizer inlines it into the class's @usableFromInline setters (and Swift
    // 6.3.1's release build crashes when it is not).
    @inlinable deinit { base.deallocate() }
}

/// The accumulation buffer's pointers and size, read once per fill so that adding thousands of
/// edges costs no property access (and no exclusivity check) per edge.
@usableFromInline
struct EdgeAccumulator {
    let cells: UnsafeMutablePointer<Float>
    let rowMin: UnsafeMutablePointer<Int32>
    let rowMax: UnsafeMutablePointer<Int32>
    let bits: UnsafeMutablePointer<UInt64>
    let wordsPerRow: Int
    let width: Int
    let height: Int
    let stride: Int

    /// Adds the edge (x0, y0)→(x1, y1), in coordinates relative to the area's top-left corner.
    /// Parts above, below, left or right of the area are clipped; parts to the left still count
    /// (they shift the winding of everything to their right), parts to the right do not.
    @usableFromInline func addEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        guard y0 != y1 else { return }
        var (ax, ay, bx, by) = (x0, y0, x1, y1)
        // Clip to 0...height vertically.
        let h = Double(height)
        let (top, bottom) = ay < by ? (ay, by) : (by, ay)
        if bottom <= 0 || top >= h { return }
        if ay < 0 || ay > h || by < 0 || by > h {
            let dxdy = (bx - ax) / (by - ay)
            if ay < 0 { ax += (0 - ay) * dxdy; ay = 0 } else if ay > h { ax += (h - ay) * dxdy; ay = h }
            if by < 0 { bx += (0 - by) * dxdy; by = 0 } else if by > h { bx += (h - by) * dxdy; by = h }
            if ay == by { return }
        }
        // Split where the edge crosses x = 0 and x = width, and clamp the outside pieces onto those lines.
        let w = Double(width)
        var xs: [Double] = []
        if (ax < 0) != (bx < 0) { xs.append(0) }
        if (ax > w) != (bx > w) { xs.append(w) }
        if xs.isEmpty {
            accumulate(clampX(ax), ay, clampX(bx), by)
            return
        }
        var points: [(Double, Double)] = [(ax, ay)]
        var ts = xs.map { (($0 - ax) / (bx - ax), $0) }
        ts.sort { $0.0 < $1.0 }
        for (t, x) in ts { points.append((x, ay + (by - ay) * Swift.min(Swift.max(t, 0), 1))) }
        points.append((bx, by))
        for i in 0..<(points.count - 1) {
            let (px, py) = points[i], (qx, qy) = points[i + 1]
            accumulate(clampX(px), py, clampX(qx), qy)
        }
    }

    /// A vertical edge (the sides of every rectangle and list row) puts the same two cells in each
    /// row it crosses; only its first and last rows are partly covered.
    @usableFromInline func accumulateVertical(x: Double, _ sy: Double, _ ey: Double, firstRow: Int, lastRow: Int, dir: Float) {
        let ia = Int(x)
        let xm = Float(x - Double(ia))
        let touchedMax = Int32(ia + 1)
        for row in firstRow..<lastRow {
            let dy = Swift.min(Double(row + 1), ey) - Swift.max(Double(row), sy)
            let d = Float(dy) * dir
            let line = cells + row &* stride
            line[ia] += d - d * xm
            line[ia + 1] += d * xm
            CoverageRasterizer.markTouched(bits, wordsPerRow: wordsPerRow, row: row, from: ia, to: ia + 1)
            if Int32(ia) < rowMin[row] { rowMin[row] = Int32(ia) }
            if touchedMax > rowMax[row] { rowMax[row] = touchedMax }
        }
    }

    @inline(__always) static func ceilNonNegative(_ x: Double) -> Int {
        let i = Int(x)
        return Double(i) < x ? i + 1 : i
    }

    @usableFromInline func clampX(_ x: Double) -> Double { Swift.min(Swift.max(x, 0), Double(width)) }

    /// Accumulates an edge already inside [0, width] × [0, height].
    @usableFromInline func accumulate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let dir: Float = y0 < y1 ? 1 : -1
        let (sx, sy, ex, ey) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let dxdy = (ex - sx) / (ey - sy)
        // Every coordinate here is ≥ 0, so truncation is floor: no libm call per row (baseline x86-64
        // has no rounding instruction).
        let firstRow = Int(sy), lastRow = Swift.min(height, Self.ceilNonNegative(ey))
        guard firstRow < lastRow else { return }
        if sx == ex {
            accumulateVertical(x: sx, sy, ey, firstRow: firstRow, lastRow: lastRow, dir: dir)
            return
        }
        let limit = Double(width)
        var x = sx
        do {
            let acc = cells
            for row in firstRow..<lastRow {
                let rowTop = Swift.max(Double(row), sy), rowBottom = Swift.min(Double(row + 1), ey)
                let dy = rowBottom - rowTop
                var xNext = x + dxdy * dy
                xNext = Swift.min(Swift.max(xNext, 0), limit)
                let d = Float(dy) * dir
                let line = acc + row &* stride
                let (xa, xb) = x < xNext ? (x, xNext) : (xNext, x)
                let ia = Int(xa)
                let xaFloor = Double(ia)
                let ib = Self.ceilNonNegative(xb)
                let xbCeil = Double(ib)
                var touchedMax = ib
                if ib <= ia + 1 {
                    // Within one column: split by the mean x.
                    let xm = Float(0.5 * (x + xNext) - xaFloor)
                    line[ia] += d - d * xm
                    line[ia + 1] += d * xm
                    touchedMax = ia + 1
                } else {
                    // Across columns: the swept area grows linearly between the two partial ends.
                    let s = Float(1 / (xb - xa))
                    let fa = Float(xa - xaFloor)
                    let a0 = 0.5 * s * (1 - fa) * (1 - fa)
                    let fb = Float(xb - xbCeil + 1)
                    let am = 0.5 * s * fb * fb
                    line[ia] += d * a0
                    if ib == ia + 2 {
                        line[ia + 1] += d * (1 - a0 - am)
                    } else {
                        let a1 = s * (1.5 - fa)
                        line[ia + 1] += d * (a1 - a0)
                        var k = ia + 2
                        while k < ib - 1 { line[k] += d * s; k += 1 }
                        let a2 = a1 + Float(ib - ia - 3) * s
                        line[ib - 1] += d * (1 - a2 - am)
                    }
                    line[ib] += d * am
                }
                CoverageRasterizer.markTouched(bits, wordsPerRow: wordsPerRow, row: row, from: ia, to: touchedMax)
                if Int32(ia) < rowMin[row] { rowMin[row] = Int32(ia) }
                if Int32(touchedMax) > rowMax[row] { rowMax[row] = Int32(touchedMax) }
                x = xNext
            }
        }
    }

}
