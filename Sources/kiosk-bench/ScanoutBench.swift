import DRMOutput
import Geometry
import Kiosk
import Raster

/// The copy from the shadow buffer to scanout memory, per rotation, full frame and damage-limited,
/// against a plain memcpy of the whole frame in the same run. (Ordinary memory stands in for the
/// dumb buffer here; real write-combined memory is slower to read, which this copy never does.)
/// Each copy is timed in rounds that alternate with rounds of the memcpy, from the same source
/// buffer into the same panel buffer, so both see the same machine load; the ratio is the median
/// of the per-round ratios.
func runScanoutBenchmarks() {
    let (w, h) = (1920, 1080)
    guard let shadow = try? PixelBuffer(width: w, height: h) else { return }
    fillWithNoise(shadow)
    let frameBytes = w * h * 4
    let panel = UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64)
    defer { panel.deallocate() }
    let memcpyFigure = BenchClock.measure {
        shadow.withUnsafePixels { src, _ in panel.copyMemory(from: src, byteCount: frameBytes) }
        observe(panel)
    }
    report("memcpy of a \(w)x\(h) frame", memcpyFigure)
    // A scroll step of scene S1 damages the menu band: about 0.19·W + 0.3·H + 16 pixels wide.
    let bandWidth = Int(0.19 * Double(w) + 0.3 * Double(h)) + 18
    for rotation in DisplayRotation.allCases {
        // The logical screen is what the layout sees: a quarter turn makes it portrait.
        let logical = rotation.logicalSize(forPanel: Size(width: Double(w), height: Double(h)))
        let (lw, lh) = (Int(logical.width), Int(logical.height))
        guard let source = try? PixelBuffer(width: lw, height: lh) else { return }
        fillWithNoise(source)
        let copy = ScanoutCopy(rotation: rotation, logicalWidth: lw, logicalHeight: lh)
        let full = PixelRect(x: 0, y: 0, width: lw, height: lh)
        let band = PixelRect(x: lw - min(bandWidth, lw), y: 0, width: min(bandWidth, lw), height: lh)
        for (name, rect) in [("full frame", full), ("menu band \(band.width)x\(band.height)", band)] {
            let paired = measureAgainstMemcpy(
                panel: panel,
                memcpy: {
                    source.withUnsafePixels { src, _ in panel.copyMemory(from: src, byteCount: frameBytes) }
                },
                copy: {
                    source.withUnsafePixels { src, stride in
                        copy.copy(rect, from: src, sourceStride: stride, to: panel, destinationStride: copy.panelWidth * 4)
                    }
                })
            report("scanout copy \(rotation.degrees)°, \(name)", paired.copy,
                   suffix: "  (\(paired.ratio.formatted2)x memcpy, rounds \(paired.ratioLow.formatted2)–\(paired.ratioHigh.formatted2)x; memcpy \(formatNanoseconds(paired.memcpy.medianNanoseconds)))")
        }
    }
}

/// Alternating rounds of `memcpy` and `copy`, each round long enough (~10 ms) to swamp clock
/// overhead; the ratio is the median (and quartiles) of copy/memcpy over neighbouring rounds.
func measureAgainstMemcpy(
    rounds: Int = 21, roundSeconds: Double = 0.01, panel: UnsafeMutableRawPointer, memcpy: () -> Void, copy: () -> Void
)
    -> (copy: BenchClock.Figure, memcpy: BenchClock.Figure, ratio: Double, ratioLow: Double, ratioHigh: Double)
{
    func perCall(_ body: () -> Void, _ count: Int) -> Double {
        let t0 = BenchClock.nowNanoseconds()
        for _ in 0..<count { body(); observe(panel) }
        return Double(BenchClock.nowNanoseconds() - t0) / Double(count)
    }
    // Warm up both, then size the rounds from the slower of the two.
    _ = perCall(memcpy, 3)
    let estimate = max(perCall(copy, 3), perCall(memcpy, 3), 1)
    let count = max(1, Int(roundSeconds * 1e9 / estimate))
    var copies: [Double] = [], memcpys: [Double] = [], ratios: [Double] = []
    for _ in 0..<rounds {
        let m = perCall(memcpy, count)
        let c = perCall(copy, count)
        memcpys.append(m)
        copies.append(c)
        ratios.append(c / m)
    }
    copies.sort(); memcpys.sort(); ratios.sort()
    func figure(_ s: [Double]) -> BenchClock.Figure {
        BenchClock.Figure(medianNanoseconds: s[s.count / 2], minNanoseconds: s[0], iterations: s.count * count)
    }
    return (figure(copies), figure(memcpys), ratios[ratios.count / 2], ratios[ratios.count / 4], ratios[ratios.count * 3 / 4])
}

/// Opaque to the optimizer, which must assume it reads the frame: without it, a timing loop of
/// identical memcpys into the same buffer was once reduced to far fewer copies and never finished
/// calibrating.
@_optimize(none) @inline(never) func observe(_ frame: UnsafeMutableRawPointer) {}

/// Every pixel different, so nothing is accidentally cheap.
func fillWithNoise(_ buffer: PixelBuffer) {
    buffer.withRows { y, row in
        for x in 0..<row.count { row[x] = UInt32(truncatingIfNeeded: x &* 2654435761 &+ y) }
        return nil as Void?
    }
}
