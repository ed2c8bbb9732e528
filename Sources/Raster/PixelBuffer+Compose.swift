import Geometry

/// Whole pictures put together: what a screen transition does with the picture it leaves and the
/// one it goes to. Each costs about a copy of the pixels it touches, never a redraw.
extension PixelBuffer {
    /// Copies `other`'s pixels into this buffer moved right by `dx` (left when negative); what
    /// falls outside either buffer is left out. Rows of the same stride go in one copy each.
    public func copyPixels(from other: PixelBuffer, shiftedBy dx: Int) {
        let x0 = Swift.max(0, dx), x1 = Swift.min(width, other.width + dx)
        let rows = Swift.min(height, other.height)
        guard x1 > x0, rows > 0 else { return }
        for y in 0..<rows {
            UnsafeMutableRawPointer(row(y) + x0).copyMemory(from: other.row(y) + (x0 - dx), byteCount: (x1 - x0) * 4)
        }
    }

    /// Writes `from` mixed with `to` by `amount` (0: `from`, 256: `to`) into `rect` of this buffer
    /// (clipped to all three). Two channels at a time in a `UInt32`; the top byte is mixed too.
    public func crossFade(from a: PixelBuffer, to b: PixelBuffer, amount: Int, in rect: PixelRect) {
        let r = rect.intersection(bounds).intersection(a.bounds).intersection(b.bounds)
        guard !r.isEmpty else { return }
        let t = UInt32(Swift.min(256, Swift.max(0, amount))), s = 256 - t
        for y in r.minY..<r.maxY {
            let dst = row(y), pa = a.row(y), pb = b.row(y)
            for x in r.minX..<r.maxX {
                let p = pa[x], q = pb[x]
                // Each lane holds at most 255 * 256: the sum never carries into the next lane.
                let rb = (((p & 0x00FF_00FF) &* s &+ (q & 0x00FF_00FF) &* t) >> 8) & 0x00FF_00FF
                let ag = (((p >> 8) & 0x00FF_00FF) &* s &+ ((q >> 8) & 0x00FF_00FF) &* t) & 0xFF00_FF00
                dst[x] = rb | ag
            }
        }
    }

    /// The smallest rectangle holding every pixel where this buffer and `other` (same size)
    /// differ, the X byte of XRGB excluded; `.zero` when they are the same.
    public func differingBounds(from other: PixelBuffer) -> PixelRect {
        let w = Swift.min(width, other.width), h = Swift.min(height, other.height)
        let mask: UInt32 = format == .xrgb8888 ? 0x00FF_FFFF : 0xFFFF_FFFF
        var minX = w, maxX = -1, minY = h, maxY = -1
        for y in 0..<h {
            let a = row(y), b = other.row(y)
            guard let first = (0..<w).first(where: { (a[$0] ^ b[$0]) & mask != 0 }) else { continue }
            let last = (first..<w).last(where: { (a[$0] ^ b[$0]) & mask != 0 })!
            minX = Swift.min(minX, first)
            maxX = Swift.max(maxX, last)
            if minY == h { minY = y }
            maxY = y
        }
        guard maxY >= 0 else { return .zero }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
