import Geometry
import RealModule

/// Which screen edge the ellipse of an arc menu hugs. Its centre lies on that edge and the
/// rows ride the half that bulges into the screen; top and bottom give a horizontal list.
public enum ArcEdge: String, CaseIterable, Hashable, Sendable {
    case left, right, top, bottom

    /// Rows move along y for left/right edges and along x for top/bottom.
    public var isVertical: Bool { self == .left || self == .right }
}

/// One row of an arc menu as it stands on screen.
public struct ArcRow: Hashable, Sendable {
    /// Index into the content (already wrapped for infinite lists).
    public var index: Int
    /// The unbounded item number; differs from `index` by multiples of the count when wrapping.
    public var item: Int
    /// Centre of the row on screen.
    public var center: Point
    /// Angle on the ellipse: 0 at the apex, ±π/2 at the ends of the half-ellipse.
    public var angle: Angle
    /// Signed distance from the apex along the list, in rows (0 = at the apex, 1 = one row after).
    public var distanceFromApex: Double
    /// The drawn rectangle of the row (before any corner rounding).
    public var frame: Rect
}

/// The circular table view of seeds 000–002: rows on a list axis, pushed across by an ellipse.
///
/// Row `i` at offset `s` (items) sits at `u = cu + (i − s)·pitch` along the axis and at
/// `rx·cos(asin((u − cu)/ry))` from the edge across it. `cos(asin(t))` is computed as
/// `√(1 − t²)` with `t` held in [-1, 1], so no input can make a NaN.
public struct ArcLayout: Hashable, Sendable {
    public var viewport: Rect
    public var edge: ArcEdge
    /// Distance between the centres of neighbouring rows along the axis, in pixels.
    public var pitch: Double
    /// Drawn size of a row: `length` across the axis, `thickness` along it.
    public var rowLength: Double
    public var rowThickness: Double
    /// Radius along the axis; nil means half the viewport's extent along the axis.
    public var alongRadius: Double?
    /// Radius across the axis as a fraction of the radius along it.
    public var radiusRatio: Double
    /// Gap in pixels between the ellipse and the row's outer side; moves rows into the screen.
    public var inset: Double
    /// Free translation of everything, in screen pixels.
    public var translation: Point

    public init(
        viewport: Rect, edge: ArcEdge = .right, pitch: Double, rowLength: Double, rowThickness: Double? = nil,
        alongRadius: Double? = nil, radiusRatio: Double = 0.6, inset: Double = 16, translation: Point = .zero
    ) {
        self.viewport = viewport
        self.edge = edge
        self.pitch = pitch
        self.rowLength = rowLength
        self.rowThickness = rowThickness ?? pitch * 0.8
        self.alongRadius = alongRadius
        self.radiusRatio = radiusRatio
        self.inset = inset
        self.translation = translation
    }

    // Sanitised parameters: every non-finite or negative input becomes something harmless.
    @usableFromInline var safePitch: Double { pitch.isFinite && pitch > 0 ? pitch : 0 }
    @usableFromInline var safeViewport: Rect {
        let v = viewport
        guard v.origin.isFinite, v.size.width.isFinite, v.size.height.isFinite else { return .zero }
        return Rect(x: v.minX, y: v.minY, width: Swift.max(0, v.width), height: Swift.max(0, v.height))
    }
    @usableFromInline var ry: Double {
        let extent = edge.isVertical ? safeViewport.height : safeViewport.width
        if let r = alongRadius, r.isFinite, r > 0 { return Swift.min(r, 1e9) }
        return extent / 2
    }
    @usableFromInline var rx: Double {
        let ratio = radiusRatio.isFinite ? Swift.max(0, Swift.min(radiusRatio, 1e6)) : 0
        return ry * ratio
    }
    @usableFromInline func finite(_ v: Double) -> Double { v.isFinite ? Swift.max(-1e9, Swift.min(1e9, v)) : 0 }

    /// Centre of the ellipse on screen.
    public var ellipseCenter: Point {
        let v = safeViewport
        let t = Point(x: finite(translation.x), y: finite(translation.y))
        switch edge {
        case .left: return Point(x: v.minX, y: v.midY) + t
        case .right: return Point(x: v.maxX, y: v.midY) + t
        case .top: return Point(x: v.midX, y: v.minY) + t
        case .bottom: return Point(x: v.midX, y: v.maxY) + t
        }
    }

    /// The item numbers whose rows can be on the ellipse at `offset`: O(1) to compute.
    public func candidateItems(at offset: ScrollOffset) -> ClosedRange<Int>? {
        let p = safePitch
        guard p > 0, ry > 0 else { return nil }
        let reach = Swift.min((ry + rowExtentAlong / 2) / p, 1e6)
        let lo = Int((offset.fraction - reach).rounded(.up)) - 1
        let hi = Int((offset.fraction + reach).rounded(.down)) + 1
        return (offset.whole &+ lo)...(offset.whole &+ hi)
    }

