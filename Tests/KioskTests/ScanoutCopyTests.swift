@testable import DRMOutput
import Geometry
import Kiosk
@testable import KioskConfiguration
import Raster
import Testing

@Suite struct ScanoutCopyTests {
    /// A logical image where every pixel is different.
    func numbered(width: Int, height: Int) throws -> PixelBuffer {
        let b = try PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { b.setPixel(x: x, y: y, UInt32(y * 10_000 + x)) } }
        return b
    }

    /// Reference: each logical pixel centre through DisplayRotation's transform (LayoutCore), one at a time.
    func reference(_ src: PixelBuffer, rotation: DisplayRotation, rect: PixelRect, into panel: inout [UInt32], panelWidth: Int, panelHeight: Int) {
        let t = rotation.logicalToPanel(panel: Size(width: Double(panelWidth), height: Double(panelHeight)))
        for y in rect.minY..<rect.maxY {
            for x in rect.minX..<rect.maxX {
                let p = t.apply(Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                panel[Int(p.y) * panelWidth + Int(p.x)] = src[x, y]!
            }
        }
    }

    @Test(arguments: DisplayRotation.allCases, [ScanoutCopy.Kernel.scalar, .simd])
    func rotatedCopyMatchesTransform(rotation: DisplayRotation, kernel: ScanoutCopy.Kernel) throws {
        let (w, h) = (77, 45)  // not multiples of the tile, so edge tiles are exercised
        let src = try numbered(width: w, height: h)
        let copy = ScanoutCopy(rotation: rotation, logicalWidth: w, logicalHeight: h)
        let pw = copy.panelWidth, ph = copy.panelHeight
        let stride = pw * 4 + 24  // a padded pitch, as dumb buffers may have
        var panel = [UInt8](repeating: 0xEE, count: stride * ph)
        var expected = [UInt32](repeating: 0, count: pw * ph)
        // Two damage rectangles, then check that only they were written.
        let rects = [PixelRect(x: 3, y: 5, width: 40, height: 33), PixelRect(x: 50, y: 0, width: 27, height: 7)]
        var touched = Set<Int>()
        for r in rects {
            reference(src, rotation: rotation, rect: r, into: &expected, panelWidth: pw, panelHeight: ph)
            let pr = copy.panelRect(for: r)
            for y in pr.minY..<pr.maxY { for x in pr.minX..<pr.maxX { touched.insert(y * pw + x) } }
            src.withUnsafePixels { base, srcStride in
                panel.withUnsafeMutableBytes { dst in
                    copy.copy(r, from: base, sourceStride: srcStride, to: dst.baseAddress!, destinationStride: stride, kernel: kernel)
                }
            }
        }
        var mismatches = 0
        panel.withUnsafeBytes { bytes in
            for y in 0..<ph {
                for x in 0..<pw {
                    let v = bytes.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
                    let want = touched.contains(y * pw + x) ? expected[y * pw + x] : 0xEEEE_EEEE
                    if v != want { mismatches += 1 }
                }
                // The padding past the row is never written.
                for b in (pw * 4)..<stride where bytes[y * stride + b] != 0xEE { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// The SIMD kernel against the scalar one on rectangles with whole 16-column bands, narrower
    /// columns either side of them (the panel starting at every 4-byte offset within a 64-byte
    /// line, and a pitch that shifts each row's offset), and panel heights not a multiple of 4.
    /// A pitch that is a multiple of 16 bytes takes the streaming stores, another the plain ones.
    @Test(arguments: [DisplayRotation.quarter, .threeQuarters], [68, 72])
    func simdKernelAgreesWithScalar(rotation: DisplayRotation, pitchPadding: Int) throws {
        let (w, h) = (70, 130)
        let src = try numbered(width: w, height: h)
        let copy = ScanoutCopy(rotation: rotation, logicalWidth: w, logicalHeight: h)
        let stride = copy.panelWidth * 4 + pitchPadding
        let size = stride * copy.panelHeight
        let rects = [
            PixelRect(x: 0, y: 0, width: w, height: h),
            PixelRect(x: 1, y: 2, width: 67, height: 111),
            PixelRect(x: 5, y: 9, width: 3, height: 50),
            PixelRect(x: 10, y: 0, width: 33, height: 17),
            PixelRect(x: 69, y: 129, width: 1, height: 1),
            PixelRect(x: 2, y: 100, width: 64, height: 30),
        ]
        let scalar = UnsafeMutableRawPointer.allocate(byteCount: size + 64, alignment: 64)
        let simd = UnsafeMutableRawPointer.allocate(byteCount: size + 64, alignment: 64)
        defer { scalar.deallocate(); simd.deallocate() }
        var differing = 0, written = 0
        for offset in Swift.stride(from: 0, to: 64, by: 4) {
            for r in rects {
                for (buffer, kernel) in [(scalar, ScanoutCopy.Kernel.scalar), (simd, .simd)] {
                    buffer.initializeMemory(as: UInt8.self, repeating: 0xEE, count: size + 64)
                    src.withUnsafePixels { base, srcStride in
                        copy.copy(r, from: base, sourceStride: srcStride, to: buffer + offset, destinationStride: stride, kernel: kernel)
                    }
                }
                for i in 0..<(size + 64) {
                    let a = scalar.load(fromByteOffset: i, as: UInt8.self), b = simd.load(fromByteOffset: i, as: UInt8.self)
                    if a != b { differing += 1 }
                    if a != 0xEE { written += 1 }
                }
            }
        }
        #expect(differing == 0)
        #expect(written > 0)
    }

    /// The damage copy every output uses: the same panel as the reference, and each rectangle
    /// reported where it landed, clipped to the screen; one wholly off screen is not reported.
    @Test(arguments: DisplayRotation.allCases)
    func damageCopyReportsWhereEachRectangleLanded(rotation: DisplayRotation) throws {
        let w = 37, h = 21
        let src = try numbered(width: w, height: h)
        let copier = ScanoutCopy(rotation: rotation, logicalWidth: w, logicalHeight: h)
        let damage = [PixelRect(x: -5, y: 3, width: 12, height: 4), PixelRect(x: 30, y: 15, width: 20, height: 20),
                      PixelRect(x: 50, y: 0, width: 5, height: 5)]
        var panel = [UInt32](repeating: 0, count: w * h), expected = panel
        var reported: [PixelRect] = []
        panel.withUnsafeMutableBytes { dst in
            copier.copy(damage, from: src, to: dst.baseAddress!, destinationStride: copier.panelWidth * 4) { reported.append($0) }
        }
        let screen = PixelRect(x: 0, y: 0, width: w, height: h)
        for r in damage where !r.intersection(screen).isEmpty {
            reference(src, rotation: rotation, rect: r.intersection(screen), into: &expected, panelWidth: copier.panelWidth, panelHeight: copier.panelHeight)
        }
        #expect(panel == expected)
        #expect(reported == damage.prefix(2).map { copier.panelRect(for: $0.intersection(screen)) })
    }

    @Test func panelRectAgreesWithLayoutTransform() {
        for rotation in DisplayRotation.allCases {
            let copy = ScanoutCopy(rotation: rotation, logicalWidth: 800, logicalHeight: 480)
            let r = PixelRect(x: 10, y: 20, width: 30, height: 40)
            let t = rotation.logicalToPanel(panel: Size(width: Double(copy.panelWidth), height: Double(copy.panelHeight)))
            let a = t.apply(Point(x: 10, y: 20)), b = t.apply(Point(x: 40, y: 60))
            let expected = PixelRect(covering: Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y)))
            #expect(copy.panelRect(for: r) == expected)
        }
    }
}

@Suite struct DRMEventTests {
    func record(type: UInt32, token: UInt64, sequence: UInt32, crtc: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        put(type); put(UInt32(32)); put(token); put(UInt32(5)); put(UInt32(6)); put(sequence); put(crtc)
        return bytes
    }

    @Test func parsesFlipEventsAndSkipsOthers() {
        var bytes = record(type: 2, token: 7, sequence: 100, crtc: 33)
        bytes += [0x03, 0, 0, 0, 12, 0, 0, 0, 1, 2, 3, 4]  // an unknown 12-byte event
        bytes += record(type: 2, token: 8, sequence: 101, crtc: 33)
        bytes += [2, 0, 0, 0, 32, 0]  // truncated tail
        let events = bytes.withUnsafeBytes { DRMEvent.parse($0) }
        #expect(events == [
            .flipComplete(token: 7, sequence: 100, seconds: 5, microseconds: 6, crtc: 33),
            .other(type: 3),
            .flipComplete(token: 8, sequence: 101, seconds: 5, microseconds: 6, crtc: 33),
        ])
    }

    @Test func zeroLengthRecordStopsParsing() {
        let bytes: [UInt8] = [2, 0, 0, 0, 0, 0, 0, 0]
        #expect(bytes.withUnsafeBytes { DRMEvent.parse($0) }.isEmpty)
    }
}

