import Geometry
import LayoutCore

/// What a finger that came down is pressing, drawn pressed until it lifts or drags.
public enum PressTarget: Hashable, Sendable {
    /// A plate: a scroller stop for an arc or a dial (as `ArcLayout.Row.item`), a row index for a list.
    case item(Int)
    /// The dial's hub, which activates the selection.
    case hub
}

/// The state every menu shares whatever its shape: the scroller, whether a frame is due, the
/// events waiting for the next `update`, the finger holding the menu, and the rule that each
/// motion ends with exactly one `.selected`.
///
/// Each mutation says whether it starts a motion: dragging, releasing, cancelling, knob detents
/// and animated scrolls do; jumps (restoring a selection, a demo placing the menu) do not.
public struct MenuMotion: Sendable {
    public private(set) var scroller: Scroller
    /// Something changed that the screen does not show yet.
    public private(set) var needsFrame = true
    /// The menu has no items: it reports no selection and activates nothing.
    public let isEmpty: Bool
    /// Where the screen's back button is, when it shows one: a tap there means `.back`, and a
    /// finger coming down there does not take hold of the menu.
    public internal(set) var backButton: Rect?
    /// A finger came down on the menu and has not lifted yet.
    public private(set) var isHeld = false
    /// The menu rested on a stop when the finger came down (a tap may then activate).
    public private(set) var restedAtPress = true
    /// How fast (units per second) the menu moved when the finger came down.
    public private(set) var speedAtPress = 0.0
    private var pressedAt = ScrollOffset.zero
    /// What the finger holding the menu presses; nil once it drags, lifts or is cancelled.
    public private(set) var pressed: PressTarget?
    /// The menu moved since the last `.selected`: due when it rests. A new menu reports once.
    private var selectionReportDue = true
    private var pending: [MenuEvent] = []

    public init(scroller: Scroller, isEmpty: Bool) {
        self.scroller = scroller
        self.isEmpty = isEmpty
    }

    public var position: ScrollOffset { scroller.position }

    /// Input arrived: whatever it changes, the next frame must show it.
    mutating func noteInput() { needsFrame = true }

    mutating func report(_ event: MenuEvent) { pending.append(event) }

    /// The selected item changed without the scroller having to move (list focus).
    mutating func selectionChanged() { selectionReportDue = true }

    /// The selected item was chosen.
    mutating func activate(_ index: Int) {
        if !isEmpty { report(.activated(index)) }
    }

    // MARK: Touch

    /// A tap or press at `p` on the back button, if the screen shows one.
    func isOnBackButton(_ p: Point) -> Bool { backButton?.contains(p) ?? false }

    /// A finger came down and takes hold of the menu: any motion stops under it.
    mutating func press(at time: Double) {
        restedAtPress = scroller.isIdle && scroller.position.isIntegral
        speedAtPress = Swift.abs(scroller.velocity(at: time))
        scroller.beginDrag(at: time)
        pressedAt = scroller.position
        isHeld = true
    }

    /// A finger already down on the screen this menu replaced (a config applied mid-drag) holds
    /// this one from `time` on: its next moves drag it and its release settles it.
    mutating func takeHold(at time: Double) {
        press(at: time)
        pressed = nil
    }

    /// A finger came down somewhere that does not hold the menu.
    mutating func ignorePress() {
        isHeld = false
        pressed = nil
    }

    /// Shows `target` pressed (nil: nothing a tap would act on is under the finger).
    mutating func showPressed(_ target: PressTarget?) { pressed = target }

    /// The press became a drag, or ended: nothing is drawn pressed any more.
    mutating func endPress() { pressed = nil }

    mutating func drag(by units: Double, at time: Double) {
        pressed = nil
        guard units != 0 else { return }
        scroller.drag(by: units, at: time)
        selectionReportDue = true
    }

    /// The finger let go of a drag: the menu flings or snaps, reports the release, then one `.selected`.
    mutating func release(at time: Double) {
        let velocity = scroller.releaseVelocity(at: time)
        scroller.endDrag(at: time)
        isHeld = false
        pressed = nil
        selectionReportDue = true
        report(.released(velocity: velocity, moved: Int(pressedAt.distance(to: scroller.restingPosition).rounded())))
    }

    /// The finger lifted without dragging (a tap). A tap that stopped a moving menu lets it settle,
    /// and that motion still gets its report.
    mutating func lift(at time: Double) {
        scroller.endDrag(at: time)
        isHeld = false
        pressed = nil
        if !restedAtPress { selectionReportDue = true }
    }

    /// The touch was cancelled: the menu settles where it is.
    mutating func cancel(at time: Double) {
        scroller.cancelDrag(at: time)
        isHeld = false
        pressed = nil
        selectionReportDue = true
    }

    /// A tap on the item at stop `item` (content `index`): the item resting at the selection
    /// since before the finger came down is activated; any other is brought to the selection.
    mutating func tapStop(index: Int, item: Int, now: Double) {
        report(.tapped(index))
        if restedAtPress, item == scroller.restingPosition.nearestItem {
            report(.activated(index))
        } else {
            scroll(toItem: item, at: now)
        }
    }

    // MARK: Knob and programmatic moves

    /// Knob detents: one stop each. At a bounded end nothing moves and nothing is reported.
    mutating func detents(_ count: Int, at now: Double) {
        let before = scroller.restingPosition
        scroller.detents(count, at: now)
        if scroller.restingPosition != before { selectionReportDue = true }
    }

    /// Animates to stop `item`.
    mutating func scroll(toItem item: Int, at now: Double) {
        scroller.scroll(toItem: item, at: now)
        selectionReportDue = true
    }

