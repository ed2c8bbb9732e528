/// A dictionary with a bound on the total cost of its entries (bytes, or 1 an entry): when an
/// entry would take it past the bound, everything is dropped first. Emptying whole is the policy
/// of every drawing cache here (plates, labels, shaped text): a menu's working set is small and
/// built again in one frame, so bookkeeping for least-recently-used would cost more than it saves.
/// The one place that policy is written.
public struct BoundedCache<Key: Hashable, Value> {
    public let limit: Int
    /// The entries' total cost.
    public private(set) var cost = 0
    private var entries: [Key: (value: Value, cost: Int)] = [:]

    public init(limit: Int) { self.limit = limit }

    public var count: Int { entries.count }
    /// The values, in no order (tests and counts; a copy).
    public var values: [Value] { entries.values.map(\.value) }

    public subscript(key: Key) -> Value? { entries[key]?.value }

    /// Stores `value` for `key` (replacing what was there); true when the cache was emptied to
    /// make room for it.
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost entryCost: Int = 1) -> Bool {
        if let old = entries.removeValue(forKey: key) { cost -= old.cost }
        let emptied = cost + entryCost > limit
        if emptied { removeAll() }
        entries[key] = (value, entryCost)
        cost += entryCost
        return emptied
    }

    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        cost = 0
    }
}
