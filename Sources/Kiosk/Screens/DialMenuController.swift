import Geometry
import LayoutCore

/// Sizes of a dial screen, derived from the style and the area below the header; every
/// length is proportional to the dial's radius so that shrinking the dial to fit keeps its look.
public struct DialGeometry: Hashable, Sendable {
    public var layout: DialLayout
    /// Size of each (upright) item shape.
    public var itemSize: Size
    /// The knob in the middle: it shows the selected item's label and carries the pointer.
    public var hubRadius: Double
    /// The square the dial (items, highlight, hub and pointer) can ever touch.
    public var bounds: Rect

    /// `area` is the part of the screen below the header; `screenMin` is min(width, height).
    public init(style: DialStyle, area: Rect, screenMin: Double, count: Int, highlightWidth: Double) {
        let slots = Swift.max(1, style.slots)
        let probe = DialLayout(center: area.center, radius: 1, slots: slots)
        let n = probe.effectiveSlots(count: count)
        let requested = style.radius.isFinite && style.radius > 0 ? style.radius * screenMin : 0.32 * screenMin
        // Neighbouring item centres are a chord apart; an item's circumscribed circle takes 90 % of it,
        // so items never touch at any angle. Few items would make huge items: cap them.
        let chordPerRadius = n > 2 ? 2 * Angle(radians: .pi / Double(n)).sin : 2
        let widthPerRadius = Swift.min(0.805 * chordPerRadius, 0.9)
        let circumPerRadius = widthPerRadius * 0.5 * (1.25).squareRoot()  // half the diagonal of w × w/2
        let extra = Swift.max(0, highlightWidth.isFinite ? highlightWidth : 0) + 2
        let halfArea = Swift.max(0, Swift.min(area.width, area.height) / 2 - 4)
        // Shrink to fit the area below the header rather than draw over the title.
        let fitting = Swift.max(0, (halfArea - extra) / (1 + circumPerRadius))
        let radius = Swift.min(requested, fitting)
        let itemWidth = widthPerRadius * radius
        let circumradius = circumPerRadius * radius
        layout = DialLayout(center: area.center, radius: radius, slots: slots,
                            pointer: Angle(degrees: style.pointer.isFinite ? style.pointer : -90), itemRadius: circumradius)
        itemSize = Size(width: itemWidth, height: itemWidth / 2)
        hubRadius = Swift.max(0, radius - circumradius - 0.06 * radius)
        let outer = radius + circumradius + extra
        bounds = Rect(x: area.midX - outer, y: area.midY - outer, width: 2 * outer, height: 2 * outer)
    }
}

/// The state of a dial menu between input and frames, with time passed in.
///
/// A finger on the dial turns it around its centre: `RotaryTracker` turns touch positions into
/// angle deltas (unwrapped across ±π, ignored near the centre) and the scroller moves by the
/// items those angles are worth; letting go flings or snaps so that one item rests at the pointer.
/// Taps: an item turns to the pointer; the item already resting at the pointer, or the hub,
/// activates the selection (a touch-only device has no other way to choose).
public struct DialMenuController: Sendable {
    public let geometry: DialGeometry
    public let count: Int
    public private(set) var scroller: Scroller
    public private(set) var needsFrame = true
    private var tracker: RotaryTracker
    /// The current finger came down on the dial and turns it.
    private var turning = false
    /// The dial rested when the current finger came down (a tap then may activate).
    private var restedAtPress = true
    private var pressedAt = ScrollOffset.zero
    private var restReported = false
    private var pending: [MenuEvent] = []

    public var layout: DialLayout { geometry.layout }

    public init(geometry: DialGeometry, count: Int, wraps: Bool, selected: Int = 0) {
        self.geometry = geometry
        self.count = Swift.max(1, count)
        scroller = Scroller(domain: wraps ? .wrapping(period: self.count) : .clamped(count: self.count),
                            physics: .items, position: ScrollOffset(whole: selected))
        // The centre is a dead zone: a finger crossing it would swing the angle wildly.
        tracker = RotaryTracker(center: geometry.layout.center, deadZoneRadius: geometry.hubRadius * 0.4)
    }

    /// The content index at the pointer once the current motion ends.
    public var selectedIndex: Int { scroller.domain.contentIndex(scroller.restingPosition.nearestItem) ?? 0 }

    public var isMoving: Bool { scroller.isAnimating }

    public mutating func jump(toItem item: Int) {
        scroller.jump(toItem: item)
        needsFrame = true
    }

    public mutating func jump(to position: ScrollOffset) {
        scroller.jump(to: position)
        needsFrame = true
    }

    /// True when `p` lies on the dial: the ring of items or the hub inside it.
    public func isOnDial(_ p: Point) -> Bool {
        (p - layout.center).length <= layout.radius + layout.itemRadius
    }

    public func isOnHub(_ p: Point) -> Bool {
        (p - layout.center).length <= geometry.hubRadius
    }

    public mutating func handle(_ input: MenuInput, now: Double) {
        needsFrame = true
        switch input {
        case .gesture(.pressed(let p, let t)):
            turning = isOnDial(p)
            guard turning else { return }
            restedAtPress = scroller.isIdle
            scroller.beginDrag(at: t)
            pressedAt = scroller.position
            tracker.begin(at: p)
        case .gesture(.dragBegan):
            break
        case .gesture(.dragMoved(let p, _, let t)):
            guard turning else { return }
            let turn = tracker.move(to: p)
            guard turn.radians != 0 else { return }
            restReported = false
            scroller.drag(by: layout.items(forRotation: turn, count: count), at: t)
        case .gesture(.dragEnded(_, let t)):
            guard turning else { return }
            turning = false
            tracker.end()
            restReported = false
            let v = scroller.releaseVelocity(at: t)
            scroller.endDrag(at: t)
            pending.append(.released(velocity: v, moved: Int(pressedAt.distance(to: scroller.restingPosition).rounded())))
        case .gesture(.tap(let p, let t)):
            let wasTurning = turning
            turning = false
            tracker.end()
            guard wasTurning else { return }
            scroller.endDrag(at: t)
            // A tap that stopped a turning dial lets it settle: that motion gets its report.
            if !restedAtPress { restReported = false }
            if isOnHub(p) {
                pending.append(.activated(selectedIndex))
            } else if let hit = layout.hitTest(p, at: scroller.position, domain: scroller.domain, count: count) {
                pending.append(.tapped(hit.index))
                if restedAtPress, hit.item == scroller.restingPosition.nearestItem {
                    pending.append(.activated(hit.index))
                } else {
                    restReported = false
                    scroller.scroll(toItem: hit.item, at: now)
                }
            }
        case .gesture(.cancelled(let t)):
            guard turning else { return }
            turning = false
            tracker.end()
            restReported = false
            scroller.cancelDrag(at: t)
        case .command(.next, let n):
            restReported = false
            scroller.detents(n, at: now)
        case .command(.previous, let n):
            restReported = false
            scroller.detents(-n, at: now)
        case .command(.select, _):
            pending.append(.activated(selectedIndex))
        case .command(.back, _):
            pending.append(.back)
        }
    }

    /// Advances to `now`: the offset to draw, and what happened since the last call.
    /// A motion that ended reports `.selected` exactly once.
    public mutating func frame(now: Double) -> (offset: ScrollOffset, events: [MenuEvent]) {
        scroller.update(now: now)
        needsFrame = false
        if scroller.isIdle, !restReported {
            restReported = true
            pending.append(.selected(selectedIndex))
        }
        defer { pending.removeAll() }
        return (scroller.position, pending)
    }
}
