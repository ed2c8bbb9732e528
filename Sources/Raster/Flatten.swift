import Geometry
import RealModule

/// A run of connected points in device space, the output of flattening one subpath.
@usableFromInline
struct Polyline {
    @usableFromInline var points: [Point]
    @usableFromInline var closed: Bool
}

/// Turns a `Path` into polylines in device space, with the transform applied.
///
/// Curves are split adaptively: the number of pieces follows from the curve's second difference
/// (Béziers) or its radius (arcs) so that the chord never strays more than the tolerance from
/// the curve. Subpaths with a NaN or infinite point are dropped whole, so that a bad coordinate
/// can never leave an unclosed winding behind.
@usableFromInline
enum Flattener {
    /// Maximum distance between a Bézier and its chords, in device pixels.
    @usableFromInline static let curveTolerance = 0.004
    /// Maximum distance between an arc and its chords; arcs make the round shapes the coverage tests check.
    @usableFromInline static let arcTolerance = 0.0025
    /// Pieces per curve are capped so that a huge or hostile curve costs bounded time.
    @usableFromInline static let maxPiecesPerCurve = 8192
    /// Coordinates are clamped into ±this after the transform, keeping the rasterizer's maths finite.
    @usableFromInline static let coordinateLimit = 1e7

    @usableFromInline
    static func flatten(_ path: Path, transform t: AffineTransform) -> [Polyline] {
        // Largest stretch the transform can apply: converts device tolerances into path units.
        let scale = Swift.max((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
        guard scale.isFinite, scale > 0 else { return [] }
        var result: [Polyline] = []
        var current: [Point] = []      // device points of the open subpath
        var valid = true
        var last = Point.zero          // last point in path space
        var start = Point.zero         // subpath start in path space
        var hasCurrent = false
        var everStarted = false        // after a close, a line starts from the closed subpath's start

        func emit(_ p: Point) {
            var q = t.apply(p)
            if !q.isFinite { valid = false; return }
            q.x = Swift.min(Swift.max(q.x, -coordinateLimit), coordinateLimit)
            q.y = Swift.min(Swift.max(q.y, -coordinateLimit), coordinateLimit)
            current.append(q)
        }
        func finish(closed: Bool) {
            if valid && current.count >= 2 { result.append(Polyline(points: current, closed: closed)) }
            current.removeAll(keepingCapacity: true)
            valid = true
        }
        func ensureStarted(at p: Point) {
            if !hasCurrent { start = p; last = p; hasCurrent = true; everStarted = true; emit(p) }
        }

        for element in path.elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                start = p; last = p; hasCurrent = true; everStarted = true
                emit(p)
            case .line(let p):
                if !hasCurrent { ensureStarted(at: everStarted ? last : p) }
                emit(p); last = p
            case .quad(let c, let e):
                ensureStarted(at: last)
                let dd = (last - c * 2 + e).length * scale
                let n = pieces(dd.squareRoot() / (4 * curveTolerance).squareRoot())
                for k in 1...n {
                    let u = Double(k) / Double(n), v = 1 - u
                    emit(last * (v * v) + c * (2 * u * v) + e * (u * u))
                }
                last = e
            case .cubic(let c1, let c2, let e):
                ensureStarted(at: last)
                let dd = Swift.max((last - c1 * 2 + c2).length, (c1 - c2 * 2 + e).length) * scale
                let n = pieces((0.75 * dd / curveTolerance).squareRoot())
                for k in 1...n {
                    let u = Double(k) / Double(n), v = 1 - u
                    emit(last * (v * v * v) + c1 * (3 * u * v * v) + c2 * (3 * u * u * v) + e * (u * u * u))
                }
                last = e
            case let .arc(center, radii, rotation, startAngle, sweep):
                let rx = radii.width > 0 ? radii.width : 0, ry = radii.height > 0 ? radii.height : 0
                let (rs, rc) = (Double.sin(rotation), Double.cos(rotation))
                func point(_ a: Double) -> Point {
                    let x = rx * .cos(a), y = ry * .sin(a)
                    return Point(x: center.x + x * rc - y * rs, y: center.y + x * rs + y * rc)
                }
                let first = point(startAngle)
                if hasCurrent { emit(first) } else { start = first; hasCurrent = true; everStarted = true; emit(first) }
                let r = Swift.max(rx, ry) * scale
                var n = 1
                if r > arcTolerance, sweep.isFinite {
                    let step = 2 * Double.acos(1 - arcTolerance / r)
                    n = pieces(Swift.abs(sweep) / step)
                }
                if n >= 1 && sweep.isFinite {
                    // Each point is the previous one turned by the step angle: one sin/cos per arc
                    // instead of per point (the drift after 8192 turns is ~1e-12 of the radius).
                    let step = sweep / Double(n)
                    let (sinStep, cosStep) = (Double.sin(step), Double.cos(step))
                    var (cosA, sinA) = (Double.cos(startAngle), Double.sin(startAngle))
                    for _ in 1..<n {
                        (cosA, sinA) = (cosA * cosStep - sinA * sinStep, sinA * cosStep + cosA * sinStep)
                        let x = rx * cosA, y = ry * sinA
                        emit(Point(x: center.x + x * rc - y * rs, y: center.y + x * rs + y * rc))
                    }
                    emit(point(startAngle + sweep))
                }
                last = point(startAngle + (sweep.isFinite ? sweep : 0))
            case .close:
                if hasCurrent { finish(closed: true); last = start; hasCurrent = false }
            }
        }
        finish(closed: false)
        return result
    }

    /// Rounds a piece count up into 1...maxPiecesPerCurve; NaN gives 1.
    @usableFromInline static func pieces(_ v: Double) -> Int {
        guard v > 1 else { return 1 }
        return v < Double(maxPiecesPerCurve) ? Int(v.rounded(.up)) : maxPiecesPerCurve
    }
}
