/// What a knob, a key or a button asks the menu to do.
public enum MenuCommand: String, Hashable, Sendable, CaseIterable {
    case next, previous, select, back
}

/// Accumulates scroll-wheel and dial motion into whole items.
///
/// Wheels report in units of 1/120 detent (libinput's v120), high-resolution wheels in
/// fractions of that; dials report steps. The knob's position within an item is kept, never
/// rounded away, so fast or fine turning is never lost. Items change when that position
/// crosses the middle between two rests, so the items moved depend only on how far the knob
/// turned in all (not on the path), and a small wobble either way moves nothing.
public struct KnobAccumulator: Hashable, Sendable {
    /// Detents that make one item (sensitivity).
    public let detentsPerItem: Int
    /// 1, or -1 to turn the knob's sense around.
    public let direction: Int
    /// Position within the current item, in [0, unitsPerItem); the rest point is the middle.
    private var units: Int

    public init(detentsPerItem: Int = 1, direction: Int = 1) {
        self.detentsPerItem = Swift.max(1, Swift.min(detentsPerItem, 1000))
        self.direction = direction < 0 ? -1 : 1
        units = 60 * self.detentsPerItem
    }

    var unitsPerItem: Int { 120 * detentsPerItem }

    /// Adds wheel motion in v120 units (positive: towards the user, "down"); returns whole items to move.
    public mutating func add(v120: Int) -> Int {
        let clamped = Swift.max(-1_000_000, Swift.min(1_000_000, v120))
        units += clamped * direction
        let items = units >= 0 ? units / unitsPerItem : -((-units + unitsPerItem - 1) / unitsPerItem)
        units -= items * unitsPerItem
        return items
    }

    /// Adds whole detents (dial steps, or keys pressed).
    public mutating func add(detents: Int) -> Int { add(v120: detents * 120) }

    /// Forgets partial motion (a new screen).
    public mutating func reset() { units = unitsPerItem / 2 }
}
