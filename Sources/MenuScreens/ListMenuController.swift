import Geometry
import LayoutCore

/// The state of a grouped list screen between input and frames, with time passed in.
///
/// The content scrolls vertically in pixels (`ScrollPhysics.pixels`, bounded by the content
/// height): a finger drags it 1:1 and flicks it. The knob moves a focus ring row by row in
/// reading order (the layout's `rows` order, which is also the items' order) and scrolls just
/// enough to keep the focused row in view. A tap on a row focuses and activates it at once
/// (`.tapped` then `.activated`): people tapping a list row expect it to act, and there is no
/// pointer to move first. A tap that stops a moving list only stops it, as on phones.
/// `jump(to:)` scrolls without moving the focus; the next knob step starts from the rows in view.
public struct ListMenuController: MenuController {
    public var motion: MenuMotion
    public let layout: ListLayout
    /// The scrolled region on screen: content line `offset` is drawn at `viewport.minY`.
    public let viewport: Rect
    /// Index into `layout.rows` (= the flat item index) of the focused row.
    public private(set) var focus = 0
    /// The selection plate gliding to the focused row: where it was drawn when the focus moved
    /// (content coordinates) and when. Nil at rest on the focused row.
    private var glide: (from: Rect, start: Double)?
    /// How far the glide has come (0...1, eased), as of the last `update`.
    private var glideProgress = 1.0

    /// Below this speed (pixels per second) a list being pressed counts as still.
    static let stillSpeed = 40.0
    /// Seconds the selection plate takes to glide from one row to the next: long enough to be
    /// followed by the eye, short enough that a knob turned fast does not lag.
    static let glideDuration = 0.15

    public init(layout: ListLayout, viewport: Rect, selected: Int = 0) {
        self.layout = layout
        self.viewport = viewport
        let maxOffset = layout.maximumOffset(viewportHeight: viewport.height)
        motion = MenuMotion(scroller: Scroller(domain: .bounded(lower: 0, upper: Int(maxOffset.rounded(.up))),
                                               physics: Self.physics(rowHeight: layout.tallestRow)),
                            isEmpty: layout.rows.isEmpty)
        jump(toItem: selected)
    }

    /// `ScrollPhysics.pixels` with its snap and detent durations measured per row rather than per
    /// pixel: the scroller stretches a move of d units over duration·√d, which for pixels would make
    /// revealing the next row take its 2.5 s maximum.
    static func physics(rowHeight: Double) -> ScrollPhysics {
        var physics = ScrollPhysics.pixels
        let perUnit = 1 / Swift.max(1, rowHeight.isFinite ? rowHeight : 1).squareRoot()
        physics.snapDuration *= perUnit
        physics.detentDuration *= perUnit
        return physics
    }

    public var rowCount: Int { layout.rows.count }
    /// The focused row's flat item index (rows are laid out in item order).
    public var selectedIndex: Int { focus }
    /// Scroll offset in pixels of the content at the top of the viewport.
    public var offset: Double { scroller.position.approximateValue }

    /// Focuses item `item` and scrolls it into view at once.
    public mutating func jump(toItem item: Int) {
        guard rowCount > 0 else { return }
        focus = Swift.max(0, Swift.min(item, rowCount - 1))
        glide = nil
        let target = layout.offset(revealing: focus, from: restingOffset, viewportHeight: viewport.height)
        motion.jump(toItem: Int(target.rounded()))
    }

    /// The content point under a screen point, or nil outside the viewport.
    public func contentPoint(_ p: Point) -> Point? {
        guard viewport.contains(p) else { return nil }
        return Point(x: p.x - viewport.minX, y: p.y - viewport.minY + offset)
    }

    /// Where row `index` is on screen at the current offset.
    public func screenFrame(ofRow index: Int) -> Rect? {
        guard layout.rows.indices.contains(index) else { return nil }
        return layout.rows[index].frame.offsetBy(dx: viewport.minX, dy: viewport.minY - offset)
    }

    /// Where the selection plate is drawn, in content coordinates: on the focused row, or on its
    /// way there (eased out) after the focus moved.
    public var selectionFrame: Rect? {
        guard layout.rows.indices.contains(focus) else { return nil }
        let target = layout.rows[focus].frame
        guard let glide else { return target }
        let t = glideProgress
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        return Rect(x: mix(glide.from.minX, target.minX), y: mix(glide.from.minY, target.minY),
                    width: mix(glide.from.width, target.width), height: mix(glide.from.height, target.height))
    }

