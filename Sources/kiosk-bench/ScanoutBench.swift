import Kiosk
import LayoutCore
import Raster

/// The copy from the shadow buffer to scanout memory, per rotation, full frame and damage-limited,
/// against a plain memcpy of the whole frame in the same run. (Ordinary memory stands in for the
/// dumb buffer here; real write-combined memory is slower to read, which this copy never does.)
func runScanoutBenchmarks() {
    let (w, h) = (1920, 1080)
    guard let shadow = try? PixelBuffer(width: w, height: h) else { return }
    fillWithNoise(shadow)
    let frameBytes = w * h * 4
    let panel = UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64)
    defer { panel.deallocate() }
    let memcpyFigure = BenchClock.measure {
        shadow.withUnsafePixels { src, _ in panel.copyMemory(from: src, byteCount: frameBytes) }
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
            let figure = BenchClock.measure {
                source.withUnsafePixels { src, stride in
                    copy.copy(rect, from: src, sourceStride: stride, to: panel, destinationStride: copy.panelWidth * 4)
                }
            }
            let ratio = figure.medianNanoseconds / memcpyFigure.medianNanoseconds
            report("scanout copy \(rotation.degrees)°, \(name)", figure, suffix: "  (\(ratio.formatted2)x memcpy)")
        }
    }
}

/// Every pixel different, so nothing is accidentally cheap.
func fillWithNoise(_ buffer: PixelBuffer) {
    buffer.withRows { y, row in
        for x in 0..<row.count { row[x] = UInt32(truncatingIfNeeded: x &* 2654435761 &+ y) }
        return nil as Void?
    }
}
