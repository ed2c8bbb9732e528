import Geometry
import KioskConfiguration
import KioskSystem
import MenuScreens
import Raster
import Text
import ReferenceScene
import Kiosk
#if canImport(Glibc)
import Glibc
#endif

/// Scene S1 (DESIGN.md §5) at 800x480 and 1920x1080 for each pattern: median ms per frame over
/// `rasterFrames` frames, one line per case `s1 <pattern> <W>x<H> <a|b|c> <median-ms> <ratio-to-memcpy>`,
/// where the memcpy is one copy of the whole frame measured in the same run.
/// `--png DIR` (or KIOSK_BENCH_PNG=DIR) also writes each full frame to DIR/s1-<pattern>-<W>x<H>.png
/// (DIR is created if missing).
func runRasterBenchmarks() {
    let args = CommandLine.arguments
    var pngDirectory: String? = getenv("KIOSK_BENCH_PNG").map { String(cString: $0) }
    if let i = args.firstIndex(of: "--png"), i + 1 < args.count { pngDirectory = args[i + 1] }
    if let dir = pngDirectory {
        // Created if missing (mkdir -p), rather than failing at the first frame in libpng's words.
        do { try PNGCodec.createFolder(dir) } catch {
            print("kiosk-bench: --png: \(error)")
            exit(1)
        }
    }
    print("# s1 <pattern> <W>x<H> <a|b|c> <median-ms> <ratio-to-memcpy>; median of \(rasterFrames) frames each;")
    print("# the ratio is to the median of \(rasterFrames) frame memcpys measured just before the case")
    print("# a = full frame, b = background only, c = scroll step as the kiosk does it: the damaged rectangles")
    print("# (rows at the old and new offset, merged by DamageRegion) restored from the cached background, then the menu;")
    print("# c-full = the same step restoring the whole background first; c-fresh = (c) at offsets that do not repeat")
    print("# (0.173 px apart), so that plates and labels are seldom at a place the caches have seen")
    print("# transition <push|fade> <W>x<H> <mid|first> <median-ms> <ratio-to-memcpy>: a kiosk frame half way through opening a")
    print("# screen; first = a transition's first frame (opening or leaving the screen, both pictures drawn), median of 60")
    for (w, h) in [(800, 480), (1920, 1080)] {
        do {
            try benchmarkSize(width: w, height: h, pngDirectory: pngDirectory)
        } catch {
            print("s1 \(w)x\(h): \(error)")
        }
    }
}

let rasterFrames = 300

/// Median wall time of `frames` runs of `body`, each timed alone, in milliseconds.
func medianMilliseconds(frames: Int = rasterFrames, _ body: (Int) -> Void) -> Double {
    for i in 0..<5 { body(i) }   // warm caches and the glyph cache
    var samples: [Double] = []
    samples.reserveCapacity(frames)
    for i in 0..<frames {
        let t0 = BenchClock.nowNanoseconds()
        body(i)
        samples.append(Double(BenchClock.nowNanoseconds() - t0) / 1e6)
    }
    samples.sort()
    return samples[samples.count / 2]
}

func fixed3(_ v: Double) -> String {
    let scaled = Int((v * 1000).rounded())
    let frac = scaled % 1000
    return "\(scaled / 1000)." + (frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)")
}

