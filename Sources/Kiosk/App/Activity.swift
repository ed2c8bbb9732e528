/// When someone last used the device: a touch, turn or key (not a touch cancel, which no one
/// makes), or their return from a program started from the menu. The one owner of "last input":
/// the panel's dimming and blanking, the return home after `idle_timeout` and the relocking of
/// opened screens all count from it. The runtime notes device input here before deciding whether
/// it wakes the panel; the app notes the input it is handed (tests hand it input directly).
public final class Activity {
    public private(set) var lastInput: Double

    public init(now: Double) { lastInput = now }

    /// Someone used the device at `time` (the loop's monotonic clock). Never moves back.
    public func note(at time: Double) { lastInput = Swift.max(lastInput, time) }
}
