import InputSources
import KioskConfiguration

/// The panel's power as the kiosk holds it: lit, dimmed (backlight lowered), or off (DPMS off or
/// an inactive CRTC, backlight 0). The status file's `display_power`.
public enum DisplayPowerState: String, CaseIterable, Sendable {
    case on, dimmed, off
}

/// When the panel dims and blanks: the state due after so long without input. The last input
/// is passed in (`Activity` owns it) and so is time, so tests move both by hand. One owner: the
/// runtime's `PanelPower`.
public struct PowerPolicy: Equatable, Sendable {
    public private(set) var settings: PowerConfig
    public private(set) var state: DisplayPowerState = .on

    public init(_ settings: PowerConfig) {
        self.settings = settings
    }

    /// What input does to the panel.
    public enum Verdict: Equatable, Sendable {
        /// The panel was lit: the input goes to the menu.
        case pass
        /// The panel was dimmed: it is lit again and the input still goes to the menu (the menu
        /// was visible).
        case brighten
        /// The panel was off: it is turned on and the input is swallowed.
        case wake
    }

    /// Someone is there: the panel is on.
    public mutating func input() -> Verdict {
        let was = state
        state = .on
        switch was {
        case .on: return .pass
        case .dimmed: return .brighten
        case .off: return .wake
        }
    }

    /// The state due at `now` with the last input at `lastInput`.
    public func due(at now: Double, lastInput: Double) -> DisplayPowerState {
        let idle = now - lastInput
        if let blank = settings.blankAfter, idle >= blank { return .off }
        if let dim = settings.dimAfter, idle >= dim { return .dimmed }
        return .on
    }

    /// Moves to the state due at `now`; returns it when it changed.
    public mutating func advance(now: Double, lastInput: Double) -> DisplayPowerState? {
        let next = due(at: now, lastInput: lastInput)
        guard next != state else { return nil }
        state = next
        return next
    }

    /// When the next change is due (for the loop's timer); nil: none without input.
    public func nextDeadline(lastInput: Double) -> Double? {
        let steps: [Double?]
        switch state {
        case .on: steps = [settings.dimAfter, settings.blankAfter]
        case .dimmed: steps = [settings.blankAfter]
        case .off: steps = []
        }
        return steps.compactMap { $0 }.min().map { lastInput + $0 }
    }

    /// New settings (a reload); the idle time already passed still counts.
    public mutating func configure(_ settings: PowerConfig) { self.settings = settings }
}

/// Swallows the input that wakes the panel: a waking touch's whole contact (down, motion, up),
/// the waking detent of a knob (a wheel's high-resolution motion until one full detent), a
/// waking key's press and release. Everything else passes.
public struct WakeFilter: Equatable, Sendable {
    /// Touch slots whose contact woke the panel, ignored until they lift.
    public private(set) var swallowedSlots: Set<Int32> = []
    /// v120 units of the waking wheel turn still to swallow (same direction), 0: none.
    private var wheelOwed = 0
    /// Keys whose press woke the panel: their release is swallowed too.
    private var swallowedKeys: Set<UInt32> = []

    public init() {}

    /// `panelOff`: the panel is off now. Returns whether `event` is dropped, and whether it wakes
    /// the panel (only the first event of a waking contact, turn or key does).
    public mutating func filter(_ event: RawInputEvent, panelOff: Bool) -> (drop: Bool, wakes: Bool) {
        switch event {
        case .touchDown(let slot, _, _):
            if panelOff {
                swallowedSlots.insert(slot)
                return (true, true)
            }
            return (swallowedSlots.contains(slot), false)
        case .touchMotion(let slot, _, _):
            return (swallowedSlots.contains(slot), false)
        case .touchUp(let slot, _):
            return (swallowedSlots.remove(slot) != nil, false)
        case .touchCancel:
            let had = !swallowedSlots.isEmpty
            swallowedSlots.removeAll()
            return (had && panelOff, false)
        case .wheel(let v120, _):
            if panelOff {
                wheelOwed = v120 == 0 ? 0 : v120.signum() * max(0, 120 - abs(v120))
                return (true, true)
            }
            if wheelOwed != 0, v120.signum() == wheelOwed.signum() {
                let taken = v120.signum() * min(abs(v120), abs(wheelOwed))
                wheelOwed -= taken
                let rest = v120 - taken
                return (rest == 0, false)  // a remainder beyond the detent goes on (rare: merged events)
            }
            wheelOwed = 0
            return (false, false)
        case .dial:
            return panelOff ? (true, true) : (false, false)
        case .key(let code, let pressed, _):
            if pressed {
                if panelOff {
                    swallowedKeys.insert(code)
                    return (true, true)
                }
                return (false, false)
            }
            return (swallowedKeys.remove(code) != nil, false)
        }
    }
}
