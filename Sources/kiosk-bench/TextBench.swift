import CFontconfig
import Geometry
import Raster
import ReferenceScene
import Text
#if canImport(Glibc)
import Glibc
#endif

// Text benchmarks: scene S1 with its Latin labels side by side with complex-script labels of about
// the same visual length, and the start-up cost of text (fontconfig, fallback faces, first shaping).

/// S1's own labels, as an explicit list so that both sides of a comparison take the same path.
let latinLabels = (0..<9).map { "Item \($0)" }

/// The complex-script label sets: one script for all nine rows, then the three scripts mixed row by
/// row, then colour emoji with Latin (an extra: emoji are scaled colour bitmaps, not coverage).
let complexLabelSets: [(name: String, labels: [String])] = [
    ("arabic", (0..<9).map { "قهوة \($0)" }),
    ("devanagari", (0..<9).map { "कॉफ़ी \($0)" }),
    ("cjk", (0..<9).map { "咖啡 \($0)" }),
    ("mixed", (0..<9).map { ["قهوة", "कॉफ़ी", "咖啡"][$0 % 3] + " \($0)" }),
    ("emoji", (0..<9).map { "☕ Item \($0)" }),
]

/// `text <set> <W>x<H> <a|c|labels> <latin-ms> <complex-ms> <complex/latin> <latin/memcpy> <complex/memcpy>`.
func runTextBenchmarks() {
    print("# text <set> <W>x<H> <a|c|labels> <latin-ms> <complex-ms> <complex/latin> <latin/memcpy> <complex/memcpy>")
    print("# S1 (checker) with labels 'Item N' against the set's labels; \(rasterFrames) frames of each, timed one by one")
    print("# and alternating Latin/complex (so both see the same load) after 5 warm-up frames of each: steady state,")
    print("# caches warm. a = full frame, c = one scroll step (damaged rows restored from the cached background, then")
    print("# the menu), labels = the nine drawText calls alone. memcpy = one full-frame copy, measured just before.")
    print("# Sets: arabic 'قهوة N', devanagari 'कॉफ़ी N', cjk '咖啡 N' (one script per frame), mixed (the three")
    print("# by row), emoji '☕ Item N'. 'steady' counts glyphs rasterized and strings shaped during the timed frames.")
    for (w, h) in [(800, 480), (1920, 1080)] {
        do {
            try textBenchmarkSize(width: w, height: h)
        } catch {
            print("text \(w)x\(h): \(error)")
        }
    }
}

/// Median milliseconds of `latin` and `complex`, `frames` calls each, timed one by one in
/// alternation (the order swapped every pair), after `warmUp` untimed calls of each.
func pairedMedianMilliseconds(frames: Int = rasterFrames, warmUp: Int = 5, _ latin: (Int) -> Void, _ complex: (Int) -> Void)
    -> (latin: Double, complex: Double)
{
    for i in 0..<warmUp { latin(i); complex(i) }
    var a: [Double] = [], b: [Double] = []
    a.reserveCapacity(frames)
    b.reserveCapacity(frames)
    func timed(_ body: (Int) -> Void, _ i: Int) -> Double {
        let t0 = BenchClock.nowNanoseconds()
        body(i)
        return Double(BenchClock.nowNanoseconds() - t0) / 1e6
    }
    for i in 0..<frames {
        if i & 1 == 0 {
            a.append(timed(latin, i)); b.append(timed(complex, i))
        } else {
            b.append(timed(complex, i)); a.append(timed(latin, i))
        }
    }
    a.sort(); b.sort()
    return (a[a.count / 2], b[b.count / 2])
}

/// One scroll step of S1 as the kiosk draws it (the same as the raster suite's case c).
final class ScrollStepper {
    let scene: ReferenceScene
    let frame: PixelBuffer
    let shadow: PixelBuffer
    let canvas: Canvas
    private var damage = DamageRegion()
    private var previous = 0.0
    /// The menu's offset at step `i`: by default 16 half-pixel steps, over and over.
    var offsetOfStep: (Int) -> Double = { Double($0 % 16) * 0.5 }

    /// Draws into `frame`, restoring from `shadow` (the scene's background): both sides of a
    /// comparison share one pair, so that they see the same memory and caches (their rows are at
    /// the same places, so each step's damage also covers the other's labels).
    init(_ scene: ReferenceScene, frame: PixelBuffer, shadow: PixelBuffer) {
        self.scene = scene
        self.frame = frame
        self.shadow = shadow
        canvas = Canvas(frame)
    }

    func step(_ i: Int) {
        let offset = offsetOfStep(i)
        damage.removeAll()
        for k in 0..<9 {
            for o in [previous, offset] {
                if let r = scene.rowRect(k, offset: o) { damage.add(PixelRect(covering: r.insetBy(dx: -2, dy: -2)), within: frame.bounds) }
            }
        }
        for r in damage.rects { frame.copyRows(from: shadow, rect: r) }
        scene.drawMenu(on: canvas, offset: offset)
        previous = offset
    }

