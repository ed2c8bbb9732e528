import LayoutCore
import PropertyBased
import Testing

@Suite struct ScrollOffsetTests {
    @Test func fractionStaysInUnitInterval() {
        var o = ScrollOffset.zero
        o += -0.25
        #expect(o.whole == -1)
        #expect(o.fraction == 0.75)
        o += 1.25
        #expect(o == ScrollOffset(whole: 1))
        #expect(o.isIntegral)
    }

    @Test func nonFiniteDeltasAreIgnored() {
        var o = ScrollOffset(whole: 5, fraction: 0.5)
        o += .nan
        o += .infinity
        #expect(o == ScrollOffset(whole: 5, fraction: 0.5))
        #expect(ScrollOffset(.nan) == .zero)
    }

    /// 10⁹ detents in either direction leave the fraction untouched and the index exact.
    @Test func exactAfterABillionDetents() {
        let domain = ScrollDomain.wrapping(period: 7)
        let start = ScrollOffset(whole: 3, fraction: 0.125)
        let far = start + 1_000_000_000
        #expect(far.fraction == 0.125)
        #expect(domain.contentIndex(far.whole) == (3 + 1_000_000_000) % 7)
        let back = start + -1_000_000_000
        #expect(back.fraction == 0.125)
        #expect(domain.contentIndex(back.whole) == ((3 - 1_000_000_000) % 7 + 7) % 7)
    }

    /// Hours of small flick increments: adding many fractions keeps the sum as exact as a
    /// short sum would, because only the fraction carries rounding.
    @Test func manySmallStepsDoNotDrift() {
        var o = ScrollOffset.zero
        for _ in 0..<1_000_000 { o += 0.25 }  // 0.25 is exact in binary
        #expect(o == ScrollOffset(whole: 250_000))
        for _ in 0..<1_000_000 { o += -0.25 }
        #expect(o == .zero)
    }

    @Test func wrapInvariant() async {
        await propertyCheck(input: Gen.int(in: 1...100_000), Gen.int(in: -1_000_000...1_000_000), Gen.int(in: -1_000_000_000...1_000_000_000)) {
            count, item, k in
            let domain = ScrollDomain.wrapping(period: count)
            let shifted = item + k * count
            #expect(domain.contentIndex(item) == domain.contentIndex(shifted))
            let index = domain.contentIndex(shifted)!
            #expect(index >= 0 && index < count)
        }
    }

    @Test func boundedDomainClampsAndRejects() {
        let d = ScrollDomain.clamped(count: 10)
        #expect(d.contentIndex(-1) == nil)
        #expect(d.contentIndex(10) == nil)
        #expect(d.contentIndex(9) == 9)
        #expect(d.clamp(ScrollOffset(-3.5)) == ScrollOffset(whole: 0))
        #expect(d.clamp(ScrollOffset(9.5)) == ScrollOffset(whole: 9))
        #expect(d.clamp(ScrollOffset(4.5)) == ScrollOffset(4.5))
    }

    @Test func rebasingKeepsTheItemShown() async {
        await propertyCheck(input: Gen.int(in: 1...1000), Gen.int(in: -10_000_000...10_000_000)) { period, whole in
            let d = ScrollDomain.wrapping(period: period)
            let o = ScrollOffset(whole: whole, fraction: 0.5)
            let (r, shift) = d.rebased(o)
            #expect(r.whole >= 0 && r.whole < period)
            #expect(r.fraction == 0.5)
            #expect(shift % period == 0)
            #expect(d.contentIndex(r.whole) == d.contentIndex(o.whole))
        }
    }
}
