import ArgumentParser
import Geometry
import LayoutCore

/// Prints what the layouts and the scrolling physics do for a scripted sequence of input,
/// so a person can see the behaviour without a device.
@main
struct LayoutDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-layout-demo",
        abstract: "Show the arc, dial and list layouts react to drags, flicks, taps and knob detents.",
        discussion: """
            The script is a space-separated list of steps, run in order; after each step the menu is \
            animated at 60 frames per second until it settles, and the visible rows are printed.
              drag:PX        move a finger PX pixels along the list (dial: degrees around the centre)
              flick:PX/S     a quick throw at PX pixels per second (dial: degrees per second)
              detent:N       N knob detents (negative turns back)
              tap:X,Y        tap at a screen point (selects the row there)
              wait:S         let S seconds pass
            Example: kiosk-layout-demo --style arc --items 12 --script "drag:-120 flick:-1500 detent:3 tap:560,100"
            """)

    enum Style: String, ExpressibleByArgument, CaseIterable { case arc, dial, list }

    @Option(help: "Layout style: arc, dial or list.") var style: Style = .arc
    @Option(help: "Number of items.") var items: Int = 12
    @Option(help: "Screen size as WIDTHxHEIGHT.") var size: String = "800x480"
    @Option(help: "Arc edge: left, right, top or bottom.") var edge: String = "right"
    @Option(help: "Arc radius ratio (horizontal radius / vertical radius).") var radiusRatio: Double = 0.6
    @Option(help: "Dial slots.") var slots: Int = 8
    @Option(help: "List columns.") var columns: Int = 2
    @Flag(inversion: .prefixedNo, help: "Wrap around after the last item (arc and dial).") var wrap: Bool = true
    @Option(help: "Steps to run (see below).") var script: String = "drag:-120 flick:-1500 detent:3 detent:-1 tap:560,100"

    var screen: Size {
        let parts = size.split(separator: "x").compactMap { Double($0) }
        return Size(width: parts[0], height: parts[1])
    }

    func validate() throws {
        let sides = size.split(separator: "x", omittingEmptySubsequences: false)
        let parts = sides.compactMap { Double($0) }
        guard sides.count == 2, parts.count == 2, parts.allSatisfy(\.isFinite) else {
            throw ValidationError("--size \"\(size)\" must look like 800x480 (WIDTHxHEIGHT)")
        }
        guard parts.allSatisfy({ $0 >= 16 && $0 <= 16384 }) else {
            throw ValidationError("--size \(size) is too " + (parts.contains { $0 > 16384 } ? "large" : "small") + ": each side must be 16...16384")
        }
        guard items >= 1 && items <= 10_000_000 else { throw ValidationError("--items must be 1...10000000") }
        guard ArcEdge(rawValue: edge) != nil else { throw ValidationError("--edge must be left, right, top or bottom") }
        guard slots >= 1, columns >= 1 else { throw ValidationError("--slots and --columns must be at least 1") }
        _ = try steps()
    }

    enum Step {
        case drag(Double), flick(Double), detent(Int), tap(Point), wait(Double)
    }

    func steps() throws -> [Step] {
        try script.split(separator: " ").map { word in
            let kv = word.split(separator: ":", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw ValidationError("script step '\(word)' has no ':'") }
            let bad = ValidationError("script step '\(word)' has a bad value")
            switch kv[0] {
            case "drag": guard let v = Double(kv[1]) else { throw bad }; return .drag(v)
            case "flick": guard let v = Double(kv[1]) else { throw bad }; return .flick(v)
            case "detent": guard let v = Int(kv[1]) else { throw bad }; return .detent(v)
            case "wait": guard let v = Double(kv[1]), v >= 0 else { throw bad }; return .wait(v)
            case "tap":
                let xy = kv[1].split(separator: ",").compactMap { Double($0) }
                guard xy.count == 2 else { throw bad }
                return .tap(Point(x: xy[0], y: xy[1]))
            default: throw ValidationError("unknown script step '\(kv[0])' (drag, flick, detent, tap, wait)")
            }
        }
    }

    func run() throws {
        var menu: any DemoMenu
        switch style {
        case .arc: menu = ArcDemo(screen: screen, edge: ArcEdge(rawValue: edge)!, ratio: radiusRatio, count: items, wrap: wrap)
        case .dial: menu = DialDemo(screen: screen, slots: slots, count: items, wrap: wrap)
        case .list: menu = ListDemo(screen: screen, columns: columns, count: items)
        }
        var clock = 0.0
        print("\(style.rawValue) menu, \(items) items, \(screen.width.formatted2)x\(screen.height.formatted2)\(wrap && style != .list ? ", wrapping" : "")")
        menu.printState(at: clock)
        for step in try steps() {
            print("\n> \(step)")
            menu.apply(step, clock: &clock)
            // Animate at 60 frames a second until everything rests.
            var frames = 0
            while menu.update(now: clock) {
                clock += 1.0 / 60
                frames += 1
            }
            print("  settled after \(frames) frames at t=\(clock.formatted2)s")
            menu.printState(at: clock)
        }
    }
}