    /// The nine labels alone, placed as `drawMenu` places them at offset 0.
    func labels() {
        let textSize = 0.4 * Double(scene.height) / 9
        let metrics = scene.font.lineMetrics(size: textSize)
        for i in 0..<9 {
            guard let r = scene.rowRect(i) else { continue }
            let label = scene.labels.map { $0[i % $0.count] } ?? "Item \(i)"
            canvas.drawText(label, font: scene.font, size: textSize,
                            at: Point(x: r.minX + 0.1 * r.width, y: r.midY + (metrics.ascent - metrics.descent) / 2),
                            color: .white, maxWidth: 0.8 * r.width)
        }
    }

    /// Glyphs rasterized and strings shaped so far, to show that timed frames add none.
    var work: (glyphs: Int, shapes: Int) { (scene.font.rasterizedGlyphCount, scene.font.cachedLayoutCount) }
}

func textBenchmarkSize(width: Int, height: Int) throws {
    let source = try PixelBuffer(width: width, height: height)
    let copy = try PixelBuffer(width: width, height: height)
    try ReferenceScene(width: width, height: height, pattern: .circles).render(on: Canvas(source))
    Canvas(copy).clear(.black)
    let textSize = 0.4 * Double(height) / 9
    let latinScene = try ReferenceScene(width: width, height: height, pattern: .checker, labels: latinLabels)
    let frame = try latinScene.makeFrame()
    let shadow = try latinScene.makeFrame()
    latinScene.drawBackground(on: Canvas(shadow))
    latinScene.render(on: Canvas(frame))
    let latin = ScrollStepper(latinScene, frame: frame, shadow: shadow)
    var widths = ["latin \(latin.scene.font.measure(latinLabels[0], size: textSize).formatted2)"]
    for set in complexLabelSets {
        let complex = try ScrollStepper(ReferenceScene(width: width, height: height, pattern: .checker, labels: set.labels),
                                        frame: frame, shadow: shadow)
        widths.append("\(set.name) \(complex.scene.font.measure(set.labels[0], size: textSize).formatted2)")
        complex.scene.render(on: complex.canvas)   // the first frame: shapes and glyphs cached from here on
        let before = (latin.work, complex.work)
        func line(_ kind: String, _ latinBody: (Int) -> Void, _ complexBody: (Int) -> Void) {
            let memcpyNow = medianMilliseconds { _ in copy.copyRows(from: source, rect: copy.bounds) }
            let (l, c) = pairedMedianMilliseconds(latinBody, complexBody)
            print("text \(set.name) \(width)x\(height) \(kind) \(fixed3(l)) \(fixed3(c)) \(fixed3(c / l)) \(fixed3(l / memcpyNow)) \(fixed3(c / memcpyNow))")
        }
        line("a", { _ in latin.scene.render(on: latin.canvas) }, { _ in complex.scene.render(on: complex.canvas) })
        line("c", latin.step, complex.step)
        line("labels", { _ in latin.labels() }, { _ in complex.labels() })
        let after = (latin.work, complex.work)
        print("# steady \(set.name) \(width)x\(height): latin +\(after.0.glyphs - before.0.glyphs) glyphs +\(after.0.shapes - before.0.shapes) shapes, "
              + "\(set.name) +\(after.1.glyphs - before.1.glyphs) glyphs +\(after.1.shapes - before.1.shapes) shapes; "
              + "faces \(complex.scene.font.facePaths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", "))")
    }
    print("# label widths at \(textSize.formatted2) px (label 0): " + widths.joined(separator: ", "))
}

// MARK: Start-up

/// The start-up cost of text, measured in fresh processes (this program run again with
/// `--text-startup-once`): each figure's median, minimum and maximum over `runs` processes.
func runTextStartupBenchmarks() {
    let runs = 9
    var exe = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &exe, exe.count - 1)
    guard n > 0 else { print("text-startup: cannot find this program"); return }
    let path = String(decoding: exe[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var order: [String] = []
    var values: [String: [Double]] = [:]
    var notes: [String] = []
    for _ in 0..<runs {
        guard let pipe = popen("'\(path)' --text-startup-once", "r") else { print("text-startup: popen failed"); return }
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            let end = buffer.firstIndex(of: 0) ?? buffer.count
            let line = String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingNewline
            let parts = line.split(separator: " ")
            if parts.count == 2, let v = Double(parts[1]) {
                let key = String(parts[0])
                if values[key] == nil { order.append(key) }
                values[key, default: []].append(v)
            } else if !notes.contains(line) {
                notes.append(line)
            }
        }
        pclose(pipe)
    }
    print("# text start-up <what> <median> (min–max) over \(runs) fresh processes; fontconfig's on-disk cache as found")
    for note in notes { print("# " + note) }
    for key in order {
        let s = values[key]!.sorted()
        func t(_ ms: Double) -> String { formatNanoseconds(ms * 1e6) }
        print("startup \(key)".padded(44) + "\(t(s[s.count / 2])) (\(t(s[0]))–\(t(s[s.count - 1])))")
    }
}

