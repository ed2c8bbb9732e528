import Geometry
import RealModule

/// Follows a finger turning a dial (seed 003): the angle of the touch around the centre
/// from atan2, applied as a delta from the previous touch and unwrapped across ±π.
///
/// Near the centre a tiny movement swings the angle wildly, so a dead zone ignores the
/// finger there and re-anchors when it leaves: crossing the middle never makes the dial jump.
public struct RotaryTracker: Hashable, Sendable {
    public var center: Point
    public var deadZoneRadius: Double
    /// Sum of all applied deltas since `begin`: the dial's rotation by this finger.
    public private(set) var accumulated: Angle = .zero
    private var lastAngle: Angle?

    public init(center: Point, deadZoneRadius: Double) {
        self.center = center
        self.deadZoneRadius = deadZoneRadius
    }

    /// A finger came down at `point`.
    public mutating func begin(at point: Point) {
        accumulated = .zero
        lastAngle = angleOutsideDeadZone(point)
    }

    /// The finger moved to `point`; returns the rotation since the last move, in (−π, π].
    @discardableResult
    public mutating func move(to point: Point) -> Angle {
        guard let angle = angleOutsideDeadZone(point) else {
            lastAngle = nil
            return .zero
        }
        defer { lastAngle = angle }
        guard let last = lastAngle else { return .zero }
        let delta = (angle - last).normalized
        accumulated = accumulated + delta
        return delta
    }

    /// The finger lifted or the touch was cancelled.
    public mutating func end() { lastAngle = nil }

    private func angleOutsideDeadZone(_ p: Point) -> Angle? {
        guard p.isFinite, center.isFinite else { return nil }
        let d = (p - center).length
        guard d > Swift.max(0, deadZoneRadius), d.isFinite else { return nil }
        return Angle.direction(of: p, from: center)
    }
}
