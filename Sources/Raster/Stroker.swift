import Geometry
import RealModule

/// How the ends of an open stroked subpath look.
public enum LineCap: Sendable, Hashable {
    case butt, square, round
}

/// Builds the outline of a stroke from flattened polylines, as polygons to fill with non-zero.
///
/// Each side of the centre line is offset by half the width; corners get a miter (within a miter
/// limit of 4) or a round join on the outer side, and the offset lines' intersection on the inner
/// side. A closed polyline gives two rings (the outer one forward, the inner one reversed), an
/// open one a single loop with its caps.
enum Stroker {
    static let miterLimit = 4.0
    /// Round joins and caps are flattened to within this many pixels.
    static let roundTolerance = 0.01

    static func outline(of polylines: [Polyline], width: Double, cap: LineCap) -> [Polyline] {
        guard width > 0, width.isFinite else { return [] }
        let hw = width / 2
        var out: [Polyline] = []
        for poly in polylines {
            var pts: [Point] = []
            for p in poly.points where pts.last.map({ ($0 - p).length > 1e-9 }) ?? true { pts.append(p) }
            if poly.closed, pts.count > 2, let f = pts.first, let l = pts.last, (f - l).length <= 1e-9 { pts.removeLast() }
            if pts.count < 2 {
                // A lone point: round and square caps still draw a dot, as in cairo.
                if let p = pts.first, cap != .butt {
                    out.append(Polyline(points: cap == .round ? arcPoints(center: p, radius: hw, from: 0, sweep: 2 * .pi) :
                        [Point(x: p.x - hw, y: p.y - hw), Point(x: p.x + hw, y: p.y - hw), Point(x: p.x + hw, y: p.y + hw), Point(x: p.x - hw, y: p.y + hw)], closed: true))
                }
                continue
            }
            let closed = poly.closed && pts.count > 2
            let n = pts.count
            let segCount = closed ? n : n - 1
            var dirs: [Point] = []
            dirs.reserveCapacity(segCount)
            for i in 0..<segCount {
                let d = pts[(i + 1) % n] - pts[i]
                dirs.append(d * (1 / d.length))
            }
            func normal(_ d: Point) -> Point { Point(x: -d.y, y: d.x) }

            /// Offset points for vertex `i` on side `s` (+1 left of travel, -1 right).
            func join(_ i: Int, _ s: Double, into side: inout [Point]) {
                let din = dirs[(i - 1 + segCount) % segCount], dout = dirs[i % segCount]
                let offset: Double = s * hw  // explicit types: Swift 6.0's type checker needs them here
                let nin: Point = normal(din) * offset, nout: Point = normal(dout) * offset
                let p = pts[i]
                let cross = din.x * dout.y - din.y * dout.x
                let dot = din.x * dout.x + din.y * dout.y
                if Swift.abs(cross) < 1e-12 && dot > 0 { side.append(p + nin); return }
                let inner = s * cross > 0
                let miterScale = 1 / (1 + dot)      // |n_in + n_out| scaled to reach the offset lines' intersection
                if inner {
                    if 1 + dot > 0.1 {
                        side.append(p + (nin + nout) * miterScale)
                    } else {
                        side.append(p + nin); side.append(p); side.append(p + nout)
                    }
                    return
                }
                let miterLength = (2 * miterScale).squareRoot()   // 1 / cos(half the turn)
                if miterLength <= miterLimit {
                    side.append(p + (nin + nout) * miterScale)
                } else {
                    let a0: Double = Double.atan2(y: nin.y, x: nin.x)
                    var sweep: Double = Double.atan2(y: nout.y, x: nout.x) - a0
                    if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }
                    side.append(contentsOf: arcPoints(center: p, radius: hw, from: a0, sweep: sweep))
                }
            }

            if closed {
                var left: [Point] = [], right: [Point] = []
                for i in 0..<n { join(i, 1, into: &left); join(i, -1, into: &right) }
                out.append(Polyline(points: left, closed: true))
                out.append(Polyline(points: right.reversed(), closed: true))
            } else {
                var left: [Point] = [], right: [Point] = []
                left.append(pts[0] + normal(dirs[0]) * hw)
                right.append(pts[0] - normal(dirs[0]) * hw)
                if n > 2 { for i in 1..<(n - 1) { join(i, 1, into: &left); join(i, -1, into: &right) } }
                let dl = dirs[segCount - 1]
                left.append(pts[n - 1] + normal(dl) * hw)
                right.append(pts[n - 1] - normal(dl) * hw)
                if cap == .square {
                    let e = dl * hw, b = dirs[0] * hw
                    left[left.count - 1] = left[left.count - 1] + e
                    right[right.count - 1] = right[right.count - 1] + e
                    left[0] = left[0] - b
                    right[0] = right[0] - b
                }
                var loop = left
                if cap == .round {
                    let a = Double.atan2(y: normal(dl).y, x: normal(dl).x)
                    loop.append(contentsOf: arcPoints(center: pts[n - 1], radius: hw, from: a, sweep: -.pi))
                }
                loop.append(contentsOf: right.reversed())
                if cap == .round {
                    let a = Double.atan2(y: -normal(dirs[0]).y, x: -normal(dirs[0]).x)
                    loop.append(contentsOf: arcPoints(center: pts[0], radius: hw, from: a, sweep: -.pi))
                }
                out.append(Polyline(points: loop, closed: true))
            }
        }
        return out
    }

    static func arcPoints(center: Point, radius: Double, from a0: Double, sweep: Double) -> [Point] {
        let step = radius > roundTolerance ? 2 * Double.acos(1 - roundTolerance / radius) : .pi / 2
        let n = Flattener.pieces(Swift.abs(sweep) / step)
        return (0...n).map { k in
            let a = a0 + sweep * Double(k) / Double(n)
            return Point(x: center.x + radius * .cos(a), y: center.y + radius * .sin(a))
        }
    }
}
