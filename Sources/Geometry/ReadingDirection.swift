/// Which way a screen reads: its title, back button, list columns and labels without a direction
/// of their own start at the left, or mirrored at the right.
public enum ReadingDirection: Sendable, Hashable {
    case leftToRight, rightToLeft
}