/// The scripted finger: a straight movement in 16 ms steps.
func fingerPath(total: Double, duration: Double) -> [Double] {
    let n = max(1, Int((duration / 0.016).rounded()))
    return Array(repeating: total / Double(n), count: n)
}

/// A menu that one `Scroller` moves. The script steps drive every menu the same way; each
/// menu says only what a finger's movement, a knob detent and a tap mean to it.
protocol DemoMenu {
    var scroller: Scroller { get set }
    /// Called as the finger lands, before the first `scrollAmount(forFinger:)`.
    mutating func fingerDown()
    /// What the scroller moves for one 16 ms piece of the finger's movement (`d` is pixels,
    /// degrees on the dial).
    mutating func scrollAmount(forFinger d: Double) -> Double
    /// Called as the finger lifts.
    mutating func fingerUp()
    mutating func detents(_ n: Int, clock: Double)
    mutating func tap(_ p: Point, clock: Double)
    func printState(at now: Double)
}

extension DemoMenu {
    mutating func fingerDown() {}
    mutating func fingerUp() {}

    mutating func apply(_ step: LayoutDemo.Step, clock: inout Double) {
        switch step {
        case .drag(let amount), .flick(let amount):
            let (total, duration): (Double, Double)
            if case .flick = step { (total, duration) = (amount * 0.1, 0.1) } else { (total, duration) = (amount, 0.4) }
            fingerDown()
            scroller.beginDrag(at: clock)
            for d in fingerPath(total: total, duration: duration) {
                clock += 0.016
                scroller.drag(by: scrollAmount(forFinger: d), at: clock)
            }
            fingerUp()
            if case .drag = step { clock += 0.2 }  // the finger rests before lifting
            scroller.endDrag(at: clock)
        case .detent(let n): detents(n, clock: clock)
        case .tap(let p): tap(p, clock: clock)
        case .wait(let s): clock += s
        }
    }

    /// Runs the scroller one frame; true while it still moves.
    mutating func update(now: Double) -> Bool { scroller.update(now: now) }
}

/// The arc and the dial: items on a curve, where a detent moves one item and a tap scrolls
/// to the item it hits. They differ in what stands where.
protocol CurveDemoMenu: DemoMenu {
    /// The item under a screen point, if any: its content index and unbounded number.
    func item(at p: Point) -> (index: Int, item: Int)?
    /// The unbounded item that counts as selected at `offset`.
    func selectedItem(at offset: ScrollOffset) -> Int
    /// The items on screen at `offset`: content index, unbounded number and how to print the rest.
    func visibleItems(at offset: ScrollOffset) -> [(index: Int, item: Int, description: String)]
}

extension CurveDemoMenu {
    mutating func detents(_ n: Int, clock: Double) { scroller.detents(n, at: clock) }

    mutating func tap(_ p: Point, clock: Double) {
        if let hit = item(at: p) {
            print("  tap hits item \(hit.index)")
            scroller.scroll(toItem: hit.item, at: clock)
        } else {
            print("  tap hits nothing")
        }
    }

    func printState(at now: Double) {
        let offset = scroller.position
        print("  offset \(offset)  selected item \(scroller.domain.contentIndex(selectedItem(at: offset)) ?? -1)")
        for (index, item, description) in visibleItems(at: offset) {
            let mark = item == offset.nearestItem ? "▶" : " "
            print("  \(mark) item \(index)\t\(description)")
        }
    }
}

struct ArcDemo: CurveDemoMenu {
    let layout: ArcLayout
    var scroller: Scroller

    init(screen: Size, edge: ArcEdge, ratio: Double, count: Int, wrap: Bool) {
        let along = edge.isVertical ? screen.height : screen.width
        let across = edge.isVertical ? screen.width : screen.height
        layout = ArcLayout(viewport: Rect(origin: .zero, size: screen), edge: edge, pitch: along / 9,
                           rowLength: 0.25 * across, radiusRatio: ratio)
        scroller = Scroller(domain: wrap ? .wrapping(period: count) : .clamped(count: count))
    }

    func scrollAmount(forFinger d: Double) -> Double {
        layout.items(forDrag: layout.edge.isVertical ? Point(x: 0, y: d) : Point(x: d, y: 0))
    }

    func item(at p: Point) -> (index: Int, item: Int)? {
        layout.hitTest(p, at: scroller.position, domain: scroller.domain).map { ($0.index, $0.item) }
    }

    func selectedItem(at offset: ScrollOffset) -> Int { layout.apexItem(at: offset) }

