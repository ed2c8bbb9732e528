/// An axis-aligned rectangle given by its edges. `Rect` (continuous) and `PixelRect` (whole pixels)
/// both are one, so intersection and union are written once for both.
public protocol AxisAlignedRect {
    associatedtype Coordinate: Comparable & Numeric

    init(x: Coordinate, y: Coordinate, width: Coordinate, height: Coordinate)
    static var zero: Self { get }
    var minX: Coordinate { get }
    var minY: Coordinate { get }
    var maxX: Coordinate { get }
    var maxY: Coordinate { get }
    var isEmpty: Bool { get }
}

extension AxisAlignedRect {
    /// The overlap of both, or `.zero` when they do not overlap.
    @inlinable public func intersection(_ other: Self) -> Self {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return Self(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both; an empty one adds nothing.
    @inlinable public func union(_ other: Self) -> Self {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return Self(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