/// One process's start-up figures, `name milliseconds` per line (unrounded) (the parent takes medians).
func runTextStartupOnce() {
    func ms(_ body: () throws -> Void) rethrows -> Double {
        let t0 = BenchClock.nowNanoseconds()
        try body()
        return Double(BenchClock.nowNanoseconds() - t0) / 1e6
    }
    do {
        // FcInit alone (the configuration and every cache file), then the rest of the first Font:
        // FcFontSort of the fallbacks, the emoji match, opening DejaVu with FreeType and HarfBuzz.
        print("fc-init \(ms { _ = FcInit() })")
        var font: Font!
        print("font-first \(try ms { font = try Font(path: Font.dejaVuSansPath) })")
        print("font-second \(try ms { _ = try Font(path: Font.dejaVuSansPath) })")
        print("font-no-fallback \(try ms { _ = try Font(path: Font.dejaVuSansPath, fallback: false) })")
        let size = 0.4 * 1080 / 9
        let frame = try PixelBuffer(width: 400, height: 100)
        let canvas = Canvas(frame)
        let samples: [(String, String)] = [("latin", "Item 1"), ("arabic", "قهوة 1"), ("devanagari", "कॉफ़ी 1"), ("cjk", "咖啡 1"), ("emoji", "☕ Item 1")]
        for (name, label) in samples {
            let facesBefore = font.facePaths.count
            print("shape-cold-\(name) \(ms { blackHole(font.shape(label, size: size)) })")
            if font.facePaths.count > facesBefore {
                print("\(name) opened " + font.facePaths[facesBefore...].map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", "))
            }
            print("draw-first-\(name) \(ms { canvas.drawText(label, font: font, size: size, at: Point(x: 10, y: 70), color: .white) })")
            // Warm shaping: faces open, the string new to the cache (another number each time).
            var warm: [Double] = []
            for k in 0..<201 { warm.append(ms { blackHole(font.shape(label + "\(k + 100)", size: size)) }) }
            warm.sort()
            print("shape-warm-\(name) \(warm[warm.count / 2])")
            var cached: [Double] = []
            for _ in 0..<201 { cached.append(ms { blackHole(font.shape(label, size: size)) }) }
            cached.sort()
            print("shape-cached-\(name) \(cached[cached.count / 2])")
        }
        // A first S1 frame at 1080p (a new scene: its own Font, fontconfig warm now): glyphs
        // rasterized and labels shaped for the first time; then the second frame.
        for (name, labels) in [("latin", latinLabels), ("mixed", complexLabelSets[3].labels)] {
            let scene = try ReferenceScene(width: 1920, height: 1080, pattern: .checker, labels: labels)
            let s1 = try scene.makeFrame()
            print("s1-first-frame-\(name) \(ms { scene.render(on: Canvas(s1)) })")
            print("s1-second-frame-\(name) \(ms { scene.render(on: Canvas(s1)) })")
        }
        // Hostile lengths: the cut to Font.maximumScalars keeps these bounded.
        let long: [(String, String)] = [
            ("latin-10000", String(repeating: "Item 0123 ", count: 1000)),
            ("arabic-10000", String(repeating: "قهوة ", count: 2000)),
            ("devanagari-10000", String(repeating: "कॉफ़ी ", count: 1667)),
            ("mixed-10000", String(repeating: "Item قهوة कॉफ़ी 咖啡 ☕ ", count: 455)),
            ("marks-10000", "a" + String(repeating: "\u{301}", count: 9999)),
            ("bidi-controls-3000", String(repeating: "\u{202E}", count: 1000) + String(repeating: "\u{202A}", count: 1000)
                + String(repeating: "\u{2069}", count: 1000) + "abc"),
        ]
        for (name, text) in long {
            print("shape-\(name) \(ms { blackHole(font.shape(text, size: 20)) })")
            print("truncate-\(name) \(ms { blackHole(font.truncated(text, size: 20, maxWidth: 120)) })")
            print("missing-\(name) \(ms { blackHole(font.missingScalars(in: text)) })")
        }
    } catch {
        print("error \(error)")
    }
}

extension String {
    var trimmingNewline: String {
        var s = self
        while let last = s.last, last.isNewline { s.removeLast() }
        return s
    }
}

/// `kiosk-bench --text-labels-loop SET [FRAMES]`: draws S1's nine labels of SET (latin or a name
/// from `complexLabelSets`) at 1920x1080 FRAMES times after one warm-up, and nothing else: a steady
/// state workload for a profiler (`valgrind --tool=callgrind`).
func runTextLabelsLoop(_ arguments: [String]) {
    let name = arguments.first ?? "latin"
    let frames = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
    guard let labels = name == "latin" ? latinLabels : complexLabelSets.first(where: { $0.name == name })?.labels else {
        print("unknown label set \(name)")
        return
    }
    do {
        let scene = try ReferenceScene(width: 1920, height: 1080, pattern: .checker, labels: labels)
        let frame = try scene.makeFrame()
        let stepper = ScrollStepper(scene, frame: frame, shadow: frame)
        stepper.labels()
        let t0 = BenchClock.nowNanoseconds()
        for _ in 0..<frames { stepper.labels() }
        print("\(name): \(formatNanoseconds(Double(BenchClock.nowNanoseconds() - t0) / Double(frames))) per frame of nine labels")
    } catch {
        print("error \(error)")
    }
}
