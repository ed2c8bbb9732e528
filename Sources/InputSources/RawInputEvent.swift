import Geometry

/// Input as the devices report it, before gestures: touches as fractions (0...1) of the panel's
/// width and height, not yet rotated; wheel motion in v120 units, dial steps, keys and buttons.
/// Times are seconds on CLOCK_MONOTONIC, the same clock as `MonotonicClock`.
public enum RawInputEvent: Hashable, Sendable {
    case touchDown(slot: Int32, fraction: Point, time: Double)
    case touchMotion(slot: Int32, fraction: Point, time: Double)
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

    /// Whether it shows someone at the device. A touch cancel does not: libinput sends one when a
    /// touch device goes away, as every device does when input is handed to an `exec` program, and
    /// that cancel arrives with the first real input after the program; counted as input, it would
    /// wake the panel and let the real input through to the menu.
    public var isSomeonesInput: Bool {
        if case .touchCancel = self { return false }
        return true
    }

    /// What kind of device sent it, for latency figures by kind.
    public var kind: String {
        switch self {
        case .touchDown, .touchMotion, .touchUp, .touchCancel: return "touch"
        case .wheel: return "wheel"
        case .dial: return "dial"
        case .key: return "key"
        }
    }
}