    /// Puts the menu on stop `item` at once; not a motion, so nothing is reported.
    mutating func jump(toItem item: Int) {
        scroller.jump(toItem: item)
        needsFrame = true
    }

    /// Puts the scroller exactly at `position` (clamped to its domain, fractions kept) at once,
    /// dropping any motion; not a motion, so nothing is reported.
    mutating func jump(to position: ScrollOffset) {
        scroller.jump(to: position)
        isHeld = false
        pressed = nil
        needsFrame = true
    }

    // MARK: Frames

    /// Advances to `now` and returns the events since the last call; a motion that has ended
    /// adds `.selected(selection)`. `selection` is where the menu rests, which advancing does not change.
    mutating func update(now: Double, selection: Int) -> [MenuEvent] {
        scroller.update(now: now)
        needsFrame = false
        if scroller.isIdle, selectionReportDue {
            selectionReportDue = false
            if !isEmpty { pending.append(.selected(selection)) }
        }
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }
}

/// A menu's state between input and frames, with no display and time passed in: the shared
/// `MenuMotion` plus what its shape decides. `handle` routes every input the same way for every
/// shape (back button, knob, select, back, the finger's hold, release and rest reports); a shape
/// only says what a finger grabs, what a movement is worth, what a tap hits and, if it differs
/// from one detent per step, what the knob does.
///
/// So the same gesture gives the same events on every shape:
/// - tap on the item resting at the selection: `.tapped(i)`, `.activated(i)` (nothing moved, no `.selected`);
/// - tap on another item: `.tapped(i)`, then `.selected(i)` once it rests (the list adds `.activated(i)`
///   and the dial's hub activates at once: see `ListMenuController`, `DialMenuController`);
/// - knob steps: one `.selected` when the menu rests (none when it is already at a bounded end);
/// - select: `.activated(selectedIndex)`; back (key or back button tap): `.back`;
/// - drag let go: `.released`, then one `.selected` when it rests.
public protocol MenuController: Sendable {
    var motion: MenuMotion { get set }
    /// The content index that is selected once the current motion ends.
    var selectedIndex: Int { get }
    /// A finger came down at `p`: true when it takes hold of the menu (the shape may start
    /// following it). Called only from `handle`.
    mutating func grab(at p: Point) -> Bool
    /// The held finger moved to `p` by `delta`: how far that moves the scroller, in its units.
    /// Called only from `handle`.
    mutating func dragDistance(to p: Point, delta: Point) -> Double
    /// A tap at `p` by a finger that held the menu, after it lifted. Called only from `handle`.
    mutating func tap(at p: Point, now: Double)
    /// Knob steps, `steps` items on (negative: back). Called only from `handle`.
    mutating func step(by steps: Int, now: Double)
    /// Puts the selection on `item` at once (restoring it after a reload or on return).
    mutating func jump(toItem item: Int)
    /// What a finger that just came down at `p` (and holds the menu) would act on if it lifted
    /// there: drawn pressed meanwhile. Called only from `handle`.
    func pressTarget(at p: Point) -> PressTarget?
    /// True while frames are needed without further input (an animation runs).
    var isMoving: Bool { get }
    /// Advances motion to `now` and returns what happened since the last call. Never draws.
    mutating func update(now: Double) -> [MenuEvent]
}

extension MenuController {
    public func grab(at p: Point) -> Bool { true }

    public mutating func step(by steps: Int, now: Double) { motion.detents(steps, at: now) }

    public mutating func jump(toItem item: Int) { motion.jump(toItem: item) }

    /// Puts the scroller exactly at `position` (no animation, fractions kept): restoring a
    /// position, or a demo that moves the menu by itself.
    public mutating func jump(to position: ScrollOffset) { motion.jump(to: position) }

    /// A finger that held the screen this one replaced holds this one (see `MenuMotion.takeHold`).
    public mutating func takeHold(at time: Double) { motion.takeHold(at: time) }

    public var scroller: Scroller { motion.scroller }
    /// The scroller position as drawn.
    public var position: ScrollOffset { motion.position }
    /// True while frames are needed without further input (an animation runs).
    public var isMoving: Bool { motion.scroller.isAnimating }
    /// Something changed that the screen does not show yet.
    public var needsFrame: Bool { motion.needsFrame }

    public mutating func handle(_ input: MenuInput, now: Double) {
        motion.noteInput()
        switch input {
        case .gesture(.pressed(let p, let t)):
            if motion.isOnBackButton(p) || !grab(at: p) {
                motion.ignorePress()
            } else {
                motion.press(at: t)
                motion.showPressed(pressTarget(at: p))
            }
        case .gesture(.dragBegan):
            motion.endPress()
        case .gesture(.dragMoved(let p, let delta, let t)):
            guard motion.isHeld else { return }
            motion.drag(by: dragDistance(to: p, delta: delta), at: t)
        case .gesture(.dragEnded(_, let t)):
            guard motion.isHeld else { return }
            motion.release(at: t)
        case .gesture(.tap(let p, let t)):
            if motion.isOnBackButton(p) {
                motion.report(.back)
                return
            }
            guard motion.isHeld else { return }
            motion.lift(at: t)
            tap(at: p, now: now)
        case .gesture(.cancelled(let t)):
            guard motion.isHeld else { return }
            motion.cancel(at: t)
        case .command(.next, let n):
            step(by: n, now: now)
        case .command(.previous, let n):
            step(by: -n, now: now)
        case .command(.select, _):
            motion.activate(selectedIndex)
        case .command(.back, _):
            motion.report(.back)
        }
    }

    /// Advances motion to `now` and returns what happened since the last call. Never draws.
    public mutating func update(now: Double) -> [MenuEvent] {
        motion.update(now: now, selection: selectedIndex)
    }
}