func benchmarkSize(width: Int, height: Int, pngDirectory: String?) throws {
    let source = try PixelBuffer(width: width, height: height)
    let copy = try PixelBuffer(width: width, height: height)
    // A real frame to copy: never-written (calloc'd) memory would be read from the kernel's
    // shared zero page, which sits in L1 and flatters the memcpy.
    try ReferenceScene(width: width, height: height, pattern: .circles).render(on: Canvas(source))
    Canvas(copy).clear(.black)
    // One memcpy of the whole frame (both strides are width*4, so copyRows is a single copyMemory).
    let memcpyMs = medianMilliseconds { _ in copy.copyRows(from: source, rect: copy.bounds) }
    print("memcpy \(width)x\(height) \(fixed3(memcpyMs)) 1.000")
    for pattern in ScenePattern.allCases {
        let scene = try ReferenceScene(width: width, height: height, pattern: pattern)
        let frame = try scene.makeFrame()
        let shadow = try scene.makeFrame()
        let canvas = Canvas(frame)
        scene.drawBackground(on: Canvas(shadow))
        // The memcpy is measured again right before each case: the host's other tenants share its
        // memory bandwidth and L3 and swing figures taken seconds apart.
        func line(_ kind: String, _ body: (Int) -> Void) {
            let memcpyNow = medianMilliseconds { _ in copy.copyRows(from: source, rect: copy.bounds) }
            let ms = medianMilliseconds(body)
            print("s1 \(pattern.rawValue) \(width)x\(height) \(kind) \(fixed3(ms)) \(fixed3(ms / memcpyNow))")
        }
        line("a") { _ in scene.render(on: canvas) }
        line("b") { _ in scene.drawBackground(on: canvas) }
        let stepper = ScrollStepper(scene, frame: frame, shadow: shadow)
        line("c") { i in stepper.step(i) }
        let fresh = ScrollStepper(scene, frame: frame, shadow: shadow)
        fresh.offsetOfStep = { Double($0) * 0.173 }
        line("c-fresh") { i in fresh.step(i) }
        line("c-full") { i in
            frame.copyRows(from: shadow, rect: frame.bounds)
            scene.drawMenu(on: canvas, offset: Double(i % 16) * 0.5)
        }
        if let dir = pngDirectory {
            scene.render(on: canvas)
            try PNGCodec.write(frame, to: "\(dir)/s1-\(pattern.rawValue)-\(width)x\(height).png")
        }
        blackHole(canvas.target)
    }
    try benchmarkTransitions(width: width, height: height) { medianMilliseconds { _ in copy.copyRows(from: source, rect: copy.bounds) } }
    try benchmarkArcScreen(width: width, height: height)
    if width == 1920 { try printMenuParts(width: width, height: height) }
}

/// Where the menu's time goes at this size, as comment lines: the fastest of 300 frames of each part
/// (the minimum rather than the median, so that parts measured moments apart compare under load).
func printMenuParts(width: Int, height: Int) throws {
    let scene = try ReferenceScene(width: width, height: height, pattern: .checker)
    let frame = try scene.makeFrame()
    let canvas = Canvas(frame)
    scene.drawBackground(on: canvas)
    let rects = (0..<9).compactMap { scene.rowRect($0, offset: 0.25) }
    let textSize = 0.4 * Double(height) / 9
    let metrics = scene.font.lineMetrics(size: textSize)
    func fastest(_ body: () -> Void) -> Double {
        for _ in 0..<5 { body() }
        var best = Double.infinity
        for _ in 0..<rasterFrames {
            let t0 = BenchClock.nowNanoseconds()
            body()
            best = Swift.min(best, Double(BenchClock.nowNanoseconds() - t0) / 1e6)
        }
        return best
    }
    let fill = Color(rgb: 0x202833)
    let parts: [(String, Double)] = [
        ("menu", fastest { scene.drawMenu(on: canvas, offset: 0.25) }),
        ("rounded-rows", fastest { for r in rects { canvas.fill(r, radii: CornerRadii(all: r.height / 4), color: fill, opacity: 0.85) } }),
        ("square-rows", fastest { for r in rects { canvas.fill(r, color: fill, opacity: 0.85) } }),
        ("outline", fastest { canvas.stroke(rects[4], radii: CornerRadii(all: rects[4].height / 4), width: 2, color: .white) }),
        ("labels", fastest { for (i, r) in rects.enumerated() {
            canvas.drawText("Item \(i)", font: scene.font, size: textSize, at: Point(x: r.minX + 0.1 * r.width, y: r.midY + (metrics.ascent - metrics.descent) / 2),
                            color: .white, maxWidth: 0.8 * r.width)
        } }),
    ]
    print("# menu parts \(width)x\(height), fastest of \(rasterFrames) (ms): " + parts.map { "\($0.0) \(fixed3($0.1))" }.joined(separator: ", "))
}

