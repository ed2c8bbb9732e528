/// The motion of one scrollable axis, with time passed in so that tests drive it by hand.
///
/// A drag moves the position 1:1; a release either snaps to the nearest stop or flings.
/// Every motion after a release is one ease-out curve `x = x₀ + d·(1 − (1 − u)³)` that ends
/// exactly on an integer stop: monotonic, so it cannot overshoot or jitter, and its initial
/// slope is matched to the finger's velocity so the hand-over is seamless. Knob detents add
/// to the current target, so detents that arrive mid-animation are never lost.
public struct Scroller: Sendable {
    public var physics: ScrollPhysics
    public private(set) var domain: ScrollDomain
    public private(set) var position: ScrollOffset

    @usableFromInline enum Phase: Sendable {
        case idle
        case dragging
        case animating(Animation)
    }

    @usableFromInline struct Animation: Sendable {
        var start: ScrollOffset
        var distance: Double
        var startTime: Double
        var duration: Double
        var target: ScrollOffset

        func fraction(at now: Double) -> Double {
            guard duration > 0, now.isFinite else { return 1 }
            return Swift.max(0, Swift.min(1, (now - startTime) / duration))
        }

        func offset(at now: Double) -> ScrollOffset {
            let u = fraction(at: now)
            if u >= 1 { return target }
            let rest = 1 - u
            return start + distance * (1 - rest * rest * rest)
        }

        func velocity(at now: Double) -> Double {
            let u = fraction(at: now)
            guard u < 1 else { return 0 }
            return 3 * distance * (1 - u) * (1 - u) / duration
        }
    }

    @usableFromInline private(set) var phase: Phase = .idle
    private var samples: [(time: Double, total: Double)] = []
    private var dragTotal: Double = 0

    public init(domain: ScrollDomain, physics: ScrollPhysics = .items, position: ScrollOffset = .zero) {
        self.domain = domain
        self.physics = physics
        self.position = domain.clamp(position)
    }

    public var isIdle: Bool { if case .idle = phase { true } else { false } }
    public var isDragging: Bool { if case .dragging = phase { true } else { false } }
    /// True while an animation runs: the caller should keep producing frames.
    public var isAnimating: Bool { if case .animating = phase { true } else { false } }

    /// Where the current motion will come to rest.
    public var restingPosition: ScrollOffset {
        switch phase {
        case .animating(let a): return a.target
        case .idle, .dragging: return position
        }
    }

    /// Advances animations to `now`. Returns true while something still moves.
    @discardableResult
    public mutating func update(now: Double) -> Bool {
        guard case .animating(let a) = phase else { return false }
        position = a.offset(at: now)
        if a.fraction(at: now) >= 1 {
            settle(at: a.target)
            return false
        }
        return true
    }

    /// Velocity in units per second at `now` (0 when idle or dragging).
    public func velocity(at now: Double) -> Double {
        if case .animating(let a) = phase { return a.velocity(at: now) }
        return 0
    }

    // MARK: Touch

    /// A finger took hold: any motion stops where it is.
    public mutating func beginDrag(at now: Double) {
        update(now: now)
        phase = .dragging
        samples.removeAll(keepingCapacity: true)
        dragTotal = 0
        samples.append((now, 0))
    }

    /// The finger moved by `delta` units (1:1; positive brings later items forward).
    public mutating func drag(by delta: Double, at now: Double) {
        guard delta.isFinite, now.isFinite else { return }
        if !isDragging { beginDrag(at: now) }
        position = domain.clamp(position + delta)
        dragTotal += delta
        samples.append((now, dragTotal))
        // Keep only what the velocity estimate can use.
        if samples.count > 64 { samples.removeFirst(samples.count - 32) }
    }

    /// The finger lifted: fling with the measured velocity, or snap to the nearest stop.
    public mutating func endDrag(at now: Double) {
        guard isDragging else { return }
        let v = releaseVelocity(at: now)
        samples.removeAll(keepingCapacity: true)
        if Swift.abs(v) >= physics.minimumFlingVelocity {
            fling(velocity: v, at: now)
        } else {
            animate(to: domain.clamp(ScrollOffset(whole: position.nearestItem)), velocity: 0,
                    duration: physics.snapDuration, at: now)
        }
    }

