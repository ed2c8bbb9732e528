import Geometry

/// Input as the devices report it, before gestures: touches in panel coordinates (pixels of
/// the mode, not yet rotated), wheel motion in v120 units, dial steps, keys and buttons.
/// Times are seconds on CLOCK_MONOTONIC, the same clock as `MonotonicClock`.
public enum RawInputEvent: Hashable, Sendable {
    case touchDown(slot: Int32, panel: Point, time: Double)
    case touchMotion(slot: Int32, panel: Point, time: Double)
    case touchUp(slot: Int32, time: Double)
    case touchCancel(time: Double)
    /// Positive: the wheel turned towards the user ("down").
    case wheel(v120: Int, time: Double)
    case dial(steps: Int, time: Double)
    case key(code: UInt32, pressed: Bool, time: Double)
}

extension RawInputEvent {
    /// When the kernel stamped the event (CLOCK_MONOTONIC seconds).
    public var time: Double {
        switch self {
        case .touchDown(_, _, let t), .touchMotion(_, _, let t), .touchUp(_, let t), .touchCancel(let t),
             .wheel(_, let t), .dial(_, let t), .key(_, _, let t):
            return t
        }
    }
}
