import Geometry
import RealModule

/// One item standing on the dial.
public struct DialItem: Hashable, Sendable {
    public var index: Int
    /// Unbounded item number (index + k·count when wrapping).
    public var item: Int
    /// The slot (0..<slots) the item occupies while it is on the dial.
    public var slot: Int
    /// Direction of the item from the dial's centre.
    public var angle: Angle
    public var center: Point
    /// Signed distance from the pointer, in items.
    public var distanceFromPointer: Double
    /// Turns an item drawn upright around the origin into place: rotated so that its top
    /// faces outwards, then moved to `center`.
    public var transform: AffineTransform
}

/// The rotary control of seed 003: items around a full circle, each `2π/slots` from the next.
///
/// The dial's position is a `ScrollOffset` in items, the same as an arc's: item `k` stands at
/// `pointer + (k − position)·step`. With more items than slots the dial is a window of
/// `slots` consecutive items; the one opposite the pointer changes as it turns.
public struct DialLayout: Hashable, Sendable {
    public var center: Point
    public var radius: Double
    /// Configured number of slots; fewer items than slots use one slot per item.
    public var slots: Int
    /// Where the selection pointer is; −90° is straight up.
    public var pointer: Angle
    /// Radius of each item's round hit area.
    public var itemRadius: Double

    public init(center: Point, radius: Double, slots: Int, pointer: Angle = Angle(degrees: -90), itemRadius: Double? = nil) {
        self.center = center
        self.radius = radius
        self.slots = slots
        self.pointer = pointer
        self.itemRadius = itemRadius ?? radius * 0.25
    }

    /// Slots actually used for `count` items: at least 1, at most the item count.
    public func effectiveSlots(count: Int) -> Int {
        Swift.max(1, Swift.min(slots, Swift.max(count, 1)))
    }

    /// Angle between neighbouring items.
    public func step(count: Int) -> Angle { Angle(radians: 2 * .pi / Double(effectiveSlots(count: count))) }

    /// The item at the pointer.
    public func selectedItem(at offset: ScrollOffset) -> Int { offset.nearestItem }

    /// Items on the dial at `offset`: exactly one per slot (fewer at the ends of a bounded list).
    public func visibleItems(at offset: ScrollOffset, domain: ScrollDomain, count: Int) -> [DialItem] {
        guard count > 0 else { return [] }
        let n = effectiveSlots(count: count)
        let stepRadians = 2 * .pi / Double(n)
        let c = Point(x: finite(center.x), y: finite(center.y))
        let r = radius.isFinite ? Swift.max(0, radius) : 0
        let pointerRadians = pointer.radians.isFinite ? pointer.radians : 0
        // The window [first, first + n) is centred on the position, so each slot holds one item.
        let first = offset.whole &+ Int((offset.fraction - Double(n) / 2).rounded(.up))
        var result: [DialItem] = []
        result.reserveCapacity(n)
        for item in first..<(first &+ n) {
            guard let index = domain.contentIndex(item) else { continue }
            let rel = Double(item &- offset.whole) - offset.fraction
            let angle = Angle(radians: pointerRadians + rel * stepRadians)
            let p = Point(x: c.x + r * angle.cos, y: c.y + r * angle.sin)
            let slot = ((item % n) + n) % n
            // Upright items have their top towards −y; turn them so the top faces away from the centre.
            let turn = AffineTransform.rotation(angle + Angle(radians: .pi / 2))
                .concatenating(.translation(x: p.x, y: p.y))
            result.append(DialItem(index: index, item: item, slot: slot, angle: angle, center: p,
                                   distanceFromPointer: rel, transform: turn))
        }
        return result
    }

    /// Items turned per radian of dial rotation: turning clockwise by one step brings the previous item to the pointer.
    public func items(forRotation delta: Angle, count: Int) -> Double {
        guard delta.radians.isFinite else { return 0 }
        return -delta.radians / step(count: count).radians
    }

    /// The item whose round area contains `point`, nearest first.
    public func hitTest(_ point: Point, at offset: ScrollOffset, domain: ScrollDomain, count: Int) -> DialItem? {
        let r = itemRadius.isFinite ? itemRadius : 0
        var best: (DialItem, Double)?
        for item in visibleItems(at: offset, domain: domain, count: count) {
            let d = (point - item.center).length
            if d <= r, best == nil || d < best!.1 { best = (item, d) }
        }
        return best?.0
    }

    private func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
}
