import CStreamingStores
import Geometry
import Raster

/// Copies rectangles of the logical (shadow) image onto the panel-oriented scanout buffer,
/// rotating on the way. Scanout memory is never read, and every panel row is written in
/// ascending addresses; quarter turns write whole 64-byte lines (see `transpose`).
public struct ScanoutCopy {
    public let rotation: DisplayRotation
    /// Logical size (what the layout and the shadow buffer see).
    public let logicalWidth: Int
    public let logicalHeight: Int
    /// Panel columns per band of a quarter turn: one 64-byte line of each panel row.
    static let band = 16

    public init(rotation: DisplayRotation, logicalWidth: Int, logicalHeight: Int) {
        self.rotation = rotation
        self.logicalWidth = logicalWidth
        self.logicalHeight = logicalHeight
    }

    /// Panel size for this rotation.
    public var panelWidth: Int { rotation == .none || rotation == .half ? logicalWidth : logicalHeight }
    public var panelHeight: Int { rotation == .none || rotation == .half ? logicalHeight : logicalWidth }

    /// Where a logical pixel rectangle lands on the panel.
    public func panelRect(for r: PixelRect) -> PixelRect {
        Self.panelRect(for: r, rotation: rotation, logicalWidth: logicalWidth, logicalHeight: logicalHeight)
    }

    static func panelRect(for r: PixelRect, rotation: DisplayRotation, logicalWidth w: Int, logicalHeight h: Int) -> PixelRect {
        switch rotation {
        case .none: return r
        case .quarter: return PixelRect(x: h - r.maxY, y: r.x, width: r.height, height: r.width)
        case .half: return PixelRect(x: w - r.maxX, y: h - r.maxY, width: r.width, height: r.height)
        case .threeQuarters: return PixelRect(x: r.y, y: w - r.maxX, width: r.height, height: r.width)
        }
    }

    /// Copies the `damage` rectangles of the logical frame `shadow` into the panel image at
    /// `destination` (`destinationStride` bytes a row): the one damage copy of every output.
    /// `copied` is told where each rectangle landed on the panel (clipped to it, never empty).
    public func copy(_ damage: [PixelRect], from shadow: PixelBuffer, to destination: UnsafeMutableRawPointer,
                     destinationStride: Int, copied: (PixelRect) -> Void = { _ in }) {
        let screen = PixelRect(x: 0, y: 0, width: logicalWidth, height: logicalHeight)
        shadow.withUnsafePixels { source, sourceStride in
            for r in damage {
                copy(r, from: source, sourceStride: sourceStride, to: destination, destinationStride: destinationStride)
                let clipped = r.intersection(screen)
                if !clipped.isEmpty { copied(panelRect(for: clipped)) }
            }
        }
    }

    /// Copies `rect` (logical coordinates, clipped to the screen) from `source` into `destination`.
    /// `source` holds logicalWidth x logicalHeight pixels with `sourceStride` bytes a row;
    /// `destination` holds the panel image with `destinationStride` bytes a row. Both strides
    /// are multiples of 4.
    public func copy(
        _ rect: PixelRect, from source: UnsafeRawPointer, sourceStride: Int,
        to destination: UnsafeMutableRawPointer, destinationStride: Int, kernel: Kernel = .simd
    ) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: logicalWidth, height: logicalHeight))
        guard !r.isEmpty else { return }
        let src = source.assumingMemoryBound(to: UInt32.self)
        let dst = destination.assumingMemoryBound(to: UInt32.self)
        let ss = sourceStride / 4, ds = destinationStride / 4
        let p = panelRect(for: r)
        switch rotation {
        case .none:
            for y in r.minY..<r.maxY {
                (dst + y * ds + r.minX).update(from: src + y * ss + r.minX, count: r.width)
            }
        case .half:
            for row in 0..<r.height {
                let s = src + (r.maxY - 1 - row) * ss + r.maxX - 1
                let d = dst + (p.minY + row) * ds + p.minX
                for i in 0..<r.width { d[i] = s[-i] }
            }
        case .quarter, .threeQuarters:
            Self.transpose(r, clockwise: rotation == .quarter, src: src, ss: ss, dst: dst, ds: ds, panel: p, kernel: kernel)
        }
    }

    /// Quarter turns in bands 16 panel columns wide (16 source rows) running the full height of
    /// the panel rectangle. Each step reads 16 bytes from each of the 16 source rows and writes one
    /// whole 64-byte line to each of 4 panel rows: every load walks along one source row, which
    /// hardware prefetchers follow, and each destination line is completed by four consecutive
    /// stores, as write-combining wants. Bands start on a 64-byte line of the first panel row;
    /// the narrower columns before and after, and panel rows past a multiple of 4, go through
    /// 4x4 blocks or the scalar loop. (64x64 tiles of 4x4 blocks, whose loads hop between source
    /// rows, took 1.3-1.5x as long; other shapes tried are in BENCHMARKS.md.)
    static func transpose(
        _ r: PixelRect, clockwise: Bool, src: UnsafePointer<UInt32>, ss: Int,
        dst: UnsafeMutablePointer<UInt32>, ds: Int, panel p: PixelRect, kernel: Kernel
    ) {
        let map = QuarterTurn(rect: r, panel: p, clockwise: clockwise, src: src, ss: ss, dst: dst, ds: ds)
        switch kernel {
        case .scalar:
            map.scalar(columns: p.minX..<p.maxX, rows: p.minY..<p.maxY)
        case .simd:
            let rows4 = p.height & ~3
            let lineOffset = Int(bitPattern: dst + p.minY * ds + p.minX) & 63
            let head = Swift.min(p.width, (64 - lineOffset) % 64 / 4)
            var x = p.minX
            map.narrow(x: x, width: head, rows: rows4)
            x += head
            // Streaming stores need 16-byte alignment, which every row's band keeps only when the
            // panel's row pitch is a multiple of 16 bytes (as drivers allocate dumb buffers).
            let streaming = (ds * 4) % 16 == 0
            while p.maxX - x >= band {
                map.band(x: x, rows: rows4, streaming: streaming)
                x += band
            }
            map.narrow(x: x, width: p.maxX - x, rows: rows4)
            map.scalar(columns: p.minX..<p.maxX, rows: (p.minY + rows4)..<p.maxY)
            kiosk_stream_fence()
        }
    }

    /// Which inner loop moves the pixels of a quarter turn; both give identical panels.
    public enum Kernel: Sendable { case scalar, simd }
}