    /// The touch was cancelled (device gone, display taken): settle where it is, no fling.
    public mutating func cancelDrag(at now: Double) {
        guard isDragging else { return }
        samples.removeAll(keepingCapacity: true)
        animate(to: domain.clamp(ScrollOffset(whole: position.nearestItem)), velocity: 0,
                duration: physics.snapDuration, at: now)
    }

    /// Velocity of the finger at release: least-squares slope of the recent samples.
    public func releaseVelocity(at now: Double) -> Double {
        guard let last = samples.last, now - last.time <= physics.restBeforeRelease else { return 0 }
        let recent = samples.filter { last.time - $0.time <= physics.velocityWindow }
        guard recent.count >= 2 else { return 0 }
        let n = Double(recent.count)
        let mt = recent.reduce(0) { $0 + $1.time } / n
        let mx = recent.reduce(0) { $0 + $1.total } / n
        var num = 0.0, den = 0.0
        for s in recent {
            num += (s.time - mt) * (s.total - mx)
            den += (s.time - mt) * (s.time - mt)
        }
        guard den > 0 else { return 0 }
        let v = num / den
        guard v.isFinite else { return 0 }
        return Swift.max(-physics.maximumVelocity, Swift.min(physics.maximumVelocity, v))
    }

    /// Carries on at `velocity` and decelerates onto the stop nearest to where momentum would take it.
    public mutating func fling(velocity: Double, at now: Double) {
        guard velocity.isFinite else { return }
        update(now: now)
        let v = Swift.max(-physics.maximumVelocity, Swift.min(physics.maximumVelocity, velocity))
        let projected = position + v * physics.projection
        animate(to: domain.clamp(ScrollOffset(whole: projected.nearestItem)), velocity: v,
                duration: physics.snapDuration, at: now, fling: true)
    }

    // MARK: Knob and programmatic moves

    /// Knob detents: each moves exactly one stop further than the current target.
    public mutating func detents(_ count: Int, at now: Double) {
        guard count != 0, now.isFinite else { return }
        if isDragging { samples.removeAll(keepingCapacity: true) }
        update(now: now)
        let base = isAnimating ? restingPosition : ScrollOffset(whole: position.nearestItem)
        let target = domain.clamp(base + count)
        animate(to: target, velocity: velocity(at: now), duration: physics.detentDuration, at: now)
    }

    /// Animates to the stop `item` (an unbounded item number, as the layouts report them).
    public mutating func scroll(toItem item: Int, at now: Double) {
        update(now: now)
        animate(to: domain.clamp(ScrollOffset(whole: item)), velocity: velocity(at: now),
                duration: physics.snapDuration, at: now)
    }

    /// Jumps without animation (restoring a saved selection).
    public mutating func jump(toItem item: Int) {
        settle(at: domain.clamp(ScrollOffset(whole: item)))
    }

    /// Jumps exactly to `position` (held inside the domain), without animation: a menu moved by
    /// something other than input, a fraction at a time.
    public mutating func jump(to position: ScrollOffset) {
        settle(at: domain.clamp(position))
    }

    /// Replaces the domain (content changed); the position is held inside it and settled.
    public mutating func setDomain(_ newDomain: ScrollDomain) {
        domain = newDomain
        settle(at: newDomain.clamp(ScrollOffset(whole: restingPosition.nearestItem)))
    }

    // MARK: Private

    /// One ease-out curve to `target`.
    ///
    /// A fling lasts 3d/v so that the curve starts at the finger's velocity. Other moves take
    /// `duration·√d` (a long way takes a little longer, not proportionally longer), shortened
    /// when the menu already moves that way faster, so a burst of detents catches up quickly
    /// instead of dragging the old speed along.
    private mutating func animate(to target: ScrollOffset, velocity: Double, duration: Double, at now: Double, fling: Bool = false) {
        let d = position.distance(to: target)
        guard d != 0 else {
            settle(at: target)
            return
        }
        let headingThere = velocity != 0 && (velocity > 0) == (d > 0)
        var t = duration * Swift.abs(d).squareRoot()
        if headingThere {
            t = fling ? 3 * d / velocity : Swift.min(t, 3 * d / velocity)
        }
        t = Swift.max(physics.minimumDuration, Swift.min(physics.maximumDuration, t))
        phase = .animating(Animation(start: position, distance: d, startTime: now, duration: t, target: target))
    }

    private mutating func settle(at target: ScrollOffset) {
        position = domain.rebased(target).offset
        phase = .idle
    }
}
