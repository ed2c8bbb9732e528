import Geometry
import PropertyBased
import Testing

@Suite struct GeometryTests {
    @Test func quarterTurnsAreExact() {
        let t = AffineTransform.rotation(Angle(degrees: 90))
        #expect(t.apply(Point(x: 1, y: 0)) == Point(x: 0, y: 1))
        let h = AffineTransform.rotation(Angle(degrees: 180))
        #expect(h.apply(Point(x: 2, y: 3)) == Point(x: -2, y: -3))
    }

    @Test func inverseUndoesTransform() async {
        await propertyCheck(input: Gen.double(in: -10...10), Gen.double(in: -500...500), Gen.double(in: -500...500)) { angle, x, y in
            let t = AffineTransform.rotation(Angle(radians: angle), about: Point(x: 40, y: -7))
                .concatenating(.translation(x: x, y: y))
            let p = Point(x: y, y: x)
            let back = t.inverted!.apply(t.apply(p))
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
    }

    @Test func singularTransformHasNoInverse() {
        #expect(AffineTransform.scale(x: 0, y: 1).inverted == nil)
    }

    /// Each rotation maps the logical screen onto the panel exactly, corner to corner, and back.
    @Test(arguments: DisplayRotation.allCases)
    func displayRotationMapsScreenOntoPanel(rotation: DisplayRotation) {
        let panel = Size(width: 800, height: 480)
        let logical = rotation.logicalSize(forPanel: panel)
        let toPanel = rotation.logicalToPanel(panel: panel)
        let corners = [Point(x: 0, y: 0), Point(x: logical.width, y: 0), Point(x: 0, y: logical.height),
                       Point(x: logical.width, y: logical.height)]
        let mapped = Set(corners.map { toPanel.apply($0) })
        #expect(mapped == Set([Point(x: 0, y: 0), Point(x: 800, y: 0), Point(x: 0, y: 480), Point(x: 800, y: 480)]))
        // A pixel centre lands on a pixel centre.
        let c = toPanel.apply(Point(x: 10.5, y: 20.5))
        #expect(c.x - c.x.rounded(.down) == 0.5 && c.y - c.y.rounded(.down) == 0.5)
        let back = rotation.panelToLogical(panel: panel).apply(c)
        #expect(back == Point(x: 10.5, y: 20.5))
    }

    @Test func quarterTurnIsClockwise() {
        // The logical top-left corner of a 90° panel appears at the panel's top-right.
        let t = DisplayRotation.quarter.logicalToPanel(panel: Size(width: 800, height: 480))
        #expect(t.apply(Point(x: 0, y: 0)) == Point(x: 800, y: 0))
    }

    @Test func angleNormalization() {
        #expect(Angle(radians: 3 * .pi).normalized.radians == .pi)
        #expect(abs(Angle(radians: -3 * .pi / 2).normalized.radians - .pi / 2) < 1e-12)
        #expect(Angle(degrees: 360).normalized.radians == 0)
    }

    @Test func roundedRectContainment() {
        let r = RoundedRect(rect: Rect(x: 0, y: 0, width: 100, height: 40), radius: 10)
        #expect(r.contains(Point(x: 50, y: 20)))
        #expect(!r.contains(Point(x: 0.5, y: 0.5)))  // cut off by the top-left corner
        #expect(r.contains(Point(x: 3, y: 10)))
        let square = RoundedRect(rect: r.rect, radius: 10, corners: .bottom)
        #expect(square.contains(Point(x: 0.5, y: 0.5)))
        #expect(!square.contains(Point(x: 0.5, y: 39.5)))
    }

    @Test func formattingWithoutFoundation() {
        #expect(1.005.formatted2 == "1.00" || 1.005.formatted2 == "1.01")
        #expect((-0.5).formatted2 == "-0.50")
        #expect(12.0.formatted2 == "12.00")
        #expect((-0.001).formatted2 == "0.00")
    }
}