/// A transition frame as the kiosk draws it, half way through: an S1-like arc screen opening a
/// list screen (`push`, about a copy of the frame) and the same change as a cross-fade (`fade`, every
/// pixel mixed: the two screens differ almost everywhere). Printed as
/// `transition <push|fade> <W>x<H> mid <median-ms> <ratio-to-memcpy>`, then the first frame of a
/// transition (`first`: the screen opened or left, both pictures drawn whole), alternately
/// opening and leaving; `none first` is that change of screen with no transition, for scale.
func benchmarkTransitions(width: Int, height: Int, memcpyMs: () -> Double) throws {
    // The kiosk's info lines ("selected item 0") would add a write to stderr to every frame timed.
    Log.threshold = .warning
    defer { Log.threshold = .info }
    for style in [TransitionStyle.slide, .fade, .none] {
        let items = (0..<12).map { MenuItem(label: "Item \($0)", action: $0 == 0 ? .screen("next") : .back) }
        let background = BackgroundConfig(pattern: .circles, cell: 32, foreground: .black, background: .white)
        let home = ScreenConfig(name: "home", title: "Home", layout: .arc(ArcStyle(wrap: true)), background: background,
                                sections: [MenuSection(items: items)])
        let next = ScreenConfig(name: "next", title: "Next", layout: .list(ListStyle(columns: 2)), background: background,
                                sections: [MenuSection(title: "Things", items: items)])
        let config = KioskConfig(background: background, home: "home", screens: [home, next], statusFile: "", transition: style)
        let (app, canvas) = try appShowingItsFirstFrame(config, width: width, height: height)
        app.handle(.command(.select, count: 1), now: 0.1)
        _ = app.advance(now: 0.1)
        _ = app.draw(on: canvas, full: false)  // the transition's first frame
        app.frameTaken()
        let mid = 0.1 + ScreenTransition.duration / 2
        _ = app.advance(now: mid)
        let kind = app.currentTransition.map { "\($0.kind)" } ?? "none"
        if app.currentTransition != nil {
            let copyMs = memcpyMs()
            let ms = medianMilliseconds { _ in _ = app.draw(on: canvas, full: false) }
            print("transition \(kind) \(width)x\(height) mid \(fixed3(ms)) \(fixed3(ms / copyMs))")
        }
        // The first frame: the change of screen (back, or opening it again: the screen is built)
        // and the transition's two pictures drawn whole, then its frame.
        var now = mid
        let firstMs = medianMilliseconds(frames: 60) { i in
            now += 1
            app.handle(.command(i % 2 == 0 ? .back : .select, count: 1), now: now)
            _ = app.advance(now: now)
            _ = app.draw(on: canvas, full: false)
            app.frameTaken()
        }
        print("transition \(kind) \(width)x\(height) first \(fixed3(firstMs)) \(fixed3(firstMs / memcpyMs()))")
        blackHole(canvas.target)
    }
}

