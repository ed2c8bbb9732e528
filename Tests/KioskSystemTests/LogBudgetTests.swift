@testable import KioskSystem
import Testing

/// A source's log lines within their budget, time moved by hand: the lines over it are held back
/// and counted, and the count is said with the first line of a later window.
@Suite struct LogBudgetTests {
    @Test func linesOverTheBudgetAreCountedAndSaidLater() {
        var budget = LogBudget(lines: 3, per: 60)
        let first = (0..<1000).map { budget.admit("control: home", now: Double($0) * 0.01) }
        #expect(first.compactMap { $0 } == ["control: home", "control: home", "control: home"])
        // A minute after the window began: the next line says how many were held back.
        #expect(budget.admit("control: screen settings shown", now: 60) == "control: screen settings shown (… 997 more held back)")
        #expect(budget.admit("control: home", now: 61) == "control: home")
        #expect(budget.admit("control: home", now: 62) == "control: home")
        #expect(budget.admit("control: home", now: 63) == nil)
        // The one held back at 63 is said at the next line; then nothing was held back: no count.
        #expect(budget.admit("control: home", now: 500) == "control: home (… 1 more held back)")
        #expect(budget.admit("control: home", now: 1000) == "control: home")
    }

    @Test func aClockThatGoesBackStartsAWindow() {
        var budget = LogBudget(lines: 1, per: 10)
        #expect(budget.admit("a", now: 100) == "a")
        #expect(budget.admit("b", now: 101) == nil)
        #expect(budget.admit("c", now: 5) == "c (… 1 more held back)")
    }
}
