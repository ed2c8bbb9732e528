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
    @usableFromInline var cells: [Float] = []
    @usableFromInline var coverageRow: [UInt8] = []
    /// Leftmost and rightmost touched cell of each row, so that untouched stretches are never scanned.
    @usableFromInline var rowMin: [Int32] = []
    @usableFromInline var rowMax: [Int32] = []
    @usableFromInline var width = 0
    @usableFromInline var height = 0
    @usableFromInline var stride = 0

    @usableFromInline init() {}

    /// Prepares a zeroed area of `width`x`height` pixels.
    @usableFromInline func reset(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width + 2
        let need = stride * height
        if cells.count < need { cells = [Float](repeating: 0, count: need) }
        if coverageRow.count < stride { coverageRow = [UInt8](repeating: 0, count: stride) }
        if rowMin.count < height {
            rowMin = [Int32](repeating: 0, count: height)
            rowMax = [Int32](repeating: 0, count: height)
        }
        for y in 0..<height { rowMin[y] = Int32.max; rowMax[y] = -1 }
    }

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

    @inlinable func clampX(_ x: Double) -> Double { Swift.min(Swift.max(x, 0), Double(width)) }

    /// Accumulates an edge already inside [0, width] × [0, height].
    @usableFromInline func accumulate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let dir: Float = y0 < y1 ? 1 : -1
        let (sx, sy, ex, ey) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let dxdy = (ex - sx) / (ey - sy)
        let firstRow = Int(sy), lastRow = Swift.min(height, Int(ey.rounded(.up)))
        guard firstRow < lastRow else { return }
        let limit = Double(width)
        var x = sx
        cells.withUnsafeMutableBufferPointer { buf in
            let acc = buf.baseAddress!
            for row in firstRow..<lastRow {
                let rowTop = Swift.max(Double(row), sy), rowBottom = Swift.min(Double(row + 1), ey)
                let dy = rowBottom - rowTop
                var xNext = x + dxdy * dy
                xNext = Swift.min(Swift.max(xNext, 0), limit)
                let d = Float(dy) * dir
                let line = acc + row * stride
                let (xa, xb) = x < xNext ? (x, xNext) : (xNext, x)
                let xaFloor = xa.rounded(.down)
                let ia = Int(xaFloor)
                let xbCeil = xb.rounded(.up)
                let ib = Int(xbCeil)
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
                if Int32(ia) < rowMin[row] { rowMin[row] = Int32(ia) }
                if Int32(touchedMax) > rowMax[row] { rowMax[row] = Int32(touchedMax) }
                x = xNext
            }
        }
    }

    /// Adds every segment of the polylines (closing each), offset by (-originX, -originY).
    @usableFromInline func addPolylines(_ polylines: [Polyline], originX: Int, originY: Int) {
        let ox = Double(originX), oy = Double(originY)
        for poly in polylines {
            let pts = poly.points
            guard pts.count >= 2 else { continue }
            var prev = pts[pts.count - 1]
            for p in pts {
                addEdge(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy)
                prev = p
            }
        }
    }

    /// Converts each row's accumulated areas into coverage bytes and hands the touched stretch to `span`
    /// as (row, first column, coverage bytes, count). Leaves the buffer zeroed.
    @inlinable func sweep(rule: FillRule, _ span: (Int, Int, UnsafePointer<UInt8>, Int) -> Void) {
        cells.withUnsafeMutableBufferPointer { buf in
            coverageRow.withUnsafeMutableBufferPointer { covBuf in
                let acc = buf.baseAddress!, cov = covBuf.baseAddress!
                for row in 0..<height {
                    let lo = Int(rowMin[row]), hi = Int(rowMax[row])
                    guard lo <= hi else { continue }
                    let line = acc + row * stride
                    let end = Swift.min(hi, width - 1)
                    var sum: Float = 0
                    if lo <= end {
                        switch rule {
                        case .nonZero:
                            for x in lo...end {
                                sum += line[x]
                                line[x] = 0
                                let a = Swift.min(Swift.abs(sum), 1)
                                cov[x - lo] = UInt8(a * 255 + 0.5)
                            }
                        case .evenOdd:
                            for x in lo...end {
                                sum += line[x]
                                line[x] = 0
                                let a = Swift.abs(sum)
                                let m = a - 2 * (a * 0.5).rounded(.down)
                                let c = m > 1 ? 2 - m : m
                                cov[x - lo] = UInt8(Swift.min(Swift.max(c, 0), 1) * 255 + 0.5)
                            }
                        }
                        span(row, lo, UnsafePointer(cov), end - lo + 1)
                    }
                    // Clear the guard cells (and anything beyond the visible width).
                    var x = Swift.max(lo, end + 1)
                    while x <= hi && x < stride { line[x] = 0; x += 1 }
                }
            }
        }
    }
}
