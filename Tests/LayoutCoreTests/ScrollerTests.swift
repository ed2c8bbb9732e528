import LayoutCore
import PropertyBased
import Testing

/// Runs the scroller's animation to its end at 60 frames a second, checking each frame.
func settle(_ s: inout Scroller, from start: Double, check: (ScrollOffset, ScrollOffset) -> Void = { _, _ in }) -> Double {
    var now = start
    var previous = s.position
    var frames = 0
    while s.update(now: now) {
        check(previous, s.position)
        previous = s.position
        now += 1.0 / 60
        frames += 1
        if frames > 100_000 { break }
    }
    check(previous, s.position)
    return now
}

@Suite struct ScrollerTests {
    @Test func dragIsOneToOne() {
        var s = Scroller(domain: .wrapping(period: 10))
        s.beginDrag(at: 0)
        s.drag(by: 0.3, at: 0.016)
        s.drag(by: 0.4, at: 0.032)
        #expect(abs(s.position.distance(to: ScrollOffset(0.7))) < 1e-12)
        #expect(s.isDragging)
    }

    @Test func slowReleaseSnapsToNearest() {
        var s = Scroller(domain: .wrapping(period: 10))
        s.beginDrag(at: 0)
        s.drag(by: 0.6, at: 0.1)
        s.endDrag(at: 0.5)  // finger rested: no velocity
        #expect(s.restingPosition == ScrollOffset(whole: 1))
        _ = settle(&s, from: 0.5)
        #expect(s.position == ScrollOffset(whole: 1))
        #expect(s.isIdle)
    }

    @Test func flingCarriesOnAndStopsOnAnItem() {
        var s = Scroller(domain: .wrapping(period: 1000))
        s.beginDrag(at: 0)
        var t = 0.0
        for _ in 0..<6 {  // 20 items per second
            t += 0.016
            s.drag(by: 0.32, at: t)
        }
        let v = s.releaseVelocity(at: t)
        #expect(abs(v - 20) < 1e-6)
        s.endDrag(at: t)
        // Momentum takes it about v·projection further, onto a whole item.
        let expected = ScrollOffset(whole: (ScrollOffset(1.92) + 20 * ScrollPhysics.items.projection).nearestItem)
        #expect(s.restingPosition == expected)
        // The curve starts at the finger's velocity.
        #expect(abs(s.velocity(at: t) - 20) < 1e-6)
        var lastVelocity = Double.infinity
        _ = settle(&s, from: t) { prev, cur in
            let step = prev.distance(to: cur)
            #expect(step >= 0, "no backwards motion, no overshoot")
            if step > 0 {
                #expect(step <= lastVelocity + 1e-9, "decelerates")
                lastVelocity = step
            }
        }
        #expect(s.position == expected)
    }

    @Test func boundedFlingStopsAtTheEnd() {
        var s = Scroller(domain: .clamped(count: 5))
        s.fling(velocity: 50, at: 0)
        _ = settle(&s, from: 0)
        #expect(s.position == ScrollOffset(whole: 4))
        s.fling(velocity: -50, at: 10)
        _ = settle(&s, from: 10)
        #expect(s.position == .zero)
    }

