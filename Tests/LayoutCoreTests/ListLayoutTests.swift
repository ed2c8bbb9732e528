import Geometry
import LayoutCore
import PropertyBased
import Testing

@Suite struct ListLayoutTests {
    @Test func singleColumnIsAGroupedList() {
        let layout = ListLayout(width: 400, sections: [
            ListSection(headerHeight: 30, rowHeights: [40, 40, 40]),
            ListSection(headerHeight: 30, rowHeights: [50]),
        ], metrics: ListMetrics(columns: 1, rowSpacing: 0, sectionSpacing: 20, insets: 10))
        #expect(layout.rows.map(\.position) == [.top, .middle, .bottom, .single])
        #expect(layout.headers[0].frame == Rect(x: 10, y: 10, width: 380, height: 30))
        #expect(layout.rows[0].frame == Rect(x: 10, y: 40, width: 380, height: 40))
        #expect(layout.rows[2].frame.maxY == 160)
        #expect(layout.headers[1].frame.minY == 180)
        #expect(layout.rows[3].frame == Rect(x: 10, y: 210, width: 380, height: 50))
        #expect(layout.contentHeight == 270)
        #expect(layout.rows[0].position.roundedCorners == .top)
    }

    @Test func rowsGoToTheShortestColumn() {
        let layout = ListLayout(width: 420, sections: [ListSection(headerHeight: 0, rowHeights: [100, 30, 30, 30, 30, 30])],
                                metrics: ListMetrics(columns: 2, columnSpacing: 20, rowSpacing: 0, insets: 0))
        // The fifth 30 still fits beside the 100 (90 < 100); the sixth goes under the 100.
        #expect(layout.rows.map(\.column) == [0, 1, 1, 1, 1, 0])
        #expect(layout.rows.map(\.position) == [.top, .top, .middle, .middle, .bottom, .bottom])
        #expect(layout.rows[1].frame.minX == 220)
        #expect(layout.rows[5].frame.minY == 100)
    }

    static let sections = zip(Gen.double(in: 0...40), Gen.double(in: 10...120).array(of: 0...25))
        .map { ListSection(headerHeight: $0, rowHeights: $1) }
        .array(of: 1...6)

    /// Within a section, columns never differ by more than the tallest row (plus one gap).
    @Test func waterfallColumnsStayBalanced() async {
        await propertyCheck(count: 200, input: Self.sections, Gen.int(in: 1...5)) { sections, columns in
            let metrics = ListMetrics(columns: columns, rowSpacing: 4)
            let layout = ListLayout(width: 1000, sections: sections, metrics: metrics)
            for (s, section) in sections.enumerated() where !section.rowHeights.isEmpty {
                let rows = layout.rows.filter { $0.section == s }
                let top = layout.headers[s].frame.maxY
                var bottoms = Array(repeating: top, count: columns)
                for r in rows { bottoms[r.column] = max(bottoms[r.column], r.frame.maxY) }
                let tallest = section.rowHeights.max()!
                #expect(bottoms.max()! - bottoms.min()! <= tallest + metrics.rowSpacing + 1e-9)
            }
            // Reading order: tops never go up.
            #expect(zip(layout.rows, layout.rows.dropFirst()).allSatisfy { $0.frame.minY <= $1.frame.minY })
        }
    }

    /// Each row's position matches its neighbours from the same section in its column.
    @Test func positionsFollowRunsInColumns() async {
        await propertyCheck(count: 200, input: Self.sections, Gen.int(in: 1...4)) { sections, columns in
            let layout = ListLayout(width: 800, sections: sections, metrics: ListMetrics(columns: columns))
            for r in layout.rows {
                let run = layout.rows.filter { $0.section == r.section && $0.column == r.column }
                let i = run.firstIndex { $0.row == r.row }!
                let expected: RowPosition = run.count == 1 ? .single : i == 0 ? .top : i == run.count - 1 ? .bottom : .middle
                #expect(r.position == expected)
            }
        }
    }

    @Test func visibilityQueryMatchesBruteForce() async {
        await propertyCheck(count: 200, input: Self.sections, Gen.double(in: -100...3000), Gen.double(in: 1...800)) { sections, top, height in
            let layout = ListLayout(width: 800, sections: sections, metrics: ListMetrics(columns: 3))
            let found = Array(layout.visibleRowIndices(top: top, bottom: top + height))
            let brute = layout.rows.indices.filter { layout.rows[$0].frame.maxY > top && layout.rows[$0].frame.minY < top + height }
            #expect(found == brute)
            let headers = layout.visibleHeaders(top: top, bottom: top + height).map(\.section)
            let bruteHeaders = layout.headers.filter { $0.frame.maxY > top && $0.frame.minY < top + height }.map(\.section)
            #expect(headers == bruteHeaders)
        }
    }

    @Test func hitTestingFindsRowsAndHeaders() async {
        await propertyCheck(count: 200, input: Self.sections, Gen.double(in: 0...800), Gen.double(in: 0...3000)) { sections, x, y in
            let layout = ListLayout(width: 800, sections: sections, metrics: ListMetrics(columns: 2))
            let p = Point(x: x, y: y)
            let expected: ListElement? =
                layout.rows.first { $0.frame.contains(p) }.map { .row(section: $0.section, row: $0.row) }
                ?? layout.headers.first { $0.frame.contains(p) }.map { .header(section: $0.section) }
            #expect(layout.hitTest(p) == expected)
        }
    }

    @Test func revealingARowScrollsAsLittleAsNeeded() {
        let layout = ListLayout(width: 400, sections: [ListSection(headerHeight: 0, rowHeights: Array(repeating: 50, count: 40))],
                                metrics: ListMetrics(columns: 1, insets: 0))
        #expect(layout.offset(revealing: 2, from: 0, viewportHeight: 300) == 0)
        #expect(layout.offset(revealing: 10, from: 0, viewportHeight: 300, margin: 0) == 250)
        #expect(layout.offset(revealing: 1, from: 250, viewportHeight: 300, margin: 0) == 50)
        #expect(layout.offset(revealing: 39, from: 0, viewportHeight: 300, margin: 8) == layout.maximumOffset(viewportHeight: 300))
    }

    @Test func hostileSizesStayFinite() {
        let layout = ListLayout(width: .nan, sections: [ListSection(headerHeight: .infinity, rowHeights: [-5, .nan, 1e300])],
                                metrics: ListMetrics(columns: -3, columnSpacing: .nan, rowSpacing: -1, sectionSpacing: .infinity, insets: .nan))
        #expect(layout.contentHeight.isFinite)
        #expect(layout.rows.allSatisfy { $0.frame.origin.isFinite && $0.frame.size.height.isFinite })
    }
}
