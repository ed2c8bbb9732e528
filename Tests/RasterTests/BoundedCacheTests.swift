import Raster
import Testing

/// The one eviction policy of the drawing caches: never past the bound, emptied whole when an
/// entry would pass it, a replaced entry's cost given back first.
@Suite struct BoundedCacheTests {
    @Test func emptiesWholeWhenAnEntryWouldPassTheBound() {
        var cache = BoundedCache<String, Int>(limit: 10)
        let first = cache.insert(1, for: "a", cost: 4), second = cache.insert(2, for: "b", cost: 6)
        #expect(!first && !second)
        #expect(cache.cost == 10 && cache.count == 2)
        let third = cache.insert(3, for: "c", cost: 1)
        #expect(third, "11 would pass 10: emptied first")
        #expect(cache.count == 1 && cache.cost == 1 && cache["c"] == 3 && cache["a"] == nil)
    }

    @Test func aReplacedEntryGivesItsCostBackFirst() {
        var cache = BoundedCache<String, Int>(limit: 10)
        cache.insert(1, for: "a", cost: 8)
        let emptied = cache.insert(2, for: "a", cost: 9)
        #expect(!emptied, "8 is given back before 9 is counted")
        #expect(cache.cost == 9 && cache["a"] == 2)
        cache.insert(5, for: "b", cost: 1)
        cache.removeAll()
        #expect(cache.count == 0 && cache.cost == 0)
    }

    @Test func countingEntriesIsACostOfOneEach() {
        var cache = BoundedCache<Int, Int>(limit: 3)
        var emptied: [Bool] = []
        for i in 0...3 { emptied.append(cache.insert(i, for: i)) }
        #expect(emptied == [false, false, false, true])
        #expect(cache.count == 1)
    }
}
