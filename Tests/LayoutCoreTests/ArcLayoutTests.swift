import Geometry
import LayoutCore
import PropertyBased
import RealModule
import Testing

@Suite struct ArcLayoutTests {
    /// The reference scene S1 (DESIGN.md §5): 9 rows on the right half-ellipse.
    static func s1(width: Double, height: Double) -> ArcLayout {
        ArcLayout(viewport: Rect(x: 0, y: 0, width: width, height: height), edge: .right, pitch: height / 9,
                  rowLength: 0.19 * width, rowThickness: 0.8 * height / 9, radiusRatio: 0.6, inset: 16)
    }

    /// Positions agree with the design's formula, written here independently with asin and cos.
    @Test(arguments: [(800.0, 480.0), (1920.0, 1080.0)])
    func matchesDesignFormula(size: (Double, Double)) {
        let (w, h) = size
        let layout = Self.s1(width: w, height: h)
        let rows = layout.visibleRows(at: ScrollOffset(whole: 4), domain: .clamped(count: 9))
        #expect(rows.map(\.index) == Array(0...8))
        let ry = h / 2, rx = 0.6 * ry
        for row in rows {
            let y = h / 2 + Double(row.item - 4) * h / 9
            let angle = Double.asin((y - h / 2) / (h / 2))
            let x = w - rx * .cos(angle) - 0.19 * w / 2 - 16
            #expect(abs(row.center.x - x) < 1e-9, "row \(row.index) x \(row.center.x) vs \(x)")
            #expect(abs(row.center.y - y) < 1e-9)
            #expect(abs(row.angle.radians - angle) < 1e-12)
        }
        // The apex row stands furthest into the screen.
        let apex = rows.first { $0.distanceFromApex == 0 }!
        #expect(rows.allSatisfy { $0.center.x >= apex.center.x })
    }

