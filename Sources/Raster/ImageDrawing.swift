import Geometry

extension Canvas {
    /// Draws `image` scaled into `rect` with bilinear filtering (edge pixels clamped), composited
    /// source-over at `opacity`. Pixels whose centres fall inside `rect` are drawn; the clip applies.
    /// XRGB images count as opaque.
    public func draw(_ image: PixelBuffer, in rect: Rect, opacity: Double = 1) {
        guard rect.width > 0, rect.height > 0, rect.minX.isFinite, rect.minY.isFinite,
              rect.maxX.isFinite, rect.maxY.isFinite else { return }
        let alpha = UInt32(opacityByte(opacity))
        guard alpha > 0 else { return }
        // Pixel columns/rows whose centre lies in the rect.
        let x0 = Swift.max(clip.minX, clampToPixel((rect.minX - 0.5).rounded(.up)))
        let x1 = Swift.min(clip.maxX, clampToPixel((rect.maxX - 0.5).rounded(.up)))
        let y0 = Swift.max(clip.minY, clampToPixel((rect.minY - 0.5).rounded(.up)))
        let y1 = Swift.min(clip.maxY, clampToPixel((rect.maxY - 0.5).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let opaqueSource = image.format == .xrgb8888
        let outMask: UInt32 = target.format == .xrgb8888 ? 0x00FF_FFFF : 0xFFFF_FFFF
        let sxScale = Double(image.width) / rect.width, syScale = Double(image.height) / rect.height
        let maxX = image.width - 1, maxY = image.height - 1
        // Source x of each destination column in 16.16 fixed point, computed once per call.
        var columns = [(Int, Int, UInt32)]()
        columns.reserveCapacity(x1 - x0)
        for x in x0..<x1 {
            let u = (Double(x) + 0.5 - rect.minX) * sxScale - 0.5
            let uf = Swift.min(Swift.max(u, 0), Double(maxX))
            let i = Int(uf.rounded(.down))
            columns.append((i, Swift.min(i + 1, maxX), UInt32(((uf - Double(i)) * 256).rounded())))
        }
        for y in y0..<y1 {
            let v = Swift.min(Swift.max((Double(y) + 0.5 - rect.minY) * syScale - 0.5, 0), Double(maxY))
            let j = Int(v.rounded(.down))
            let fy = UInt32(((v - Double(j)) * 256).rounded())
            let top = image.row(j), bottom = image.row(Swift.min(j + 1, maxY))
            let dst = target.row(y)
            for (k, (i0, i1, fx)) in columns.enumerated() {
                var a = top[i0], b = top[i1], c = bottom[i0], d = bottom[i1]
                if opaqueSource { a |= 0xFF00_0000; b |= 0xFF00_0000; c |= 0xFF00_0000; d |= 0xFF00_0000 }
                var p = lerpPixel(lerpPixel(a, b, fx), lerpPixel(c, d, fx), fy)
                if alpha < 255 { p = scalePixel(p, by: alpha) }
                let x = x0 + k
                if p >> 24 == 255 { dst[x] = p & outMask } else if p >> 24 != 0 || p != 0 {
                    dst[x] = sourceOver(p, dst[x] | (outMask == 0x00FF_FFFF ? 0xFF00_0000 : 0)) & outMask
                }
            }
        }
    }
}

extension Canvas {
    /// Composites `image` source-over at its own size with its top-left pixel at (x, y): a copy
    /// with blending, no filtering (colour glyphs, already scaled once to their size). Clipped first.
    public func composite(_ image: PixelBuffer, x: Int, y: Int, opacity: Double = 1) {
        let alpha = UInt32(opacityByte(opacity))
        guard alpha > 0 else { return }
        let r = PixelRect(x: x, y: y, width: image.width, height: image.height).intersection(clip)
        guard !r.isEmpty else { return }
        let opaqueSource = image.format == .xrgb8888
        let outMask: UInt32 = target.format == .xrgb8888 ? 0x00FF_FFFF : 0xFFFF_FFFF
        let dstAlpha: UInt32 = outMask == 0x00FF_FFFF ? 0xFF00_0000 : 0
        for row in r.minY..<r.maxY {
            let src = image.row(row - y) + (r.minX - x), dst = target.row(row) + r.minX
            for i in 0..<r.width {
                var p = src[i]
                if opaqueSource { p |= 0xFF00_0000 }
                if alpha < 255 { p = scalePixel(p, by: alpha) }
                if p >> 24 == 255 { dst[i] = p & outMask } else if p != 0 {
                    dst[i] = sourceOver(p, dst[i] | dstAlpha) & outMask
                }
            }
        }
    }
}

/// Linear interpolation of premultiplied pixels, `t` in 0...256, two channels at a time.
@inlinable @inline(__always)
func lerpPixel(_ a: UInt32, _ b: UInt32, _ t: UInt32) -> UInt32 {
    if t == 0 { return a }
    if t >= 256 { return b }
    let s: UInt32 = 256 - t
    let mask: UInt32 = 0x00FF_00FF
    let aRB: UInt32 = a & mask, bRB: UInt32 = b & mask
    let aAG: UInt32 = (a >> 8) & mask, bAG: UInt32 = (b >> 8) & mask
    let rbSum: UInt32 = aRB &* s &+ bRB &* t &+ 0x0080_0080
    let agSum: UInt32 = aAG &* s &+ bAG &* t &+ 0x0080_0080
    return ((rbSum >> 8) & mask) | (agSum & 0xFF00_FF00)
}
