import Geometry
import LayoutCore

/// Per-frame layout cost must not grow with the number of items: the same work for 10 and 100,000.
func runLayoutBenchmarks() {
    let screen = Rect(x: 0, y: 0, width: 800, height: 480)
    let arc = ArcLayout(viewport: screen, edge: .right, pitch: 480.0 / 9, rowLength: 152, radiusRatio: 0.6)
    let dial = DialLayout(center: Point(x: 400, y: 240), radius: 180, slots: 12)

    for count in [10, 100_000] {
        let domain = ScrollDomain.wrapping(period: count)
        // A moving offset, as during an animation; starting deep into the list for the big one.
        var offset = ScrollOffset(whole: count / 2, fraction: 0.1)
        let arcFigure = BenchClock.measure {
            var sum = 0.0
            arc.forEachVisibleRow(at: offset, domain: domain) { sum += $0.center.x }
            blackHole(sum)
            offset += 0.013
        }
        report("arc: visible rows, \(count) items", arcFigure)

        let dialFigure = BenchClock.measure {
            blackHole(dial.visibleItems(at: offset, domain: domain, count: count).count)
            offset += 0.013
        }
        report("dial: visible items, \(count) items", dialFigure)

        var scroller = Scroller(domain: domain, position: ScrollOffset(whole: count / 2))
        var now = 0.0
        let physicsFigure = BenchClock.measure {
            if !scroller.isAnimating { scroller.fling(velocity: 30, at: now) }
            now += 1.0 / 60
            scroller.update(now: now)
            blackHole(scroller.position)
        }
        report("scroller: one animation frame, \(count) items", physicsFigure)
    }

    for count in [10, 100_000] {
        let sections = stride(from: 0, to: count, by: 8).map { start in
            ListSection(headerHeight: 32, rowHeights: (start..<min(count, start + 8)).map { 48 + Double($0 % 3) * 16 })
        }
        let t0 = BenchClock.nowNanoseconds()
        let list = ListLayout(width: 800, sections: sections, metrics: ListMetrics(columns: 3))
        let buildNanoseconds = Double(BenchClock.nowNanoseconds() - t0)
        print("  list: layout of \(count) rows (once per content change)".padded(52) + formatNanoseconds(buildNanoseconds))
        var top = 0.0
        let maxTop = list.maximumOffset(viewportHeight: 480)
        let queryFigure = BenchClock.measure {
            var n = 0
            for i in list.visibleRowIndices(top: top, bottom: top + 480) { n &+= list.rows[i].row }
            n &+= list.visibleHeaders(top: top, bottom: top + 480).count
            blackHole(n)
            top += 7.3
            if top > maxTop { top = 0 }
        }
        report("list: visible rows per frame, \(count) rows", queryFigure)
    }
}

func report(_ name: String, _ figure: BenchClock.Figure, suffix: String = "") {
    print("  \(name)".padded(52) + "\(formatNanoseconds(figure.medianNanoseconds)) median, \(formatNanoseconds(figure.minNanoseconds)) min" + suffix)
}

extension String {
    func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
