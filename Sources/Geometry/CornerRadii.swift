/// Corner radii of a rounded rectangle, clockwise from the top left.
public struct CornerRadii: Hashable, Sendable {
    public var topLeft: Double
    public var topRight: Double
    public var bottomRight: Double
    public var bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        (self.topLeft, self.topRight, self.bottomRight, self.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
    }

    public init(all r: Double) { self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r) }

    /// The radii of `shape`: its effective radius at the corners it rounds, 0 at the others.
    public init(_ shape: RoundedRect) {
        let r = shape.effectiveRadius
        func radius(_ corner: Corners) -> Double { shape.corners.contains(corner) ? r : 0 }
        self.init(topLeft: radius(.topLeft), topRight: radius(.topRight), bottomRight: radius(.bottomRight), bottomLeft: radius(.bottomLeft))
    }

    /// Radii made non-negative (NaN = 0) and scaled down together so that they fit in `size`.
    public func fitted(to size: Size) -> CornerRadii {
        func clean(_ v: Double) -> Double { v > 0 ? Swift.min(v, 1e9) : 0 }
        var c = CornerRadii(topLeft: clean(topLeft), topRight: clean(topRight), bottomRight: clean(bottomRight), bottomLeft: clean(bottomLeft))
        var f = 1.0
        func limit(_ sum: Double, _ length: Double) { if sum > length, sum > 0 { f = Swift.min(f, length / sum) } }
        limit(c.topLeft + c.topRight, size.width)
        limit(c.bottomLeft + c.bottomRight, size.width)
        limit(c.topLeft + c.bottomLeft, size.height)
        limit(c.topRight + c.bottomRight, size.height)
        if f < 1 {
            c = CornerRadii(topLeft: c.topLeft * f, topRight: c.topRight * f, bottomRight: c.bottomRight * f, bottomLeft: c.bottomLeft * f)
        }
        return c
    }
}