    @Test func threeQuickDetentsAreThreeItems() {
        var s = Scroller(domain: .wrapping(period: 100))
        s.detents(1, at: 0)
        s.detents(1, at: 0.02)
        s.detents(1, at: 0.04)
        #expect(s.restingPosition == ScrollOffset(whole: 3))
        _ = settle(&s, from: 0.04) { prev, cur in #expect(prev <= cur) }
        #expect(s.position == ScrollOffset(whole: 3))
    }

    @Test func detentsDuringAFlingAddToItsTarget() {
        var s = Scroller(domain: .wrapping(period: 100))
        s.fling(velocity: 10, at: 0)
        let target = s.restingPosition
        s.update(now: 0.1)
        s.detents(-2, at: 0.1)
        #expect(s.restingPosition == target + -2)
    }

    @Test func clampedDetentsStopAtTheEnds() {
        var s = Scroller(domain: .clamped(count: 3))
        s.detents(10, at: 0)
        _ = settle(&s, from: 0)
        #expect(s.position == ScrollOffset(whole: 2))
    }

    @Test func cancelledTouchSettlesWithoutFling() {
        var s = Scroller(domain: .wrapping(period: 10))
        s.beginDrag(at: 0)
        s.drag(by: 0.2, at: 0.01)
        s.drag(by: 0.2, at: 0.02)
        s.cancelDrag(at: 0.02)
        #expect(s.restingPosition == .zero)
    }

    @Test func settlingRebasesWrappingPositions() {
        var s = Scroller(domain: .wrapping(period: 7))
        s.detents(-3, at: 0)
        _ = settle(&s, from: 0)
        #expect(s.position == ScrollOffset(whole: 4))
    }

    @Test func contentChangeKeepsPositionInside() {
        var s = Scroller(domain: .clamped(count: 50), position: ScrollOffset(whole: 40))
        s.setDomain(.clamped(count: 10))
        #expect(s.position == ScrollOffset(whole: 9))
    }

    /// Random sequences of drags, flings and detents always end settled on a whole item.
    @Test func everyMotionEndsOnAnItem() async {
        let step = zip(Gen.int(in: 0...4), Gen.double(in: -3...3))
        await propertyCheck(count: 300, input: step.array(of: 1...40), Gen.bool) { steps, wrapping in
            var s = Scroller(domain: wrapping ? .wrapping(period: 13) : .clamped(count: 13))
            var now = 0.0
            for (kind, amount) in steps {
                now += 0.008 + abs(amount) * 0.01
                switch kind {
                case 0: s.drag(by: amount, at: now)
                case 1: s.endDrag(at: now)
                case 2: s.detents(Int(amount.rounded()), at: now)
                case 3: s.fling(velocity: amount * 10, at: now)
                default: s.update(now: now)
                }
            }
            s.endDrag(at: now)
            _ = settle(&s, from: now)
            #expect(s.isIdle)
            #expect(s.position.isIntegral)
            if !wrapping { #expect((0...12).contains(s.position.whole)) }
        }
    }

    /// Detents alone: the end position is the sum of the detents, however fast they come.
    @Test func detentSequencesAreExact() async {
        await propertyCheck(count: 300, input: Gen.int(in: -3...3).array(of: 1...60), Gen.double(in: 0...0.3)) { detents, gap in
            var s = Scroller(domain: .wrapping(period: 1_000_000))
            var now = 0.0
            for d in detents {
                s.detents(d, at: now)
                now += gap
            }
            _ = settle(&s, from: now)
            let sum = detents.reduce(0, +)
            #expect(s.position == ScrollOffset(whole: ((sum % 1_000_000) + 1_000_000) % 1_000_000))
        }
    }
}

@Suite struct ScrollerPacingTests {
    /// A fast burst of detents settles soon after the last one, not seconds later.
    @Test func burstOfDetentsCatchesUpQuickly() {
        var s = Scroller(domain: .wrapping(period: 12))
        for i in 0..<20 { s.detents(1, at: Double(i) * 0.005) }
        let end = settle(&s, from: 0.1)
        #expect(s.position == ScrollOffset(whole: 8))
        #expect(end < 0.1 + ScrollPhysics.items.detentDuration * 20.0.squareRoot() + 0.05)
    }

    /// Detents never slow a motion down abruptly: each restart keeps going at least as fast.
    @Test func restartedDetentsDoNotStall() {
        var s = Scroller(domain: .wrapping(period: 1000))
        var now = 0.0
        for _ in 0..<10 {
            let before = s.velocity(at: now)
            s.detents(1, at: now)
            #expect(s.velocity(at: now) >= before - 1e-9)
            now += 0.03
            s.update(now: now)
        }
    }
}