@Suite struct ModeRequestTests {
    @Test func parsing() {
        #expect(ModeRequest(parsing: "800x480") == ModeRequest(width: 800, height: 480))
        #expect(ModeRequest(parsing: "1920x1080@60") == ModeRequest(width: 1920, height: 1080, refresh: 60))
        for bad in ["", "800", "x480", "800x", "0x480", "800x480@", "800x480@-1", "axb"] {
            #expect(ModeRequest(parsing: bad) == nil, "\(bad)")
        }
    }
}

@Suite struct HeadlessOutputTests {
    /// Presenting a frame piecewise by damage gives the same panel as presenting it whole.
    @Test(arguments: DisplayRotation.allCases)
    func damageLimitedPresentsAddUpToTheFrame(rotation: DisplayRotation) throws {
        let piecewise = try HeadlessOutput(panelWidth: 120, panelHeight: 70, rotation: rotation)
        let whole = try HeadlessOutput(panelWidth: 120, panelHeight: 70, rotation: rotation)
        let frame = try PixelBuffer(width: piecewise.logicalWidth, height: piecewise.logicalHeight)
        for y in 0..<frame.height { for x in 0..<frame.width { frame.setPixel(x: x, y: y, UInt32(x * 7919 + y * 104729) & 0xFF_FFFF) } }
        let w = frame.width, h = frame.height
        piecewise.present(frame, damage: [PixelRect(x: 0, y: 0, width: w / 2, height: h)])
        #expect(!piecewise.pixels.hasSamePixels(as: { whole.present(frame, damage: [frame.bounds]); return whole.pixels }()))
        piecewise.present(frame, damage: [PixelRect(x: w / 2, y: 0, width: w - w / 2, height: h / 3),
                                          PixelRect(x: w / 2, y: h / 3, width: w - w / 2, height: h - h / 3)])
        #expect(piecewise.pixels.hasSamePixels(as: whole.pixels))
    }
}
