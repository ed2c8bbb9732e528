import RealModule

/// A 2D affine map `p' = (a·x + c·y + tx, b·x + d·y + ty)`, the same convention as CGAffineTransform.
public struct AffineTransform: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double

    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    @inlinable public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    @inlinable public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Rotation about the origin; quarter turns are exact so that pixel grids map onto pixel grids.
    @inlinable public static func rotation(_ angle: Angle) -> AffineTransform {
        let (s, c) = exactSinCos(angle.radians)
        return AffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Rotation by `angle` about `center`.
    @inlinable public static func rotation(_ angle: Angle, about center: Point) -> AffineTransform {
        translation(x: -center.x, y: -center.y)
            .concatenating(rotation(angle))
            .concatenating(translation(x: center.x, y: center.y))
    }

    /// `self` first, then `other`.
    @inlinable public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * t.a + b * t.c, b: a * t.b + b * t.d,
            c: c * t.a + d * t.c, d: c * t.b + d * t.d,
            tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    @inlinable public var determinant: Double { a * d - b * c }

    /// The inverse map, or nil when the map collapses the plane.
    @inlinable public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    @inlinable public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    @inlinable public var isIdentity: Bool { self == .identity }
}

/// sin and cos that are exactly 0 or ±1 at multiples of a quarter turn.
@inlinable func exactSinCos(_ radians: Double) -> (sin: Double, cos: Double) {
    let quarters = radians / (.pi / 2)
    let rounded = quarters.rounded()
    if Swift.abs(quarters - rounded) < 1e-12, let q = Int(exactly: rounded) {
        switch ((q % 4) + 4) % 4 {
        case 0: return (0, 1)
        case 1: return (1, 0)
        case 2: return (0, -1)
        default: return (-1, 0)
        }
    }
    return (.sin(radians), .cos(radians))
}
