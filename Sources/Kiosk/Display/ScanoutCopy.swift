import LayoutCore
import Raster

/// Copies rectangles of the logical (shadow) image onto the panel-oriented scanout buffer,
/// rotating on the way. Writes go out row by row in ascending addresses, which is what
/// write-combined dumb-buffer memory wants; quarter turns go through a small tile so that
/// reads stay in cache too. Scanout memory is never read.
public struct ScanoutCopy {
    public let rotation: DisplayRotation
    /// Logical size (what the layout and the shadow buffer see).
    public let logicalWidth: Int
    public let logicalHeight: Int
    static let tile = 32
    private var scratch: [UInt32]

    public init(rotation: DisplayRotation, logicalWidth: Int, logicalHeight: Int) {
        self.rotation = rotation
        self.logicalWidth = logicalWidth
        self.logicalHeight = logicalHeight
        scratch = Array(repeating: 0, count: Self.tile * Self.tile)
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
    /// `destination` holds the panel image with `destinationStride` bytes a row.
    public mutating func copy(
        _ rect: PixelRect, from source: UnsafeRawPointer, sourceStride: Int,
        to destination: UnsafeMutableRawPointer, destinationStride: Int
    ) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: logicalWidth, height: logicalHeight))
        guard !r.isEmpty else { return }
        let src = { (x: Int, y: Int) in (source + y * sourceStride).assumingMemoryBound(to: UInt32.self) + x }
        let dstRow = { (y: Int) in (destination + y * destinationStride).assumingMemoryBound(to: UInt32.self) }
        switch rotation {
        case .none:
            for y in r.minY..<r.maxY {
                (dstRow(y) + r.minX).update(from: src(r.minX, y), count: r.width)
            }
        case .half:
            let p = panelRect(for: r)
            for row in 0..<r.height {
                let s = src(r.minX, r.maxY - 1 - row)
                let d = dstRow(p.minY + row) + p.minX
                let n = r.width
                for i in 0..<n { d[i] = s[n - 1 - i] }
            }
        case .quarter, .threeQuarters:
            copyQuarterTurn(r, src: src, dstRow: dstRow)
        }
    }

    /// Quarter turns, tile by tile: read a tile row-wise from the shadow, transpose it in `scratch`,
    /// write it out row-wise to the panel.
    private mutating func copyQuarterTurn(
        _ r: PixelRect, src: (Int, Int) -> UnsafePointer<UInt32>, dstRow: (Int) -> UnsafeMutablePointer<UInt32>
    ) {
        let t = Self.tile
        let (rotation, w, h) = (self.rotation, logicalWidth, logicalHeight)
        let clockwise = rotation == .quarter
        scratch.withUnsafeMutableBufferPointer { tileBuffer in
            let tileBase = tileBuffer.baseAddress!
            var ty = r.minY
            while ty < r.maxY {
                let th = Swift.min(t, r.maxY - ty)
                var tx = r.minX
                while tx < r.maxX {
                    let tw = Swift.min(t, r.maxX - tx)
                    let tileRect = PixelRect(x: tx, y: ty, width: tw, height: th)
                    let p = Self.panelRect(for: tileRect, rotation: rotation, logicalWidth: w, logicalHeight: h)  // p.width == th, p.height == tw
                    // Panel row j of the tile shows logical column (clockwise ? j : tw-1-j);
                    // panel column i shows logical row (clockwise ? th-1-i : i).
                    for ly in 0..<th {
                        let s = src(tx, ty + ly)
                        let column = clockwise ? th - 1 - ly : ly
                        for lx in 0..<tw {
                            let row = clockwise ? lx : tw - 1 - lx
                            tileBase[row * t + column] = s[lx]
                        }
                    }
                    for row in 0..<tw {
                        (dstRow(p.minY + row) + p.minX).update(from: tileBase + row * t, count: th)
                    }
                    tx += tw
                }
                ty += th
            }
        }
    }
}
