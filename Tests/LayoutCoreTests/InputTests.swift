import Geometry
import LayoutCore
import PropertyBased
import Testing

@Suite struct TouchGestureRecognizerTests {
    func run(_ events: [TouchEvent], _ r: inout TouchGestureRecognizer) -> [Gesture] {
        events.flatMap { r.handle($0) }
    }

    @Test func quickStillTouchIsATap() {
        var r = TouchGestureRecognizer(slop: 10)
        let g = run([.down(slot: 0, at: Point(x: 100, y: 100), time: 0),
                     .motion(slot: 0, at: Point(x: 104, y: 103), time: 0.05),
                     .up(slot: 0, time: 0.1)], &r)
        #expect(g == [.pressed(at: Point(x: 100, y: 100), time: 0), .tap(at: Point(x: 100, y: 100), time: 0.1)])
    }

    @Test func longPressIsNotATap() {
        var r = TouchGestureRecognizer(slop: 10, maximumTapDuration: 0.5)
        let g = run([.down(slot: 0, at: Point(x: 1, y: 1), time: 0), .up(slot: 0, time: 0.9)], &r)
        #expect(g == [.pressed(at: Point(x: 1, y: 1), time: 0), .cancelled(time: 0.9)])
    }

    /// Beyond the slop it is a drag, and the deltas add up to the finger's whole path (1:1).
    @Test func dragDeltasSumToTheFingerPath() async {
        await propertyCheck(input: zip(Gen.double(in: -40...40), Gen.double(in: -40...40)).array(of: 1...30)) { steps in
            var r = TouchGestureRecognizer(slop: 10)
            var p = Point(x: 500, y: 300)
            var events: [TouchEvent] = [.down(slot: 3, at: p, time: 0)]
            for (i, (dx, dy)) in steps.enumerated() {
                p = p + Point(x: dx, y: dy)
                events.append(.motion(slot: 3, at: p, time: Double(i + 1) * 0.01))
            }
            events.append(.up(slot: 3, time: 1))
            let gestures = run(events, &r)
            var sum = Point.zero
            var began = false
            for g in gestures {
                if case .dragMoved(_, let d, _) = g { sum = sum + d }
                if case .dragBegan = g { began = true }
            }
            if began {
                #expect(abs(sum.x - (p.x - 500)) < 1e-9 && abs(sum.y - (p.y - 300)) < 1e-9)
                #expect(gestures.last == .dragEnded(at: p, time: 1))
            } else {
                #expect(!gestures.contains {
                    switch $0 {
                    case .tap, .pressed, .cancelled: false
                    default: true
                    }
                })
            }
        }
    }

    /// Once the first finger drags, a second one is ignored; nothing new starts until both are up.
    @Test func secondFingerDuringADragIsIgnored() {
        var r = TouchGestureRecognizer(slop: 10)
        let g = run([.down(slot: 0, at: Point(x: 100, y: 100), time: 0),
                     .motion(slot: 0, at: Point(x: 100, y: 130), time: 0.01),
                     .down(slot: 1, at: Point(x: 400, y: 400), time: 0.02),
                     .motion(slot: 1, at: Point(x: 300, y: 100), time: 0.03),
                     .motion(slot: 0, at: Point(x: 100, y: 140), time: 0.035),
                     .up(slot: 0, time: 0.04),
                     // The second finger is still down: nothing starts until it lifts.
                     .motion(slot: 1, at: Point(x: 250, y: 100), time: 0.05),
                     .down(slot: 0, at: Point(x: 10, y: 10), time: 0.06),
                     .up(slot: 0, time: 0.07),
                     .up(slot: 1, time: 0.08),
                     .down(slot: 0, at: Point(x: 20, y: 20), time: 0.1),
                     .up(slot: 0, time: 0.15)], &r)
        #expect(g == [
            .pressed(at: Point(x: 100, y: 100), time: 0),
            .dragBegan(from: Point(x: 100, y: 100), time: 0.01),
            .dragMoved(to: Point(x: 100, y: 130), delta: Point(x: 0, y: 30), time: 0.01),
            .dragMoved(to: Point(x: 100, y: 140), delta: Point(x: 0, y: 10), time: 0.035),
            .dragEnded(at: Point(x: 100, y: 140), time: 0.04),
            .pressed(at: Point(x: 20, y: 20), time: 0.1),
            .tap(at: Point(x: 20, y: 20), time: 0.15),
        ])
    }

    /// Two fingers landing on an item never tap it, whichever lifts first; a third finger or the
    /// first coming down again before both are up starts nothing; afterwards a tap is a tap.
    @Test(arguments: [[0, 1], [1, 0]])
    func secondFingerCancelsThePress(liftOrder: [Int32]) {
        var r = TouchGestureRecognizer(slop: 10)
        let item = Point(x: 100, y: 100)
        let g = run([.down(slot: 0, at: item, time: 0),
                     .down(slot: 1, at: Point(x: 110, y: 104), time: 0.03),
                     .motion(slot: 0, at: Point(x: 101, y: 101), time: 0.05),
                     .up(slot: liftOrder[0], time: 0.1),
                     .down(slot: 2, at: item, time: 0.12),
                     .up(slot: 2, time: 0.14),
                     .up(slot: liftOrder[1], time: 0.2),
                     .down(slot: 0, at: item, time: 0.5),
                     .up(slot: 0, time: 0.6)], &r)
        #expect(g == [
            .pressed(at: item, time: 0),
            .cancelled(time: 0.03),
            .pressed(at: item, time: 0.5),
            .tap(at: item, time: 0.6),
        ])
    }

    @Test func cancelEndsCleanly() {
        var r = TouchGestureRecognizer(slop: 10)
        let g = run([.down(slot: 0, at: Point(x: 0, y: 0), time: 0),
                     .motion(slot: 0, at: Point(x: 0, y: 50), time: 0.1),
                     .cancel(time: 0.2),
                     .up(slot: 0, time: 0.3),
                     .down(slot: 0, at: Point(x: 5, y: 5), time: 0.4)], &r)
        #expect(g.contains(.cancelled(time: 0.2)))
        #expect(!g.contains { if case .dragEnded = $0 { true } else { false } })
        #expect(g.last == .pressed(at: Point(x: 5, y: 5), time: 0.4))
        #expect(r.isTracking)
    }

    /// Flick velocity measured by the scroller from a recognizer's drag equals the finger's.
    @Test func flickVelocityReachesTheScroller() {
        var r = TouchGestureRecognizer(slop: 10)
        var s = Scroller(domain: .wrapping(period: 100))
        let pitch = 50.0
        var events: [TouchEvent] = [.down(slot: 0, at: Point(x: 0, y: 400), time: 0)]
        for i in 1...8 { events.append(.motion(slot: 0, at: Point(x: 0, y: 400 - Double(i) * 20), time: Double(i) * 0.01)) }
        events.append(.up(slot: 0, time: 0.08))
        for g in run(events, &r) {
            switch g {
            case .dragBegan(_, let t): s.beginDrag(at: t)
            case .dragMoved(_, let d, let t): s.drag(by: -d.y / pitch, at: t)
            case .dragEnded(_, let t): s.endDrag(at: t)
            default: break
            }
        }
        // 20 px per 10 ms = 2000 px/s = 40 items/s: a fling well past the 3.2 items dragged.
        #expect(s.isAnimating)
        #expect(s.restingPosition.whole >= 3 + 10)
    }
}

