import Geometry
import KioskConfiguration
import LayoutCore

/// Sizes of a dial screen, derived from the style and the area below the header; every
/// length is proportional to the dial's radius so that shrinking the dial to fit keeps its look.
public struct DialGeometry: Hashable, Sendable {
    public var layout: DialLayout
    /// Size of each (upright) item shape.
    public var itemSize: Size
    /// The items' label size before any shrinking: a fixed part of the plate's height, times the
    /// theme's `text_scale`.
    public var labelSize: Double
    /// The knob in the middle: it shows the selected item's label and carries the pointer.
    public var hubRadius: Double
    /// The square the dial (items, highlight, hub and pointer) can ever touch.
    public var bounds: Rect

    /// A plate's label padding at each end, as a fraction of its height (what `DialShape` draws with).
    public static let labelPadding = 0.18
    /// The label's size as a fraction of the plate's height.
    public static let labelScale = 0.36

    /// False when even the legible floor and the fewest plates left the longest label too wide:
    /// its plates are as wide as the area allows and the longest labels are shortened.
    public var fits = true

    /// The fewest plates a dial shows at once (when it has that many items): fewer would not
    /// read as a dial.
    public static let fewestSlots = 5

    /// `area` is the part of the screen below the header; `screenMin` is min(width, height).
    /// `widestLabel` gives the widest item label's width at a size: plates are as wide as it
    /// needs, and the dial grows (up to what the area holds), then drops slots (a window onto the
    /// list, never below `fewestSlots`), so that wide plates never touch. Without it plates are
    /// sized by the circle's chord. `minimumLabelSize`: labels are never smaller (the size at
    /// `text_scale = 1`, for a larger scale).
    public init(style: DialStyle, area: Rect, screenMin: Double, count: Int, highlightWidth: Double,
                textScale: Double = 1, minimumLabelSize: Double = 0, widestLabel: ((Double) -> Double)? = nil) {
        let slots = Swift.max(1, style.slots)
        let probe = DialLayout(center: area.center, radius: 1, slots: slots)
        let n = probe.effectiveSlots(count: count)
        let requested = style.radius.isFinite && style.radius > 0 ? style.radius * screenMin : 0.32 * screenMin
        // Neighbouring item centres are a chord apart; an item's circumscribed circle takes 90 % of it,
        // so items never touch at any angle. Few items would make huge items: cap them.
        func chordPerRadius(_ n: Int) -> Double { n > 2 ? 2 * Angle(radians: .pi / Double(n)).sin : 2 }
        let widthPerRadius = Swift.min(0.805 * chordPerRadius(n), 0.9)
        let circumPerRadius = widthPerRadius * 0.5 * (1.25).squareRoot()  // half the diagonal of w × w/2
        let extra = Swift.max(0, highlightWidth.isFinite ? highlightWidth : 0) + 2
        // Plates stay upright, so the dial's reach differs by axis: half a plate's width across,
        // the face's ring (0.9 of a plate's height) up and down. A wide area lets wide plates out
        // further; a tall one (portrait) only a larger ring.
        let halfWidth = Swift.max(0, area.width / 2 - 4), halfHeight = Swift.max(0, area.height / 2 - 4)
        let halfArea = Swift.min(halfWidth, halfHeight)
        // Shrink to fit the area below the header rather than draw over the title.
        let fitting = Swift.max(0, (halfArea - extra) / (1 + circumPerRadius))
        var radius = Swift.min(requested, fitting)
        var itemWidth = widthPerRadius * radius
        let itemHeight = itemWidth / 2
        var circumradius = circumPerRadius * radius
        var usedSlots = slots
        let scale = textScale.isFinite && textScale > 0 ? textScale : 1
        let minimum = minimumLabelSize.isFinite ? Swift.max(0, minimumLabelSize) : 0
        let fullSize = Swift.max(Self.labelScale * itemHeight * scale, minimum)
        labelSize = fullSize
        func holds(radius r: Double, width: Double) -> Bool {
            r + width / 2 + extra <= halfWidth && r + 0.9 * itemHeight + extra <= halfHeight
        }
        if let widestLabel, widestLabel(fullSize) + 2 * Self.labelPadding * itemHeight + 2 > itemWidth {
            // Plates as wide as their longest label needs; the plate's height stays the chord's.
            // A plate is a pill: no point of it is further than half its width from its centre,
            // and two pills whose centres are that width apart cannot touch at any angle (their
            // Minkowski sum is a pill twice as large, whose farthest point is a width away). The
            // dial grows to hold them; where it cannot, the text first shrinks a little (to three
            // quarters), then the dial drops slots (down to `fewestSlots`: a window onto the
            // list), and only then does the text shrink further, down to the legible floor.
            let floor = Swift.max(Swift.min(fullSize, FittedLabel.legibleFloor), minimum)
            var sizes: [[Double]] = [[], []]
            var size = fullSize
            while true {
                sizes[size >= 0.75 * fullSize ? 0 : 1].append(size)
                guard size > floor else { break }
                size = Swift.max(floor, size * 0.92)
            }
            let fewest = Swift.min(n, Self.fewestSlots)
            var found = false
            search: for pass in sizes {
                for m in stride(from: n, through: fewest, by: -1) {
                    for size in pass {
                        let need = widestLabel(size) + 2 * Self.labelPadding * itemHeight + 2
                        let neededRadius = Swift.max(radius, (need + extra) / (0.95 * chordPerRadius(m)))
                        guard holds(radius: neededRadius, width: need) else { continue }
                        radius = neededRadius
                        itemWidth = Swift.max(itemWidth, need)
                        circumradius = Swift.max(circumradius, need / 2)
                        if m < n { usedSlots = m }
                        labelSize = size
                        found = true
                        break search
                    }
                }
            }
            if !found {
                // Nothing fits even at the floor: the fewest plates, as wide as the area lets
                // them be, labels at the floor (the longest shortened; the hub shows them whole).
                let c = 0.95 * chordPerRadius(fewest)
                let acrossLimit = (halfWidth - extra - extra / c) / (1 / c + 0.5)
                let alongLimit = (halfHeight - 0.9 * itemHeight - extra) * c - extra
                let width = Swift.max(itemWidth, Swift.min(acrossLimit, alongLimit))
                radius = Swift.max(radius, (width + extra) / c)
                itemWidth = width
                circumradius = Swift.max(circumradius, width / 2)
                if fewest < n { usedSlots = fewest }
                labelSize = floor
                fits = false
            }
        }
        layout = DialLayout(center: area.center, radius: radius, slots: usedSlots,
                            pointer: Angle(degrees: style.pointer.isFinite ? style.pointer : -90), itemRadius: circumradius)
        itemSize = Size(width: itemWidth, height: itemHeight)
        hubRadius = Swift.max(0, radius - circumradius - 0.06 * radius)
        let across = radius + Swift.max(circumradius, itemWidth / 2) + extra
        let along = radius + Swift.max(circumradius, 0.9 * itemHeight) + extra
        bounds = Rect(x: area.midX - across, y: area.midY - along, width: 2 * across, height: 2 * along)
    }
}

