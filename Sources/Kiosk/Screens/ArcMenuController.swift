import LayoutCore

/// What a menu tells its owner, in order: the app acts on these and logs them.
public enum MenuEvent: Hashable, Sendable {
    /// The menu came to rest with this content index at the apex.
    case selected(Int)
    /// The item at the apex was chosen (select key, knob press).
    case activated(Int)
    /// A tap landed on this content index (the menu then moves it to the apex).
    case tapped(Int)
    case back
    /// A drag was let go at `velocity` (items per second) and will move the menu `moved` items from where the finger came down.
    case released(velocity: Double, moved: Int)
}

/// The state of an arc menu between input and frames, with no display and time passed in:
/// input moves the scroller; `frame(now:)` says what to draw and what happened.
public struct ArcMenuController: Sendable {
    public var layout: ArcLayout
    public private(set) var scroller: Scroller
    /// Something changed that the screen does not show yet.
    public private(set) var needsFrame = true
    private var pressedAt = ScrollOffset.zero
    private var restReported = true
    private var pending: [MenuEvent] = []

    public init(layout: ArcLayout, count: Int, wraps: Bool, selected: Int = 0) {
        self.layout = layout
        scroller = Scroller(domain: wraps ? .wrapping(period: count) : .clamped(count: count),
                            position: ScrollOffset(whole: selected))
        restReported = false
    }

    /// The content index at the apex once the current motion ends.
    public var selectedIndex: Int { scroller.domain.contentIndex(scroller.restingPosition.nearestItem) ?? 0 }

    /// True while frames are needed without further input (an animation runs).
    public var isMoving: Bool { scroller.isAnimating }

    /// Puts the menu on `item` at once (restoring a selection, taking over from self-scrolling).
    public mutating func jump(toItem item: Int) {
        scroller.jump(toItem: item)
        needsFrame = true
    }

    public mutating func jump(to position: ScrollOffset) {
        scroller.jump(to: position)
        needsFrame = true
    }

    public mutating func handle(_ input: MenuInput, now: Double) {
        needsFrame = true
        if case .command(let c, _) = input, c == .select || c == .back {
            // Neither moves the menu: no new "selected" report is due.
        } else {
            restReported = false
        }
        switch input {
        case .gesture(.pressed(_, let t)):
            scroller.beginDrag(at: t)
            pressedAt = scroller.position
        case .gesture(.dragBegan):
            break
        case .gesture(.dragMoved(_, let delta, let t)):
            scroller.drag(by: layout.items(forDrag: delta), at: t)
        case .gesture(.dragEnded(_, let t)):
            let v = scroller.releaseVelocity(at: t)
            scroller.endDrag(at: t)
            pending.append(.released(velocity: v, moved: Int(pressedAt.distance(to: scroller.restingPosition).rounded())))
        case .gesture(.tap(let p, let t)):
            let wasResting = pressedAt.isIntegral
            scroller.endDrag(at: t)
            if let row = layout.hitTest(p, at: scroller.position, domain: scroller.domain) {
                pending.append(.tapped(row.index))
                if wasResting, row.item == pressedAt.whole {
                    // The selected row, tapped while the menu rested: act on it (touch-only devices
                    // have no other way to choose).
                    pending.append(.activated(row.index))
                } else {
                    scroller.scroll(toItem: row.item, at: now)
                }
            }
        case .gesture(.cancelled(let t)):
            scroller.cancelDrag(at: t)
        case .command(.next, let n):
            scroller.detents(n, at: now)
        case .command(.previous, let n):
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
