/// The config's `transition`: how one screen gives way to another.
public enum TransitionStyle: String, CaseIterable, Sendable, Equatable {
    /// Opening a screen slides it in, going back slides it out; a reload cross-fades.
    case slide
    /// Every change of screen cross-fades.
    case fade
    /// Every change is at once.
    case none
}
