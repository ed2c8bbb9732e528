import DRMOutput

/// A backlight for the runtime's panel power states (`DisplayPowerState` is the runtime's, the
/// device is the display output's).
extension Backlight {
    /// The raw value for a panel `state` with dimming to `dimLevel` of the normal level (at least 1:
    /// a dimmed panel is never dark).
    public func value(for state: DisplayPowerState, dimLevel: Double) -> Int {
        switch state {
        case .on: return normal
        case .dimmed: return max(1, min(normal, Int((Double(normal) * dimLevel).rounded())))
        case .off: return 0
        }
    }

    /// Sets the brightness for `state`; false when the device refused (logged once).
    @discardableResult
    public func set(_ state: DisplayPowerState, dimLevel: Double) -> Bool {
        write(value(for: state, dimLevel: dimLevel))
    }
}
