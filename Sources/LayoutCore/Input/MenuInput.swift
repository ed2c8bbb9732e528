/// What the menu on screen is asked to do.
public enum MenuInput: Hashable, Sendable {
    case gesture(Gesture)
    /// `count` items forward (`next`) or back (`previous`); 1 for `select` and `back`.
    case command(MenuCommand, count: Int)
}
