/// A scroll position in items: an exact integer part plus a fraction in [0, 1).
///
/// Keeping the whole part an integer is what makes infinite lists exact: after 10⁹ detents
/// the fraction still has full precision, where a single ever-growing Double would not.
public struct ScrollOffset: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The item at or before the position.
    public private(set) var whole: Int
    /// How far past `whole` towards the next item, in [0, 1).
    public private(set) var fraction: Double

    public init(whole: Int, fraction: Double = 0) {
        self.whole = whole
        self.fraction = 0
        self += fraction
    }

    /// From a Double item position; non-finite values become 0.
    public init(_ items: Double) {
        self.init(whole: 0, fraction: items)
    }

    public static let zero = ScrollOffset(whole: 0)

    /// Settled exactly on an item.
    public var isIntegral: Bool { fraction == 0 }

    /// The nearest item (halves round up).
    public var nearestItem: Int { fraction >= 0.5 ? whole &+ 1 : whole }

    /// The position as a Double; only for small offsets (tests, display).
    public var approximateValue: Double { Double(whole) + fraction }

    /// Distance `to - self` in items, exact in the integer part.
    public func distance(to other: ScrollOffset) -> Double {
        Double(other.whole &- whole) + (other.fraction - fraction)
    }

    /// Adds a finite number of items; a non-finite delta is ignored rather than poisoning the state.
    public static func += (lhs: inout ScrollOffset, delta: Double) {
        guard delta.isFinite else { return }
        let sum = lhs.fraction + delta
        // Clamp so that absurd deltas cannot overflow Int.
        let carry = Swift.max(-1e15, Swift.min(1e15, sum.rounded(.down)))
        lhs.whole = lhs.whole &+ Int(carry)
        var f = sum - carry
        if !(f >= 0) { f = 0 }
        if f >= 1 {  // rounding of sum - carry can land on 1
            f = 0
            lhs.whole = lhs.whole &+ 1
        }
        lhs.fraction = f
    }

    public static func + (lhs: ScrollOffset, delta: Double) -> ScrollOffset {
        var r = lhs
        r += delta
        return r
    }

    public static func + (lhs: ScrollOffset, items: Int) -> ScrollOffset {
        ScrollOffset(whole: lhs.whole &+ items, fraction: lhs.fraction)
    }

    public static func < (a: ScrollOffset, b: ScrollOffset) -> Bool {
        a.whole != b.whole ? a.whole < b.whole : a.fraction < b.fraction
    }

    public var description: String { "\(whole)+\(fraction.formatted2)" }
}

/// What lies beyond the ends of a scrollable axis.
public enum ScrollDomain: Hashable, Sendable {
    /// After the last of `period` items comes the first again, forever.
    case wrapping(period: Int)
    /// Positions are held within `lower...upper` (in items, or pixels for free lists).
    case bounded(lower: Int, upper: Int)

    /// A non-wrapping list of `count` items, settled positions 0...count-1.
    public static func clamped(count: Int) -> ScrollDomain {
        .bounded(lower: 0, upper: Swift.max(0, count - 1))
    }

    /// The content index an unbounded item number shows, or nil when it lies outside a bounded list.
    @inlinable public func contentIndex(_ item: Int) -> Int? {
        switch self {
        case .wrapping(let period):
            guard period > 0 else { return nil }
            let r = item % period
            return r < 0 ? r + period : r
        case .bounded(let lower, let upper):
            return item >= lower && item <= upper ? item : nil
        }
    }

    /// Holds a position inside the domain; wrapping positions are left unbounded.
    public func clamp(_ offset: ScrollOffset) -> ScrollOffset {
        switch self {
        case .wrapping:
            return offset
        case .bounded(let lower, let upper):
            let hi = Swift.max(lower, upper)
            if offset.whole < lower { return ScrollOffset(whole: lower) }
            if offset.whole >= hi { return ScrollOffset(whole: hi) }
            return offset
        }
    }

    /// Moves a position by a whole number of periods so that its integer part lies in [0, period).
    /// The item shown does not change; used to keep numbers small when nothing moves.
    public func rebased(_ offset: ScrollOffset) -> (offset: ScrollOffset, shift: Int) {
        guard case .wrapping(let period) = self, period > 0 else { return (offset, 0) }
        let index = contentIndex(offset.whole)!
        let shift = index - offset.whole
        return (ScrollOffset(whole: index, fraction: offset.fraction), shift)
    }
}