@Suite struct KnobInputTests {
    @Test func wheelDetentsAreItems() {
        var k = KnobAccumulator()
        #expect(k.add(v120: 120) == 1)
        #expect(k.add(v120: -360) == -3)
    }

    /// High-resolution partial detents accumulate: the items moved depend only on the total
    /// turned (rounded to the nearest item, halves forward), whatever the path.
    @Test func partialDetentsAccumulate() async {
        await propertyCheck(input: Gen.int(in: -240...240).array(of: 0...200), Gen.int(in: 1...3)) { steps, perItem in
            var k = KnobAccumulator(detentsPerItem: perItem)
            let moved = steps.reduce(0) { $0 + k.add(v120: $1) }
            let total = steps.reduce(0, +)
            let unit = 120 * perItem
            let shifted = total + unit / 2
            let expected = shifted >= 0 ? shifted / unit : -((-shifted + unit - 1) / unit)
            #expect(moved == expected)
        }
    }

    @Test func wobbleMovesNothing() {
        var k = KnobAccumulator()
        #expect(k.add(v120: -30) == 0)
        #expect(k.add(v120: 50) == 0)
        #expect(k.add(v120: -20) == 0)
        #expect(k.add(v120: 120) == 1)
    }

    @Test func directionFlips() {
        var k = KnobAccumulator(direction: -1)
        #expect(k.add(detents: 2) == -2)
    }
}