/// A quarter turn as an affine map from panel pixels of `panel` to source pixels of `rect`.
/// Clockwise: logical (x, y) goes to panel (H−1−y, x), so a panel row is a logical column read
/// bottom-up. Anticlockwise: to (y, W−1−x), a logical column read top-down.
struct QuarterTurn {
    let panel: PixelRect
    let clockwise: Bool
    let dst: UnsafeMutablePointer<UInt32>, ds: Int
    /// Source pixel shown at the panel rectangle's top-left corner.
    let origin: UnsafePointer<UInt32>
    /// Source elements from one panel column to the next, and from one panel row to the next.
    let columnStep: Int, rowStep: Int

    init(rect r: PixelRect, panel: PixelRect, clockwise: Bool, src: UnsafePointer<UInt32>, ss: Int, dst: UnsafeMutablePointer<UInt32>, ds: Int) {
        self.panel = panel
        self.clockwise = clockwise
        self.dst = dst
        self.ds = ds
        if clockwise {
            origin = src + (r.maxY - 1) * ss + r.minX
            columnStep = -ss
            rowStep = 1
        } else {
            origin = src + r.minY * ss + r.maxX - 1
            columnStep = ss
            rowStep = -1
        }
    }

    @inline(__always) func source(x: Int, y: Int) -> UnsafePointer<UInt32> {
        origin + (x &- panel.minX) &* columnStep + (y &- panel.minY) &* rowStep
    }

    /// One pixel at a time, each panel row left to right: the reference the SIMD kernels are
    /// tested against, and the edges they leave.
    func scalar(columns: Range<Int>, rows: Range<Int>) {
        guard !columns.isEmpty else { return }
        for y in rows {
            var s = source(x: columns.lowerBound, y: y)
            let d = dst + y &* ds + columns.lowerBound
            for i in 0..<columns.count {
                d[i] = s.pointee
                s += columnStep
            }
        }
    }

    /// Where the 4 panel rows from `y` come from, as one 16-byte load per source row (the 4
    /// source columns ascending), and the destination of lane 0 with the step to the next lane.
    /// Clockwise, lane i shows panel row y+i; anticlockwise, panel row y+3−i.
    @inline(__always) func lanes(x: Int, y: Int) -> (UnsafeRawPointer, UnsafeMutableRawPointer, laneStep: Int) {
        if clockwise {
            return (UnsafeRawPointer(source(x: x, y: y)), UnsafeMutableRawPointer(dst + y &* ds + x), ds &* 4)
        }
        return (UnsafeRawPointer(source(x: x, y: y &+ 3)), UnsafeMutableRawPointer(dst + (y &+ 3) &* ds + x), -ds &* 4)
    }

