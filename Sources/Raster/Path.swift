import Geometry
import RealModule

/// A vector outline: subpaths of lines, quadratic and cubic Béziers and elliptical arcs, in a y-down
/// space. Angles run clockwise on screen (y-down), 0 pointing right. Filling closes open subpaths.
public struct Path: Sendable {
    @usableFromInline
    enum Element: Sendable {
        case move(Point)
        case line(Point)
        case quad(control: Point, end: Point)
        case cubic(control1: Point, control2: Point, end: Point)
        /// Points `center + rotate(rotation) · (rx cos t, ry sin t)` for t from `start` to `start + sweep`.
        case arc(center: Point, radii: Size, rotation: Double, start: Double, sweep: Double)
        case close
    }

    @usableFromInline var elements: [Element] = []

    public init() {}

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point) { elements.append(.move(p)) }
    public mutating func line(to p: Point) { elements.append(.line(p)) }
    public mutating func quad(to end: Point, control: Point) { elements.append(.quad(control: control, end: end)) }
    public mutating func cubic(to end: Point, control1: Point, control2: Point) {
        elements.append(.cubic(control1: control1, control2: control2, end: end))
    }
    public mutating func close() { elements.append(.close) }

    /// An elliptical arc; joined to the current point by a line, or starting a subpath if there is none.
    /// `sweep` > 0 turns clockwise on screen.
    public mutating func arc(center: Point, radii: Size, rotation: Angle = .zero, start: Angle, sweep: Angle) {
        elements.append(.arc(center: center, radii: radii, rotation: rotation.radians, start: start.radians, sweep: sweep.radians))
    }

    /// A circular arc (see `arc(center:radii:...)`).
    public mutating func arc(center: Point, radius: Double, start: Angle, sweep: Angle) {
        arc(center: center, radii: Size(width: radius, height: radius), start: start, sweep: sweep)
    }

    /// Appends all subpaths of `other`.
    public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }

    // MARK: Shapes

    public static func rect(_ r: Rect) -> Path {
        var p = Path()
        guard !r.isEmpty else { return p }
        p.move(to: Point(x: r.minX, y: r.minY))
        p.line(to: Point(x: r.maxX, y: r.minY))
        p.line(to: Point(x: r.maxX, y: r.maxY))
        p.line(to: Point(x: r.minX, y: r.maxY))
        p.close()
        return p
    }

    /// A rectangle with its own radius at each corner; radii that do not fit are scaled down together
    /// (as CSS does), so neighbouring corners never overlap.
    public static func roundedRect(_ r: Rect, radii: CornerRadii) -> Path {
        guard !r.isEmpty else { return Path() }
        let c = radii.fitted(to: r.size)
        var p = Path()
        let q = Double.pi / 2
        p.move(to: Point(x: r.minX + c.topLeft, y: r.minY))
        p.line(to: Point(x: r.maxX - c.topRight, y: r.minY))
        if c.topRight > 0 { p.arc(center: Point(x: r.maxX - c.topRight, y: r.minY + c.topRight), radius: c.topRight, start: Angle(radians: -q), sweep: Angle(radians: q)) }
        p.line(to: Point(x: r.maxX, y: r.maxY - c.bottomRight))
        if c.bottomRight > 0 { p.arc(center: Point(x: r.maxX - c.bottomRight, y: r.maxY - c.bottomRight), radius: c.bottomRight, start: .zero, sweep: Angle(radians: q)) }
        p.line(to: Point(x: r.minX + c.bottomLeft, y: r.maxY))
        if c.bottomLeft > 0 { p.arc(center: Point(x: r.minX + c.bottomLeft, y: r.maxY - c.bottomLeft), radius: c.bottomLeft, start: Angle(radians: q), sweep: Angle(radians: q)) }
        p.line(to: Point(x: r.minX, y: r.minY + c.topLeft))
        if c.topLeft > 0 { p.arc(center: Point(x: r.minX + c.topLeft, y: r.minY + c.topLeft), radius: c.topLeft, start: Angle(radians: .pi), sweep: Angle(radians: q)) }
        p.close()
        return p
    }

    public static func roundedRect(_ r: Rect, radius: Double) -> Path {
        roundedRect(r, radii: CornerRadii(all: radius))
    }

    public static func ellipse(in r: Rect) -> Path {
        var p = Path()
        guard !r.isEmpty else { return p }
        p.arc(center: r.center, radii: Size(width: r.width / 2, height: r.height / 2), start: .zero, sweep: Angle(radians: 2 * .pi))
        p.close()
        return p
    }

    public static func circle(center: Point, radius: Double) -> Path {
        ellipse(in: Rect(center: center, size: Size(width: 2 * radius, height: 2 * radius)))
    }

    /// The part of a ring between `innerRadius` and `outerRadius` from `start` over `sweep`
    /// (a pie slice when `innerRadius` is 0; a full ring when |sweep| ≥ 2π).
    public static func ringSector(center: Point, innerRadius: Double, outerRadius: Double, start: Angle, sweep: Angle) -> Path {
        var p = Path()
        guard outerRadius > 0, innerRadius >= 0, innerRadius < outerRadius, sweep.radians != 0, sweep.radians.isFinite else { return p }
        let full = Swift.abs(sweep.radians) >= 2 * .pi
        let s = full ? Angle(radians: 2 * .pi) : sweep
        p.arc(center: center, radius: outerRadius, start: start, sweep: s)
        if full {
            p.close()
            if innerRadius > 0 {
                p.arc(center: center, radius: innerRadius, start: start, sweep: -s)
                p.close()
            }
            return p
        }
        if innerRadius > 0 {
            p.arc(center: center, radius: innerRadius, start: start + s, sweep: -s)
        } else {
            p.line(to: center)
        }
        p.close()
        return p
    }

    /// A straight segment, for stroking.
    public static func line(from a: Point, to b: Point) -> Path {
        var p = Path()
        p.move(to: a)
        p.line(to: b)
        return p
    }

    /// A closed polygon through `points`.
    public static func polygon(_ points: [Point]) -> Path {
        var p = Path()
        guard let first = points.first else { return p }
        p.move(to: first)
        for q in points.dropFirst() { p.line(to: q) }
        p.close()
        return p
    }
}

extension Path {
    /// The outline of Geometry's `RoundedRect` (the shape its hit tests use): the chosen corners
    /// get the effective radius, the others stay square.
    public static func roundedRect(_ shape: RoundedRect) -> Path {
        roundedRect(shape.rect, radii: CornerRadii(shape))
    }
}