/// The state of a dial menu.
///
/// A finger on the dial turns it around its centre: `RotaryTracker` turns touch positions into
/// angle deltas (unwrapped across ±π, ignored near the centre) and the scroller moves by the
/// items those angles are worth; letting go flings or snaps so that one item rests at the pointer.
/// A finger that comes down off the dial holds nothing. Taps: an item turns to the pointer; the
/// item already resting at the pointer activates. Unlike the other shapes, a tap on the hub
/// activates the selection whatever the dial is doing: the hub shows the selected item's label.
public struct DialMenuController: MenuController {
    public var motion: MenuMotion
    public let geometry: DialGeometry
    /// The number of items the dial lays out (at least 1).
    public let count: Int
    private var tracker: RotaryTracker

    public var layout: DialLayout { geometry.layout }

    public init(geometry: DialGeometry, count: Int, wraps: Bool, selected: Int = 0) {
        self.geometry = geometry
        self.count = Swift.max(1, count)
        motion = MenuMotion(scroller: Scroller(domain: wraps ? .wrapping(period: self.count) : .clamped(count: self.count),
                                               physics: .items, position: ScrollOffset(whole: selected)),
                            isEmpty: count <= 0)
        // The centre is a dead zone: a finger crossing it would swing the angle wildly.
        tracker = RotaryTracker(center: geometry.layout.center, deadZoneRadius: geometry.hubRadius * 0.4)
    }

    /// The content index at the pointer once the current motion ends.
    public var selectedIndex: Int { scroller.domain.contentIndex(scroller.restingPosition.nearestItem) ?? 0 }

    /// True when `p` lies on the dial: the ring of items or the hub inside it.
    public func isOnDial(_ p: Point) -> Bool {
        (p - layout.center).length <= layout.radius + layout.itemRadius
    }

    public func isOnHub(_ p: Point) -> Bool {
        (p - layout.center).length <= geometry.hubRadius
    }

    public mutating func grab(at p: Point) -> Bool {
        guard isOnDial(p) else { return false }
        tracker.begin(at: p)
        return true
    }

    public mutating func dragDistance(to p: Point, delta: Point) -> Double {
        layout.items(forRotation: tracker.move(to: p), count: count)
    }

    public func pressTarget(at p: Point) -> PressTarget? {
        if isOnHub(p) { return .hub }
        return layout.hitTest(p, at: scroller.position, domain: scroller.domain, count: count).map { .item($0.item) }
    }

    public mutating func tap(at p: Point, now: Double) {
        if isOnHub(p) {
            motion.activate(selectedIndex)
        } else if let hit = layout.hitTest(p, at: scroller.position, domain: scroller.domain, count: count) {
            motion.tapStop(index: hit.index, item: hit.item, now: now)
        }
    }
}
