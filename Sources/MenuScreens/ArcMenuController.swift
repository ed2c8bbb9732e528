import Geometry
import LayoutCore

/// The state of an arc menu: rows ride an ellipse and a finger drags them along it
/// (`ArcLayout.items(forDrag:)`); the scroller's position is the selection, and the rows stand at
/// `viewOffset` (the apex for a wrapping list; a list that ends keeps its arc full). A tap selects
/// a row, or activates it when it is already selected (touch-only devices have no other way to choose).
public struct ArcMenuController: MenuController {
    public var motion: MenuMotion
    public let layout: ArcLayout

    public init(layout: ArcLayout, count: Int, wraps: Bool, selected: Int = 0) {
        self.layout = layout
        let stops = Swift.max(1, count)
        motion = MenuMotion(scroller: Scroller(domain: wraps ? .wrapping(period: stops) : .clamped(count: stops),
                                               position: ScrollOffset(whole: selected)),
                            isEmpty: count <= 0)
    }

    /// Where the rows stand now (`ArcLayout.viewOffset(for:domain:)`).
    public var viewOffset: ScrollOffset { layout.viewOffset(for: scroller.position, domain: scroller.domain) }

    /// The content index selected once the current motion ends.
    public var selectedIndex: Int { scroller.domain.contentIndex(scroller.restingPosition.nearestItem) ?? 0 }

    public func dragDistance(to p: Point, delta: Point) -> Double { layout.items(forDrag: delta) }

    public func pressTarget(at p: Point) -> PressTarget? {
        layout.hitTest(p, at: viewOffset, domain: scroller.domain).map { .item($0.item) }
    }

    public mutating func tap(at p: Point, now: Double) {
        guard let row = layout.hitTest(p, at: viewOffset, domain: scroller.domain) else { return }
        motion.tapStop(index: row.index, item: row.item, now: now)
    }
}
