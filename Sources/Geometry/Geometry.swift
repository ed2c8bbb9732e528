import RealModule

/// A point in a y-down screen space, in pixels.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

    /// Distance from the origin.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }

    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    public var description: String { "(\(x.formatted2), \(y.formatted2))" }
}

public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// The size with width and height exchanged, as a quarter turn sees it.
    @inlinable public var transposed: Size { Size(width: height, height: width) }

    public var description: String { "\(width.formatted2)x\(height.formatted2)" }
}

/// An axis-aligned rectangle; a negative size is treated as empty.
public struct Rect: AxisAlignedRect, Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle of the given size centred on `center`.
    @inlinable public init(center: Point, size: Size) {
        self.init(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    @inlinable public var center: Point { Point(x: midX, y: midY) }
    @inlinable public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Half-open containment: a point on the right or bottom edge belongs to the next rectangle.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    @inlinable public func intersects(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty && minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    @inlinable public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    public var description: String { "[\(origin) \(size)]" }
}

/// An angle in radians; screen space is y-down, so a positive angle turns clockwise.
public struct Angle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var radians: Double

    @inlinable public init(radians: Double) { self.radians = radians }
    @inlinable public init(degrees: Double) { self.radians = degrees * .pi / 180 }

    public static let zero = Angle(radians: 0)
    @inlinable public var degrees: Double { radians * 180 / .pi }

    /// The same direction expressed in (-π, π].
    @inlinable public var normalized: Angle {
        var r = radians.remainder(dividingBy: 2 * .pi)
        if r <= -.pi { r += 2 * .pi }
        return Angle(radians: r)
    }

    @inlinable public static func + (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians + b.radians) }
    @inlinable public static func - (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians - b.radians) }
    @inlinable public static func * (a: Angle, s: Double) -> Angle { Angle(radians: a.radians * s) }
    @inlinable public static prefix func - (a: Angle) -> Angle { Angle(radians: -a.radians) }
    @inlinable public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }

    @inlinable public var cos: Double { .cos(radians) }
    @inlinable public var sin: Double { .sin(radians) }

    /// Direction of `p` seen from `center`, via atan2.
    @inlinable public static func direction(of p: Point, from center: Point) -> Angle {
        Angle(radians: .atan2(y: p.y - center.y, x: p.x - center.x))
    }

    public var description: String { "\(degrees.formatted2)°" }
}

extension Double {
    /// Two decimals without Foundation, for logs and the demo.
    public var formatted2: String {
        guard isFinite else { return "\(self)" }
        let scaled = (self * 100).rounded()
        let negative = scaled < 0
        let magnitude = Swift.abs(scaled)
        let whole = Int(magnitude / 100)
        let cents = Int(magnitude.truncatingRemainder(dividingBy: 100))
        let text = "\(whole)." + (cents < 10 ? "0\(cents)" : "\(cents)")
        return negative && magnitude != 0 ? "-" + text : text
    }
}
