import LayoutCore
import Raster

/// Copies rectangles of the logical (shadow) image onto the panel-oriented scanout buffer,
/// rotating on the way. Writes go out row by row in ascending addresses, which is what
/// write-combined dumb-buffer memory wants; quarter turns work tile by tile so that reads
/// stay in cache too. Scanout memory is never read.
public struct ScanoutCopy {
    public let rotation: DisplayRotation
    /// Logical size (what the layout and the shadow buffer see).
    public let logicalWidth: Int
    public let logicalHeight: Int
    static let tile = 64

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

    /// Quarter turns, tile by tile, so that the tile's source lines stay in L1 while the
    /// destination is written in ascending order, one short run per panel row.
    static func transpose(
        _ r: PixelRect, clockwise: Bool, src: UnsafePointer<UInt32>, ss: Int,
        dst: UnsafeMutablePointer<UInt32>, ds: Int, panel p: PixelRect, kernel: Kernel
    ) {
        let map = QuarterTurn(rect: r, panel: p, clockwise: clockwise, src: src, ss: ss, dst: dst, ds: ds)
        var ty = r.minY
        while ty < r.maxY {
            let th = Swift.min(tile, r.maxY - ty)
            var tx = r.minX
            while tx < r.maxX {
                let tw = Swift.min(tile, r.maxX - tx)
                switch kernel {
                case .scalar:
                    map.scalar(x: tx, y: ty, width: tw, height: th)
                case .simd:
                    let w4 = tw & ~3, h4 = th & ~3
                    map.simd(x: tx, y: ty, width: w4, height: h4)
                    map.scalar(x: tx + w4, y: ty, width: tw - w4, height: th)
                    map.scalar(x: tx, y: ty + h4, width: w4, height: th - h4)
                }
                tx += tw
            }
            ty += th
        }
    }

    /// Which inner loop moves the pixels of a quarter turn; both give identical panels.
    public enum Kernel: Sendable { case scalar, simd }
}

/// Where logical pixels of `rect` land on the panel for a quarter turn.
/// Clockwise: logical (x, y) goes to panel (H−1−y, x), so a panel row is a logical column read
/// bottom-up. Anticlockwise: to (y, W−1−x), a logical column read top-down.
@usableFromInline struct QuarterTurn {
    let rect: PixelRect, panel: PixelRect, clockwise: Bool
    let src: UnsafePointer<UInt32>, ss: Int
    let dst: UnsafeMutablePointer<UInt32>, ds: Int

    /// Panel row showing logical column `x`.
    @inline(__always) func panelRow(_ x: Int) -> Int {
        clockwise ? panel.minY + x - rect.minX : panel.minY + rect.maxX - 1 - x
    }

    /// Panel column showing logical row `y`.
    @inline(__always) func panelColumn(_ y: Int) -> Int {
        clockwise ? panel.minX + rect.maxY - 1 - y : panel.minX + y - rect.minY
    }

    /// One pixel at a time: the reference the SIMD kernel is tested against.
    func scalar(x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        // Destination runs ascend, so read the column bottom-up when turning clockwise.
        let step = clockwise ? -ss : ss
        let firstRow = clockwise ? y + height - 1 : y
        let column = panelColumn(firstRow)
        for j in 0..<width {
            let d = dst + panelRow(x + j) * ds + column
            var s = src + firstRow * ss + x + j
            for i in 0..<height {
                d[i] = s.pointee
                s += step
            }
        }
    }

    /// 4x4 blocks transposed in registers; `width` and `height` are multiples of 4.
    /// Columns come out of two rounds of even/odd lane selection (shuffles), not lane by lane.
    func simd(x: Int, y: Int, width: Int, height: Int) {
        var by = y
        while by < y + height {
            let column = panelColumn(clockwise ? by + 3 : by)
            var bx = x
            while bx < x + width {
                let base = UnsafeRawPointer(src + by * ss + bx)
                let r0 = base.loadUnaligned(as: SIMD4<UInt32>.self)
                let r1 = (base + ss * 4).loadUnaligned(as: SIMD4<UInt32>.self)
                let r2 = (base + ss * 8).loadUnaligned(as: SIMD4<UInt32>.self)
                let r3 = (base + ss * 12).loadUnaligned(as: SIMD4<UInt32>.self)
                // Clockwise panel rows read the block bottom-up.
                let (a, b, c, d) = clockwise ? (r3, r2, r1, r0) : (r0, r1, r2, r3)
                let ab = SIMD8(lowHalf: a, highHalf: b), cd = SIMD8(lowHalf: c, highHalf: d)
                let even = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)
                let odd = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
                let step = clockwise ? ds : -ds
                let first = UnsafeMutableRawPointer(dst + panelRow(bx) * ds + column)
                first.storeBytes(of: even.evenHalf, as: SIMD4<UInt32>.self)
                (first + step * 4).storeBytes(of: odd.evenHalf, as: SIMD4<UInt32>.self)
                (first + step * 8).storeBytes(of: even.oddHalf, as: SIMD4<UInt32>.self)
                (first + step * 12).storeBytes(of: odd.oddHalf, as: SIMD4<UInt32>.self)
                bx += 4
            }
            by += 4
        }
    }
}