/// `kiosk-bench --s1-frames WxH a|c|c-fresh N [plain]`: draws N frames of scene S1 (checker) and
/// nothing else, for `valgrind --tool=callgrind`: the instructions of one frame are the difference
/// of two such runs divided by the difference of their N. `plain` draws without the plate and label
/// caches (the drawing before them).
func runS1Frames(_ args: [String]) {
    let size = args.first?.split(separator: "x").compactMap { Int($0) } ?? []
    guard args.count >= 3, size.count == 2, let n = Int(args[2]), ["a", "c", "c-fresh"].contains(args[1]) else {
        print("usage: kiosk-bench --s1-frames WxH a|c|c-fresh N [plain]")
        exit(2)
    }
    do {
        let scene = try ReferenceScene(width: size[0], height: size[1], pattern: .checker, cached: !args.dropFirst(3).contains("plain"))
        let frame = try scene.makeFrame(), shadow = try scene.makeFrame()
        scene.drawBackground(on: Canvas(shadow))
        let canvas = Canvas(frame)
        let stepper = ScrollStepper(scene, frame: frame, shadow: shadow)
        if args[1] == "c-fresh" { stepper.offsetOfStep = { Double($0) * 0.173 } }
        for i in 0..<n {
            if args[1] == "a" { scene.render(on: canvas) } else { stepper.step(i) }
        }
        blackHole(canvas.target)
        if let plates = scene.plates, let labels = scene.labelCache {
            print("recorded: \(plates.recordedCount) plates (\(plates.byteCount) bytes held), \(labels.recordedCount) labels (\(labels.byteCount) bytes held)")
        }
    } catch {
        print("kiosk-bench: \(error)")
        exit(1)
    }
}

/// The kiosk's own arc screen (right edge, 12 items with descriptions) scrolling one item per
/// knob detent, with and without its side panel: a frame of the animation (the panel is neither
/// damaged nor drawn while the menu moves) and the frame where it settles (the panel drawn).
/// Printed as `arc-screen <W>x<H> side_panel=<on|off> <scroll|settle> <median-ms>`.
func benchmarkArcScreen(width: Int, height: Int) throws {
    Log.threshold = .warning
    defer { Log.threshold = .info }
    for panel in [true, false] {
        let items = (0..<12).map {
            MenuItem(label: "Item \($0)", action: .back, description: "What item \($0) does, in a sentence long enough to wrap twice.")
        }
        let background = BackgroundConfig(pattern: .checker, cell: 32, foreground: .black, background: .white)
        let home = ScreenConfig(name: "home", title: "Home", layout: .arc(ArcStyle(wrap: true, sidePanel: panel)), background: background,
                                sections: [MenuSection(items: items)])
        let config = KioskConfig(background: background, home: "home", screens: [home], statusFile: "")
        let (app, canvas) = try appShowingItsFirstFrame(config, width: width, height: height)
        var now = 0.0
        // One detent, then frames 16 ms apart until it rests: the mid-animation frames are "scroll",
        // the last one "settle".
        var scroll: [Double] = [], settle: [Double] = []
        for step in 0..<(rasterFrames / 8) {
            now += 1
            app.handle(.command(.next, count: 1), now: now)
            var t = now
            while true {
                _ = app.advance(now: t)
                let moving = app.isAnimating
                let start = BenchClock.nowNanoseconds()
                _ = app.draw(on: canvas, full: false)
                let ms = Double(BenchClock.nowNanoseconds() - start) / 1e6
                app.frameTaken()
                if step >= 2 { if moving { scroll.append(ms) } else { settle.append(ms) } }
                if !moving { break }
                t += 0.016
            }
        }
        func median(_ v: [Double]) -> Double { v.isEmpty ? .nan : v.sorted()[v.count / 2] }
        let name = "arc-screen \(width)x\(height) side_panel=\(panel ? "on" : "off")"
        print("\(name) scroll \(fixed3(median(scroll)))")
        print("\(name) settle \(fixed3(median(settle)))")
        blackHole(canvas.target)
    }
}

/// An app for `config` with its first full frame drawn and taken: where the timed frames start.
private func appShowingItsFirstFrame(_ config: KioskConfig, width: Int, height: Int) throws -> (KioskApp, Canvas) {
    let app = try KioskApp(config: config, width: width, height: height, now: 0)
    let canvas = Canvas(try PixelBuffer(width: width, height: height))
    _ = app.advance(now: 0)
    _ = app.draw(on: canvas, full: true)
    app.frameTaken()
    return (app, canvas)
}