    @usableFromInline var rowExtentAlong: Double { finite(Swift.max(0, rowThickness)) }

    /// Where the row of item number `item` stands at `offset`, or nil when it lies off the ellipse.
    public func row(item: Int, at offset: ScrollOffset, domain: ScrollDomain) -> ArcRow? {
        guard let index = domain.contentIndex(item) else { return nil }
        let p = safePitch, r = ry
        guard p > 0, r > 0 else { return nil }
        // Relative position is computed from small numbers only: (item − whole) − fraction.
        let rel = Double(item &- offset.whole) - offset.fraction
        let along = rel * p
        guard Swift.abs(along) <= r else { return nil }
        let t = Swift.max(-1, Swift.min(1, along / r))
        let bulge = rx * (1 - t * t).squareRoot()
        let angle = Angle(radians: .asin(t))
        let c = ellipseCenter
        let length = finite(Swift.max(0, rowLength))
        let thickness = rowExtentAlong
        let across = bulge + finite(inset) + length / 2
        let center: Point
        let size: Size
        switch edge {
        case .left: center = Point(x: c.x + across, y: c.y + along); size = Size(width: length, height: thickness)
        case .right: center = Point(x: c.x - across, y: c.y + along); size = Size(width: length, height: thickness)
        case .top: center = Point(x: c.x + along, y: c.y + across); size = Size(width: thickness, height: length)
        case .bottom: center = Point(x: c.x + along, y: c.y - across); size = Size(width: thickness, height: length)
        }
        return ArcRow(index: index, item: item, center: center, angle: angle, distanceFromApex: rel,
                      frame: Rect(center: center, size: size))
    }

    /// The rows on the ellipse, in item order; O(visible rows) whatever the item count.
    public func visibleRows(at offset: ScrollOffset, domain: ScrollDomain) -> [ArcRow] {
        var rows: [ArcRow] = []
        forEachVisibleRow(at: offset, domain: domain) { rows.append($0) }
        return rows
    }

    /// Allocation-free form of `visibleRows` for the per-frame path.
    @inlinable public func forEachVisibleRow(at offset: ScrollOffset, domain: ScrollDomain, _ body: (ArcRow) -> Void) {
        guard let items = candidateItems(at: offset) else { return }
        for item in items {
            if let row = row(item: item, at: offset, domain: domain) { body(row) }
        }
    }

    /// Rows that stand between the apex and either end of the arc.
    public var rowsBeyondApex: Int {
        let p = safePitch
        guard p > 0 else { return 0 }
        return Int(Swift.min(ry / p + 1e-9, 1e6))
    }

    /// Where the rows stand when the selection is at `selection`. A wrapping list keeps its
    /// selection at the apex. A list that ends keeps the arc full: it opens with its first row at
    /// the top end, and the selection walks off the apex towards an end instead of the rows leaving
    /// half of the arc empty; a list shorter than the arc stands centred on the apex.
    public func viewOffset(for selection: ScrollOffset, domain: ScrollDomain) -> ScrollOffset {
        guard case .bounded(let lower, let upper) = domain else { return selection }
        let beyond = rowsBeyondApex
        let first = lower &+ beyond, last = upper &- beyond
        guard first <= last else {
            let middle = (Double(lower) + Double(upper)) / 2
            return ScrollOffset(middle)
        }
        if selection < ScrollOffset(whole: first) { return ScrollOffset(whole: first) }
        if ScrollOffset(whole: last) < selection { return ScrollOffset(whole: last) }
        return selection
    }

    /// The item number drawn at the apex (the selection) for a settled or moving offset.
    public func apexItem(at offset: ScrollOffset) -> Int { offset.nearestItem }

    /// Offset change, in items, for a finger moving by `delta` pixels: 1:1 along the axis.
    /// Dragging content towards smaller coordinates brings later items to the apex.
    public func items(forDrag delta: Point) -> Double {
        let p = safePitch
        guard p > 0 else { return 0 }
        let along = edge.isVertical ? delta.y : delta.x
        return along.isFinite ? -along / p : 0
    }

    /// The row under `point` (its rounded rectangle, radius a quarter of the thickness by default).
    public func hitTest(_ point: Point, at offset: ScrollOffset, domain: ScrollDomain, cornerRadius: Double? = nil) -> ArcRow? {
        var hit: ArcRow?
        let radius = cornerRadius ?? rowExtentAlong / 4
        forEachVisibleRow(at: offset, domain: domain) { row in
            if hit == nil, RoundedRect(rect: row.frame, radius: radius).contains(point) { hit = row }
        }
        return hit
    }
}
