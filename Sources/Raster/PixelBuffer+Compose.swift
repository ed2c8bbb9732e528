import Geometry

/// Whole pictures put together: what a screen transition does with the picture it leaves and the
/// one it goes to. Each costs about a copy of the pixels it touches, never a redraw.
extension PixelBuffer {
    /// Fills this buffer with two pictures of its size side by side, as a slide shows them:
    /// `left`'s last `seam` columns at 0..<seam, then `right`'s first `width - seam` columns.
    /// When all three are packed (stride = width * 4) the larger part goes in one copy of the
    /// whole block, shifted: each row's end spills into the next row's start, which the smaller
    /// part, copied row by row, then covers.
    public func showSideBySide(left: PixelBuffer, right: PixelBuffer, seam: Int) {
        let seam = Swift.min(width, Swift.max(0, seam))
        guard left.width == width, left.height == height, right.width == width, right.height == height else { return }
        let packed = bytesPerRow == width * 4 && left.bytesPerRow == bytesPerRow && right.bytesPerRow == bytesPerRow
        let stride = bytesPerRow
        if packed, seam >= width - seam, seam > 0 {
            base.copyMemory(from: left.base + (width - seam) * 4, byteCount: (height - 1) * stride + seam * 4)
            copyColumns(from: right, sourceX: 0, toX: seam, count: width - seam)
        } else if packed, seam < width {
            (base + seam * 4).copyMemory(from: right.base, byteCount: (height - 1) * stride + (width - seam) * 4)
            copyColumns(from: left, sourceX: width - seam, toX: 0, count: seam)
        } else {
            copyColumns(from: left, sourceX: width - seam, toX: 0, count: seam)
            copyColumns(from: right, sourceX: 0, toX: seam, count: width - seam)
        }
    }

    /// Copies columns `sourceX..<sourceX + count` of every row of `other` to `toX` in this buffer.
    private func copyColumns(from other: PixelBuffer, sourceX: Int, toX: Int, count: Int) {
        guard count > 0 else { return }
        for y in 0..<Swift.min(height, other.height) {
            UnsafeMutableRawPointer(row(y) + toX).copyMemory(from: other.row(y) + sourceX, byteCount: count * 4)
        }
    }

    /// Writes `from` mixed with `to` by `amount` (0: `from`, 256: `to`) into `rect` of this buffer
    /// (clipped to all three). Eight pixels at a time as sixteen 16-bit lanes, then the rest one at
    /// a time in two 16-bit halves of a `UInt32`; each lane holds a channel in its low byte, and
    /// the top byte is mixed too.
    public func crossFade(from a: PixelBuffer, to b: PixelBuffer, amount: Int, in rect: PixelRect) {
        let r = rect.intersection(bounds).intersection(a.bounds).intersection(b.bounds)
        guard !r.isEmpty else { return }
        let t = UInt16(Swift.min(256, Swift.max(0, amount))), s = 256 - t
        for y in r.minY..<r.maxY {
            let dst = UnsafeMutableRawPointer(row(y) + r.minX), pa = UnsafeRawPointer(a.row(y) + r.minX)
            let pb = UnsafeRawPointer(b.row(y) + r.minX)
            var x = 0
            while x + 8 <= r.width {
                let p = pa.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt16>.self)
                let q = pb.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt16>.self)
                dst.storeBytes(of: Self.mix(p, q, s, t), toByteOffset: x * 4, as: SIMD16<UInt16>.self)
                x += 8
            }
            while x < r.width {
                let p = pa.load(fromByteOffset: x * 4, as: UInt32.self), q = pb.load(fromByteOffset: x * 4, as: UInt32.self)
                let (s, t) = (UInt32(s), UInt32(t))
                let even = (((p & 0x00FF_00FF) &* s &+ (q & 0x00FF_00FF) &* t) >> 8) & 0x00FF_00FF
                let odd = (((p >> 8) & 0x00FF_00FF) &* s &+ ((q >> 8) & 0x00FF_00FF) &* t) & 0xFF00_FF00
                dst.storeBytes(of: even | odd, toByteOffset: x * 4, as: UInt32.self)
                x += 1
            }
        }
    }

    /// `p * s + q * t` over 256 per channel (`s + t` = 256), in lanes of two channels: the low
    /// byte of each lane, then the high byte. A product is at most 255 * 256: no lane overflows.
    @inline(__always)
    private static func mix(_ p: SIMD16<UInt16>, _ q: SIMD16<UInt16>, _ s: UInt16, _ t: UInt16) -> SIMD16<UInt16> {
        let low = SIMD16<UInt16>(repeating: 0x00FF)
        let even = ((p & low) &* s &+ (q & low) &* t) &>> 8
        let odd = ((p &>> 8) &* s &+ (q &>> 8) &* t) & ~low
        return even | odd
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
