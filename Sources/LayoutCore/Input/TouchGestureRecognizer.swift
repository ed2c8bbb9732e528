import Geometry

/// A touch as the input layer reports it, already in logical screen coordinates.
public enum TouchEvent: Hashable, Sendable {
    case down(slot: Int32, at: Point, time: Double)
    case motion(slot: Int32, at: Point, time: Double)
    case up(slot: Int32, time: Double)
    /// The touch ended without meaning anything (device removed, display taken away).
    case cancel(time: Double)
}

/// What one finger did, as the menus understand it.
public enum Gesture: Hashable, Sendable {
    /// A finger came down: motion under it should stop.
    case pressed(at: Point, time: Double)
    /// The finger moved beyond the slop: from now on it drags. `from` is where it came down.
    case dragBegan(from: Point, time: Double)
    /// The finger moved by `delta` since the last report (the first report covers the slop too,
    /// so the content stays exactly under the finger).
    case dragMoved(to: Point, delta: Point, time: Double)
    case dragEnded(at: Point, time: Double)
    /// Down and up again without moving further than the slop, quickly enough.
    case tap(at: Point, time: Double)
    /// A touch that began was cancelled, or lifted after too long a press to be a tap; whatever
    /// it started should settle.
    case cancelled(time: Double)
}

/// Turns a stream of touches into taps and drags for one finger at a time.
///
/// The first finger down owns the gesture. A second finger (or a palm, which reports as several)
/// landing before the owner drags cancels the press: two fingers on an item never choose it,
/// whichever lifts first. Once the owner drags, other fingers are ignored rather than making the
/// content jump. After a cancel, or after the owner lifts, nothing new starts until every finger is up.
public struct TouchGestureRecognizer: Sendable {
    /// How far (pixels) a finger may wander and still tap.
    public var slop: Double
    /// Longest press that still counts as a tap, in seconds.
    public var maximumTapDuration: Double

    private var owner: Int32?
    private var start = Point.zero
    private var startTime = 0.0
    private var last = Point.zero
    private var dragging = false
    private var fingersDown = Set<Int32>()
    /// Set when the owner lifted while other fingers stayed: wait for all of them.
    private var waitingForAllUp = false

    public init(slop: Double = 10, maximumTapDuration: Double = 0.8) {
        self.slop = slop
        self.maximumTapDuration = maximumTapDuration
    }

    public var isTracking: Bool { owner != nil }

    public mutating func handle(_ event: TouchEvent) -> [Gesture] {
        switch event {
        case .down(let slot, let p, let t):
            fingersDown.insert(slot)
            if let held = owner, held != slot, !dragging {
                owner = nil
                waitingForAllUp = true
                return [.cancelled(time: t)]
            }
            guard owner == nil, !waitingForAllUp, p.isFinite else { return [] }
            owner = slot
            start = p
            last = p
            startTime = t
            dragging = false
            return [.pressed(at: p, time: t)]

        case .motion(let slot, let p, let t):
            guard slot == owner, p.isFinite else { return [] }
            if !dragging {
                guard (p - start).length > slop else { return [] }
                dragging = true
                last = p
                return [.dragBegan(from: start, time: t), .dragMoved(to: p, delta: p - start, time: t)]
            }
            let delta = p - last
            last = p
            return [.dragMoved(to: p, delta: delta, time: t)]

        case .up(let slot, let t):
            fingersDown.remove(slot)
            if fingersDown.isEmpty { waitingForAllUp = false }
            guard slot == owner else { return [] }
            owner = nil
            if !fingersDown.isEmpty { waitingForAllUp = true }
            if dragging { return [.dragEnded(at: last, time: t)] }
            // A press held too long to be a tap still ends: what it started (a held menu, a
            // pressed plate) must let go.
            return t - startTime <= maximumTapDuration ? [.tap(at: start, time: t)] : [.cancelled(time: t)]

        case .cancel(let t):
            fingersDown.removeAll()
            waitingForAllUp = false
            guard owner != nil else { return [] }
            owner = nil
            return [.cancelled(time: t)]
        }
    }
}