    /// Moves the focus to `index`, the plate gliding there from where it is drawn now.
    private mutating func moveFocus(to index: Int, now: Double) {
        if let from = selectionFrame { glide = (from, now) }
        glideProgress = 0
        focus = index
        motion.selectionChanged()
    }

    public var isMoving: Bool { scroller.isAnimating || glide != nil }

    public mutating func update(now: Double) -> [MenuEvent] {
        let events = motion.update(now: now, selection: selectedIndex)
        if let glide {
            let t = Swift.min(1, Swift.max(0, (now - glide.start) / Self.glideDuration))
            glideProgress = 1 - (1 - t) * (1 - t) * (1 - t)
            if t >= 1 { self.glide = nil }
        }
        return events
    }

    /// The row index under screen point `p`, if any.
    private func rowIndex(at p: Point) -> Int? {
        guard let point = contentPoint(p), case .row(let section, let row)? = layout.hitTest(point) else { return nil }
        return layout.rows.firstIndex { $0.section == section && $0.row == row }
    }

    /// The row under the finger, unless the press only stops a moving list.
    public func pressTarget(at p: Point) -> PressTarget? {
        guard motion.speedAtPress <= Self.stillSpeed else { return nil }
        return rowIndex(at: p).map { .item($0) }
    }

    /// Content follows the finger: moving it up scrolls further down the list.
    public func dragDistance(to p: Point, delta: Point) -> Double { -delta.y }

    /// A tap on a row focuses and activates it at once; a tap on a list that moved faster than
    /// `stillSpeed` when the finger came down only stops it.
    public mutating func tap(at p: Point, now: Double) {
        guard motion.speedAtPress <= Self.stillSpeed, let index = rowIndex(at: p) else { return }
        motion.report(.tapped(index))
        motion.report(.activated(index))
        if index != focus { moveFocus(to: index, now: now) }
        reveal(at: now)
    }

    /// Knob steps: `steps` rows on in reading order, stopping at the ends. When the focused row
    /// was scrolled out of sight by touch, the first step starts from the rows in view instead
    /// of jumping back to it.
    public mutating func step(by steps: Int, now: Double) {
        guard rowCount > 0, steps != 0 else { return }
        var from = focus
        if !isInView(focus) {
            let visible = Array(layout.visibleRowIndices(top: restingOffset, bottom: restingOffset + viewport.height))
                .filter(isInView)
            if let first = visible.first, let last = visible.last {
                from = steps > 0 ? first - 1 : last + 1
            }
        }
        let target = Swift.max(0, Swift.min(rowCount - 1, from + steps))
        guard target != focus || !isInView(focus) else { return }
        if target != focus { moveFocus(to: target, now: now) } else { motion.selectionChanged() }
        reveal(at: now)
    }

    private var restingOffset: Double { scroller.restingPosition.approximateValue }

    /// Row `index` lies wholly inside the viewport once the current motion ends.
    private func isInView(_ index: Int) -> Bool {
        let frame = layout.rows[index].frame
        return frame.minY >= restingOffset - 0.5 && frame.maxY <= restingOffset + viewport.height + 0.5
    }

    /// Scrolls as little as possible to bring the focused row into view, and its section's title
    /// with it when the row stands right under the title (else moving up onto the first row of a
    /// section would leave the title hidden).
    private mutating func reveal(at now: Double) {
        var target = layout.offset(revealing: focus, from: restingOffset, viewportHeight: viewport.height)
        let row = layout.rows[focus]
        if layout.headers.indices.contains(row.section) {
            let header = layout.headers[row.section].frame
            let withTitle = Swift.max(0, header.minY - layout.metrics.insets)
            if row.frame.minY - header.maxY < 1, withTitle < target, row.frame.maxY - withTitle <= viewport.height {
                target = withTitle
            }
        }
        let stop = Int(target.rounded())
        if stop != scroller.restingPosition.nearestItem || !scroller.restingPosition.isIntegral {
            motion.scroll(toItem: stop, at: now)
        }
    }
}
