/// Which corners of a rectangle are rounded; the list's top/middle/bottom/single rows need each mix.
public struct Corners: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let topLeft = Corners(rawValue: 1 << 0)
    public static let topRight = Corners(rawValue: 1 << 1)
    public static let bottomRight = Corners(rawValue: 1 << 2)
    public static let bottomLeft = Corners(rawValue: 1 << 3)
    public static let top: Corners = [.topLeft, .topRight]
    public static let bottom: Corners = [.bottomLeft, .bottomRight]
    public static let all: Corners = [.top, .bottom]
}

/// A rectangle whose chosen corners are quarter circles: the shape hit tests must agree with.
public struct RoundedRect: Hashable, Sendable {
    public var rect: Rect
    public var radius: Double
    public var corners: Corners

    public init(rect: Rect, radius: Double, corners: Corners = .all) {
        self.rect = rect
        self.radius = radius
        self.corners = corners
    }

    /// The radius actually drawn: never more than half the shorter side, never negative.
    public var effectiveRadius: Double {
        let r = radius.isFinite ? radius : 0
        return Swift.max(0, Swift.min(r, rect.width / 2, rect.height / 2))
    }

    public func contains(_ p: Point) -> Bool {
        guard rect.contains(p) else { return false }
        let r = effectiveRadius
        guard r > 0 else { return true }
        let left = p.x < rect.minX + r, right = p.x > rect.maxX - r
        let top = p.y < rect.minY + r, bottom = p.y > rect.maxY - r
        let corner: (Corners, Point)?
        switch (left, right, top, bottom) {
        case (true, _, true, _): corner = (.topLeft, Point(x: rect.minX + r, y: rect.minY + r))
        case (_, true, true, _): corner = (.topRight, Point(x: rect.maxX - r, y: rect.minY + r))
        case (true, _, _, true): corner = (.bottomLeft, Point(x: rect.minX + r, y: rect.maxY - r))
        case (_, true, _, true): corner = (.bottomRight, Point(x: rect.maxX - r, y: rect.maxY - r))
        default: corner = nil
        }
        guard let (which, c) = corner, corners.contains(which) else { return true }
        return (p - c).length <= r
    }
}