    func visibleItems(at offset: ScrollOffset) -> [(index: Int, item: Int, description: String)] {
        layout.visibleRows(at: offset, domain: scroller.domain).map { row in
            (row.index, row.item, "centre \(row.center)\tangle \(row.angle.normalized)\tfrom apex \(row.distanceFromApex.formatted2)")
        }
    }
}

struct DialDemo: CurveDemoMenu {
    let layout: DialLayout
    let count: Int
    var scroller: Scroller
    var tracker: RotaryTracker
    /// Where the scripted finger is on the dial's rim; each gesture starts at the top.
    var fingerAngle = Angle(degrees: -90)

    init(screen: Size, slots: Int, count: Int, wrap: Bool) {
        let r = min(screen.width, screen.height) * 0.38
        let c = Point(x: screen.width / 2, y: screen.height / 2)
        layout = DialLayout(center: c, radius: r, slots: slots)
        self.count = count
        scroller = Scroller(domain: wrap ? .wrapping(period: count) : .clamped(count: count))
        tracker = RotaryTracker(center: c, deadZoneRadius: r * 0.2)
    }

    var fingerPoint: Point {
        Point(x: layout.center.x + layout.radius * fingerAngle.cos, y: layout.center.y + layout.radius * fingerAngle.sin)
    }

    mutating func fingerDown() {
        fingerAngle = Angle(degrees: -90)
        tracker.begin(at: fingerPoint)
    }

    /// A finger on the dial's rim turning `d` degrees around its centre.
    mutating func scrollAmount(forFinger d: Double) -> Double {
        fingerAngle = fingerAngle + Angle(degrees: d)
        return layout.items(forRotation: tracker.move(to: fingerPoint), count: count)
    }

    mutating func fingerUp() { tracker.end() }

    func item(at p: Point) -> (index: Int, item: Int)? {
        layout.hitTest(p, at: scroller.position, domain: scroller.domain, count: count).map { ($0.index, $0.item) }
    }

    func selectedItem(at offset: ScrollOffset) -> Int { layout.selectedItem(at: offset) }

    func visibleItems(at offset: ScrollOffset) -> [(index: Int, item: Int, description: String)] {
        layout.visibleItems(at: offset, domain: scroller.domain, count: count).map { item in
            (item.index, item.item, "slot \(item.slot)\tcentre \(item.center)\tangle \(item.angle.normalized)")
        }
    }
}

struct ListDemo: DemoMenu {
    let layout: ListLayout
    let viewportHeight: Double
    var scroller: Scroller
    var focus = 0

    init(screen: Size, columns: Int, count: Int) {
        // Sections of up to 5 rows with varied heights, to show the waterfall.
        var sections: [ListSection] = []
        var left = count
        while left > 0 {
            let n = min(5, left)
            sections.append(ListSection(headerHeight: 32, rowHeights: (0..<n).map { 48 + Double(($0 * 7 + sections.count * 3) % 4) * 16 }))
            left -= n
        }
        layout = ListLayout(width: screen.width, sections: sections, metrics: ListMetrics(columns: columns, rowSpacing: 2))
        viewportHeight = screen.height
        let maxOffset = Int(layout.maximumOffset(viewportHeight: screen.height).rounded(.up))
        scroller = Scroller(domain: .bounded(lower: 0, upper: maxOffset), physics: .pixels)
    }

    func scrollAmount(forFinger d: Double) -> Double { -d }  // content follows the finger

    /// The knob moves the focus ring in reading order and scrolls to keep it in view.
    mutating func detents(_ n: Int, clock: Double) {
        focus = max(0, min(layout.rows.count - 1, focus + n))
        let target = layout.offset(revealing: focus, from: scroller.restingPosition.approximateValue, viewportHeight: viewportHeight)
        scroller.scroll(toItem: Int(target.rounded()), at: clock)
    }

    mutating func tap(_ p: Point, clock: Double) {
        let content = Point(x: p.x, y: p.y + scroller.position.approximateValue)
        switch layout.hitTest(content) {
        case .row(let s, let r)?: print("  tap hits section \(s) row \(r)")
        case .header(let s)?: print("  tap hits header of section \(s)")
        case nil: print("  tap hits nothing")
        }
    }

    func printState(at now: Double) {
        let top = scroller.position.approximateValue
        print("  scrolled \(top.formatted2) px of \(layout.maximumOffset(viewportHeight: viewportHeight).formatted2)  focus row #\(focus)")
        for h in layout.visibleHeaders(top: top, bottom: top + viewportHeight) {
            print("    header \(h.section)\ty \((h.frame.minY - top).formatted2)")
        }
        for i in layout.visibleRowIndices(top: top, bottom: top + viewportHeight) {
            let r = layout.rows[i]
            let mark = i == focus ? "▶" : " "
            print("  \(mark) section \(r.section) row \(r.row)\tcolumn \(r.column)\t\(r.position.rawValue)\tframe \(r.frame.offsetBy(dx: 0, dy: -top))")
        }
    }
}