    @Test(arguments: ArcEdge.allCases)
    func symmetricAboutApexAndMonotonic(edge: ArcEdge) async {
        await propertyCheck(input: Gen.int(in: -1_000_000...1_000_000), Gen.double(in: 20...200), Gen.double(in: 0.05...3)) {
            whole, pitch, ratio in
            let layout = ArcLayout(viewport: Rect(x: 10, y: 20, width: 1024, height: 768), edge: edge, pitch: pitch,
                                   rowLength: 150, radiusRatio: ratio)
            let offset = ScrollOffset(whole: whole)
            let rows = layout.visibleRows(at: offset, domain: .wrapping(period: 37))
            let byItem = Dictionary(uniqueKeysWithValues: rows.map { ($0.item, $0) })
            let c = layout.ellipseCenter
            for row in rows {
                let k = row.item - whole
                guard let mirror = byItem[whole - k] else {
                    Issue.record("row \(k) has no mirror")
                    continue
                }
                if edge.isVertical {
                    #expect(abs(row.center.x - mirror.center.x) < 1e-9)
                    #expect(abs((row.center.y - c.y) + (mirror.center.y - c.y)) < 1e-9)
                } else {
                    #expect(abs(row.center.y - mirror.center.y) < 1e-9)
                    #expect(abs((row.center.x - c.x) + (mirror.center.x - c.x)) < 1e-9)
                }
            }
            // Along the list, rows advance strictly along the axis.
            let along = rows.map { edge.isVertical ? $0.center.y : $0.center.x }
            #expect(zip(along, along.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test func noNaNForAnyInput() async {
        let sizes = Gen.double(in: -1e6...1e7)
        await propertyCheck(count: 300, input: sizes, sizes, Gen.double(in: -1e3...1e3), Gen.double(in: -1e12...1e12),
                            Gen.int(in: 0...4)) { w, h, ratio, offset, e in
            let edge = ArcEdge.allCases[e % 4]
            let layout = ArcLayout(viewport: Rect(x: 0, y: 0, width: w, height: h), edge: edge, pitch: abs(h) / 9 + 1e-3,
                                   rowLength: w / 5, radiusRatio: ratio, inset: ratio * 7, translation: Point(x: ratio, y: -ratio))
            for row in layout.visibleRows(at: ScrollOffset(offset), domain: .wrapping(period: 5)) {
                #expect(row.center.isFinite && row.angle.radians.isFinite && row.distanceFromApex.isFinite)
                #expect(row.frame.origin.isFinite && row.frame.width.isFinite && row.frame.height.isFinite)
            }
        }
        // Hostile values that a broken config could carry.
        for bad in [Double.nan, .infinity, -.infinity, 0, -5] {
            let layout = ArcLayout(viewport: Rect(x: bad, y: 0, width: bad, height: 480), edge: .left, pitch: bad,
                                   rowLength: bad, rowThickness: bad, alongRadius: bad, radiusRatio: bad, inset: bad,
                                   translation: Point(x: bad, y: bad))
            for row in layout.visibleRows(at: ScrollOffset(bad), domain: .wrapping(period: 3)) {
                #expect(row.center.isFinite && row.angle.radians.isFinite)
            }
            let sane = Self.s1(width: 800, height: 480)
            var broken = sane
            broken.radiusRatio = bad
            broken.alongRadius = bad
            broken.inset = bad
            for row in broken.visibleRows(at: .zero, domain: .wrapping(period: 3)) {
                #expect(row.center.isFinite && row.frame.origin.isFinite)
            }
        }
    }

    /// Only the rows on the ellipse are produced, however long the list.
    @Test func workIsProportionalToVisibleRows() {
        let layout = Self.s1(width: 800, height: 480)
        for count in [10, 1000, 100_000] {
            let items = layout.candidateItems(at: ScrollOffset(whole: count / 2, fraction: 0.3))!
            #expect(items.count <= 12)
            let rows = layout.visibleRows(at: ScrollOffset(whole: count / 2, fraction: 0.3), domain: .wrapping(period: count))
            #expect(rows.count == 9 || rows.count == 10)
            #expect(rows.allSatisfy { abs($0.center.y - 240) <= 240 })
        }
    }

    @Test func boundedListShowsNothingBeyondItsEnds() {
        let layout = Self.s1(width: 800, height: 480)
        let rows = layout.visibleRows(at: .zero, domain: .clamped(count: 3))
        #expect(rows.map(\.index) == [0, 1, 2])
        #expect(rows[0].distanceFromApex == 0)
    }

    /// A list that ends opens with its first row at the top end of the arc and keeps the arc
    /// full wherever the selection goes; a short list stands centred on the apex.
    @Test func aListThatEndsKeepsItsArcFull() {
        let layout = Self.s1(width: 800, height: 480)
        #expect(layout.rowsBeyondApex == 4)
        let domain = ScrollDomain.clamped(count: 20)
        let opening = layout.visibleRows(at: layout.viewOffset(for: .zero, domain: domain), domain: domain)
        #expect(opening.map(\.index) == Array(0...8))
        #expect(opening[0].center.y < 480 / 9)
        let end = layout.visibleRows(at: layout.viewOffset(for: ScrollOffset(whole: 19), domain: domain), domain: domain)
        #expect(end.map(\.index) == Array(11...19))
        // In the middle the selection is at the apex, as on a wrapping list.
        #expect(layout.viewOffset(for: ScrollOffset(whole: 9, fraction: 0.3), domain: domain) == ScrollOffset(whole: 9, fraction: 0.3))
        #expect(layout.viewOffset(for: ScrollOffset(whole: 3), domain: .wrapping(period: 20)) == ScrollOffset(whole: 3))
        let short = ScrollDomain.clamped(count: 4)
        for selection in 0..<4 {
            let view = layout.viewOffset(for: ScrollOffset(whole: selection), domain: short)
            #expect(view == ScrollOffset(1.5))
            let rows = layout.visibleRows(at: view, domain: short)
            #expect(rows.map(\.index) == [0, 1, 2, 3])
            #expect(abs(rows[0].center.y - (480 - rows[3].center.y)) < 1e-9)
        }
    }

    /// Whatever the count and the selection (settled or moving), the selected row is on the arc
    /// and as many rows show as the arc holds.
    @Test func theSelectionOfAListThatEndsIsAlwaysShown() async {
        let layout = Self.s1(width: 800, height: 480)
        await propertyCheck(input: Gen.int(in: 1...200), Gen.double(in: -0.4...1.4)) { count, at in
            let domain = ScrollDomain.clamped(count: count)
            let selection = domain.clamp(ScrollOffset(at * Double(count - 1)))
            let rows = layout.visibleRows(at: layout.viewOffset(for: selection, domain: domain), domain: domain)
            #expect(rows.contains { $0.item == selection.nearestItem })
            #expect(rows.count >= Swift.min(count, 2 * layout.rowsBeyondApex))
        }
    }

    @Test func wrappingListRepeatsSeamlessly() {
        let layout = Self.s1(width: 800, height: 480)
        let rows = layout.visibleRows(at: ScrollOffset(whole: 0, fraction: 0.25), domain: .wrapping(period: 3))
        #expect(rows.map(\.item) == Array(-4...4))
        #expect(rows.map(\.index) == [2, 0, 1, 2, 0, 1, 2, 0, 1])
    }

    @Test func edgesPlaceTheApexInward() {
        let vp = Rect(x: 0, y: 0, width: 800, height: 480)
        func apex(_ e: ArcEdge) -> Point {
            ArcLayout(viewport: vp, edge: e, pitch: 60, rowLength: 100, radiusRatio: 0.5, inset: 10)
                .row(item: 0, at: .zero, domain: .wrapping(period: 4))!.center
        }
        #expect(apex(.left) == Point(x: 0.5 * 240 + 10 + 50, y: 240))
        #expect(apex(.right) == Point(x: 800 - (0.5 * 240 + 10 + 50), y: 240))
        #expect(apex(.top) == Point(x: 400, y: 0.5 * 400 + 10 + 50))
        #expect(apex(.bottom) == Point(x: 400, y: 480 - (0.5 * 400 + 10 + 50)))
    }

    @Test func dragIsOneToOne() {
        let layout = Self.s1(width: 800, height: 480)
        let pitch = 480.0 / 9
        #expect(layout.items(forDrag: Point(x: 13, y: -pitch * 2)) == 2)
        var horizontal = layout
        horizontal.edge = .bottom
        #expect(horizontal.items(forDrag: Point(x: pitch, y: 999)) == -1)
        #expect(layout.items(forDrag: Point(x: 0, y: .nan)) == 0)
    }

    /// A point is attributed to a row only if the row's drawn shape holds it, and every point
    /// well inside a row's shape is attributed to that row.
    @Test func hitTestingAgreesWithDrawnShapes() async {
        let layout = Self.s1(width: 800, height: 480)
        let domain = ScrollDomain.wrapping(period: 20)
        await propertyCheck(count: 500, input: Gen.double(in: 0...800), Gen.double(in: 0...480), Gen.double(in: -50...50)) { x, y, s in
            let offset = ScrollOffset(s)
            let p = Point(x: x, y: y)
            let radius = layout.rowThickness / 4
            let shapes = layout.visibleRows(at: offset, domain: domain).filter {
                RoundedRect(rect: $0.frame, radius: radius).contains(p)
            }
            let hit = layout.hitTest(p, at: offset, domain: domain)
            if shapes.isEmpty {
                #expect(hit == nil)
            } else {
                #expect(hit.map { h in shapes.contains { $0.item == h.item } } == true)
            }
        }
    }
}
