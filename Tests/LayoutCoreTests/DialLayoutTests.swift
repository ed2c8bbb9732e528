import Geometry
import LayoutCore
import PropertyBased
import RealModule
import Testing

@Suite struct DialLayoutTests {
    let dial = DialLayout(center: Point(x: 400, y: 300), radius: 200, slots: 8)

    @Test func selectedItemSitsAtThePointer() {
        let items = dial.visibleItems(at: ScrollOffset(whole: 3), domain: .wrapping(period: 8), count: 8)
        #expect(items.count == 8)
        let selected = items.first { $0.item == 3 }!
        #expect(abs(selected.center.x - 400) < 1e-9 && abs(selected.center.y - 100) < 1e-9)
        #expect(dial.selectedItem(at: ScrollOffset(whole: 3)) == 3)
        // Neighbours stand one step (45°) either side.
        let next = items.first { $0.item == 4 }!
        #expect(abs(next.angle.radians - (-Double.pi / 2 + Double.pi / 4)) < 1e-12)
    }

    @Test func oneItemPerSlotWhenMoreItemsThanSlots() async {
        await propertyCheck(input: Gen.int(in: -100_000...100_000), Gen.double(in: 0..<1), Gen.int(in: 9...500)) { whole, fraction, count in
            let items = dial.visibleItems(at: ScrollOffset(whole: whole, fraction: fraction), domain: .wrapping(period: count), count: count)
            #expect(items.count == 8)
            #expect(Set(items.map(\.slot)).count == 8)
            // A window of consecutive items, centred on the position.
            let numbers = items.map(\.item)
            #expect(numbers == Array(numbers[0]..<(numbers[0] + 8)))
            #expect(items.allSatisfy { abs($0.distanceFromPointer) <= 4 })
            #expect(items.allSatisfy { $0.index == (($0.item % count) + count) % count })
        }
    }

    @Test func fewerItemsThanSlotsUseOneSlotEach() {
        let items = dial.visibleItems(at: .zero, domain: .wrapping(period: 5), count: 5)
        #expect(Set(items.map(\.index)) == Set(0..<5))
        #expect(abs(dial.step(count: 5).radians - 2 * .pi / 5) < 1e-12)
    }

    @Test func boundedDialStopsAtItsEnds() {
        let items = dial.visibleItems(at: .zero, domain: .clamped(count: 20), count: 20)
        #expect(items.map(\.index) == [0, 1, 2, 3])
    }

    @Test func itemTransformTurnsUprightItemsOutward() {
        let items = dial.visibleItems(at: .zero, domain: .wrapping(period: 4), count: 4)
        for item in items {
            // The origin goes to the item's centre and "up" (−y) points away from the dial's centre.
            let o = item.transform.apply(.zero)
            #expect(abs(o.x - item.center.x) < 1e-9 && abs(o.y - item.center.y) < 1e-9)
            let up = item.transform.apply(Point(x: 0, y: -1)) - o
            let outward = (item.center - dial.center) * (1 / 200)
            #expect(abs(up.x - outward.x) < 1e-9 && abs(up.y - outward.y) < 1e-9)
        }
    }

    @Test func hitTestingFindsTheItemUnderTheFinger() async {
        await propertyCheck(input: Gen.double(in: 0...800), Gen.double(in: 0...600), Gen.double(in: -30...30)) { x, y, s in
            let offset = ScrollOffset(s)
            let p = Point(x: x, y: y)
            let hit = dial.hitTest(p, at: offset, domain: .wrapping(period: 12), count: 12)
            let containing = dial.visibleItems(at: offset, domain: .wrapping(period: 12), count: 12)
                .filter { ($0.center - p).length <= dial.itemRadius }
            #expect((hit == nil) == containing.isEmpty)
            if let hit { #expect(containing.contains { $0.item == hit.item }) }
        }
    }

    @Test func rotationMapsToItems() {
        // Turning clockwise by one step brings the previous item to the pointer.
        #expect(abs(dial.items(forRotation: Angle(degrees: 45), count: 8) + 1) < 1e-12)
        #expect(dial.items(forRotation: Angle(radians: .nan), count: 8) == 0)
    }
}

@Suite struct RotaryTrackerTests {
    /// The accumulated rotation equals the sum of the finger's real turns, across the ±π seam.
    @Test func accumulatedAngleIsTheRealRotation() async {
        await propertyCheck(count: 200, input: Gen.double(in: -3.0...3.0).array(of: 1...60), Gen.double(in: 30...300), Gen.double(in: -4...4)) {
            steps, radius, start in
            var tracker = RotaryTracker(center: Point(x: 100, y: 100), deadZoneRadius: 20)
            var angle = start
            let at = { (a: Double) in Point(x: 100 + radius * .cos(a), y: 100 + radius * .sin(a)) }
            tracker.begin(at: at(angle))
            var sum = 0.0
            for step in steps {
                angle += step
                sum += step
                tracker.move(to: at(angle))
            }
            #expect(abs(tracker.accumulated.radians - sum) < 1e-6)
        }
    }

    @Test func crossingTheSeamIsASmallStep() {
        var t = RotaryTracker(center: .zero, deadZoneRadius: 5)
        t.begin(at: Point(x: -100, y: 1))  // just below +π... (y-down: angle ≈ +π)
        let d = t.move(to: Point(x: -100, y: -1))  // just past −π
        #expect(abs(d.radians) < 0.03)
    }

    @Test func deadZoneReanchorsWithoutAJump() {
        var t = RotaryTracker(center: .zero, deadZoneRadius: 10)
        t.begin(at: Point(x: 100, y: 0))
        t.move(to: Point(x: 0, y: 100))  // +90°
        #expect(abs(t.accumulated.degrees - 90) < 1e-9)
        // Through the middle to the opposite side: no rotation counted for the crossing.
        #expect(t.move(to: Point(x: 0, y: 5)) == .zero)
        #expect(t.move(to: Point(x: 0, y: -5)) == .zero)
        #expect(t.move(to: Point(x: 0, y: -100)) == .zero)
        #expect(abs(t.accumulated.degrees - 90) < 1e-9)
        t.move(to: Point(x: 100, y: 0))  // −90° → +90°... clockwise from −90° to 0° is +90°
        #expect(abs(t.accumulated.degrees - 180) < 1e-9)
    }

    @Test func touchStartingInsideTheDeadZoneAnchorsOnLeaving() {
        var t = RotaryTracker(center: .zero, deadZoneRadius: 10)
        t.begin(at: Point(x: 1, y: 1))
        #expect(t.move(to: Point(x: 50, y: 0)) == .zero)
        t.move(to: Point(x: 0, y: 50))
        #expect(abs(t.accumulated.degrees - 90) < 1e-9)
        #expect(t.move(to: Point(x: .nan, y: 0)) == .zero)
    }
}
