import Geometry
import LayoutCore

/// The state of an arc menu: rows ride an ellipse and a finger drags them along it
/// (`ArcLayout.items(forDrag:)`); the row at the apex is selected. A tap brings a row to the apex,
/// or activates it when it already rests there (touch-only devices have no other way to choose).
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

    /// The content index at the apex once the current motion ends.
    public var selectedIndex: Int { scroller.domain.contentIndex(scroller.restingPosition.nearestItem) ?? 0 }

    public func dragDistance(to p: Point, delta: Point) -> Double { layout.items(forDrag: delta) }

    public func pressTarget(at p: Point) -> PressTarget? {
        layout.hitTest(p, at: scroller.position, domain: scroller.domain).map { .item($0.item) }
    }

    public mutating func tap(at p: Point, now: Double) {
        guard let row = layout.hitTest(p, at: scroller.position, domain: scroller.domain) else { return }
        motion.tapStop(index: row.index, item: row.item, now: now)
    }
}
