/// An integer rectangle of whole pixels: columns x..<x+width, rows y..<y+height.
/// Clips and damage are whole pixels, so they use this rather than `Rect`.
public struct PixelRect: AxisAlignedRect, Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    @inlinable public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = Swift.max(0, width)
        self.height = Swift.max(0, height)
    }

    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    @inlinable public var minX: Int { x }
    @inlinable public var minY: Int { y }
    @inlinable public var maxX: Int { x + width }
    @inlinable public var maxY: Int { y + height }
    @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }
    @inlinable public var area: Int { isEmpty ? 0 : width * height }

    @inlinable public func intersects(_ o: PixelRect) -> Bool { !intersection(o).isEmpty }

    @inlinable public func contains(_ o: PixelRect) -> Bool {
        o.isEmpty || (o.minX >= minX && o.minY >= minY && o.maxX <= maxX && o.maxY <= maxY)
    }

    /// The smallest pixel rectangle that covers `rect`; NaN or huge values are clamped, never trapped on.
    public init(covering rect: Rect) {
        let x0 = clampToPixel(rect.minX.rounded(.down)), y0 = clampToPixel(rect.minY.rounded(.down))
        let x1 = clampToPixel(rect.maxX.rounded(.up)), y1 = clampToPixel(rect.maxY.rounded(.up))
        guard rect.width > 0, rect.height > 0, x1 > x0, y1 > y0 else { self = .zero; return }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    public var description: String { "[\(x),\(y) \(width)x\(height)]" }
}

/// Converts a coordinate to Int without trapping: NaN becomes 0, huge values are clamped.
@inlinable package func clampToPixel(_ v: Double) -> Int {
    guard v == v else { return 0 }
    return Int(Swift.min(Swift.max(v, -1_000_000_000), 1_000_000_000))
}