    /// 16 panel columns from `x`, panel rows panel.minY ..< panel.minY+rows (a multiple of 4),
    /// top to bottom: per step, 16 loads (one per source row), four 4x4 transposes, and one
    /// whole 64-byte line (four 16-byte stores) to each of 4 panel rows.
    func band(x: Int, rows: Int, streaming: Bool) {
        var (s, d, lane) = lanes(x: x, y: panel.minY)
        let cs = columnStep &* 4
        let sStep = rowStep &* 16, dStep = ds &* 16
        var y = 0
        while y < rows {
            let (a0, a1, a2, a3) = transpose4x4(s.load16(), (s + cs).load16(), (s + 2 &* cs).load16(), (s + 3 &* cs).load16())
            let (b0, b1, b2, b3) = transpose4x4((s + 4 &* cs).load16(), (s + 5 &* cs).load16(), (s + 6 &* cs).load16(), (s + 7 &* cs).load16())
            let (c0, c1, c2, c3) = transpose4x4((s + 8 &* cs).load16(), (s + 9 &* cs).load16(), (s + 10 &* cs).load16(), (s + 11 &* cs).load16())
            let (e0, e1, e2, e3) = transpose4x4((s + 12 &* cs).load16(), (s + 13 &* cs).load16(), (s + 14 &* cs).load16(), (s + 15 &* cs).load16())
            d.storeLine(a0, b0, c0, e0, streaming: streaming)
            (d + lane).storeLine(a1, b1, c1, e1, streaming: streaming)
            (d + 2 &* lane).storeLine(a2, b2, c2, e2, streaming: streaming)
            (d + 3 &* lane).storeLine(a3, b3, c3, e3, streaming: streaming)
            s += sStep
            d += dStep
            y &+= 4
        }
    }

    /// Fewer than 16 panel columns from `x` (the edges of a band run): 4x4 blocks, 4 columns at
    /// a time down the rows, then the last columns one pixel at a time.
    func narrow(x: Int, width: Int, rows: Int) {
        let cs = columnStep &* 4
        let sStep = rowStep &* 16, dStep = ds &* 16
        var column = 0
        while column + 4 <= width {
            var (s, d, lane) = lanes(x: x + column, y: panel.minY)
            var y = 0
            while y < rows {
                let (o0, o1, o2, o3) = transpose4x4(s.load16(), (s + cs).load16(), (s + 2 &* cs).load16(), (s + 3 &* cs).load16())
                d.storeBytes(of: o0, as: SIMD4<UInt32>.self)
                (d + lane).storeBytes(of: o1, as: SIMD4<UInt32>.self)
                (d + 2 &* lane).storeBytes(of: o2, as: SIMD4<UInt32>.self)
                (d + 3 &* lane).storeBytes(of: o3, as: SIMD4<UInt32>.self)
                s += sStep
                d += dStep
                y &+= 4
            }
            column += 4
        }
        scalar(columns: (x + column)..<(x + width), rows: panel.minY..<(panel.minY + rows))
    }
}

/// Rows of a 4x4 block in, columns out: two rounds of interleaving, the second on 64-bit halves,
/// which compiles to the 8-shuffle sequence (unpcklps/unpckhps, movlhps/unpckhpd on SSE2; zip on NEON).
@inline(__always) private func transpose4x4(
    _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>
) -> (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
    typealias Halves = SIMD2<UInt64>
    let ab0 = unsafeBitCast(SIMD4(a[0], b[0], a[1], b[1]), to: Halves.self)
    let cd0 = unsafeBitCast(SIMD4(c[0], d[0], c[1], d[1]), to: Halves.self)
    let ab2 = unsafeBitCast(SIMD4(a[2], b[2], a[3], b[3]), to: Halves.self)
    let cd2 = unsafeBitCast(SIMD4(c[2], d[2], c[3], d[3]), to: Halves.self)
    return (
        unsafeBitCast(Halves(ab0[0], cd0[0]), to: SIMD4<UInt32>.self),
        unsafeBitCast(Halves(ab0[1], cd0[1]), to: SIMD4<UInt32>.self),
        unsafeBitCast(Halves(ab2[0], cd2[0]), to: SIMD4<UInt32>.self),
        unsafeBitCast(Halves(ab2[1], cd2[1]), to: SIMD4<UInt32>.self)
    )
}

fileprivate extension UnsafeRawPointer {
    @inline(__always) func load16() -> SIMD4<UInt32> { loadUnaligned(as: SIMD4<UInt32>.self) }
}

fileprivate extension UnsafeMutableRawPointer {
    /// 64 bytes as four ascending 16-byte stores; with `streaming` (self 16-byte aligned) as
    /// streaming stores, so the line is not fetched into the cache first only to be overwritten,
    /// which halves a quarter turn's memory traffic.
    @inline(__always) func storeLine(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>, streaming: Bool) {
        if streaming {
            kiosk_stream_line(self, a, b, c, d)
            return
        }
        storeBytes(of: a, as: SIMD4<UInt32>.self)
        (self + 16).storeBytes(of: b, as: SIMD4<UInt32>.self)
        (self + 32).storeBytes(of: c, as: SIMD4<UInt32>.self)
        (self + 48).storeBytes(of: d, as: SIMD4<UInt32>.self)
    }
}
