import Geometry

extension PixelBuffer {
    /// A copy scaled to `width` x `height` by area averaging: each new pixel is the mean of the
    /// source pixels under it (weighted by the part covered), so shrinking a large image (a colour
    /// emoji strike, 136 px, drawn at 20 px) keeps its detail instead of skipping pixels. Enlarging
    /// replicates. Premultiplied pixels average correctly channel by channel. Done once per size, never per frame.
    public func boxScaled(width newWidth: Int, height newHeight: Int) throws(RasterError) -> PixelBuffer {
        let out = try PixelBuffer(width: newWidth, height: newHeight, format: format)
        let xs = Self.footprints(from: width, to: newWidth), ys = Self.footprints(from: height, to: newHeight)
        var acc = [Double](repeating: 0, count: 4 * newWidth)
        for (oy, rows) in ys.enumerated() {
            for i in acc.indices { acc[i] = 0 }
            for (sy, wy) in rows {
                let src = row(sy)
                for (ox, cols) in xs.enumerated() {
                    for (sx, wx) in cols {
                        let p = src[sx], w = wx * wy
                        acc[4 * ox] += Double(p & 0xFF) * w
                        acc[4 * ox + 1] += Double((p >> 8) & 0xFF) * w
                        acc[4 * ox + 2] += Double((p >> 16) & 0xFF) * w
                        acc[4 * ox + 3] += Double(p >> 24) * w
                    }
                }
            }
            let dst = out.row(oy)
            for ox in 0..<newWidth {
                func channel(_ k: Int) -> UInt32 { UInt32(Swift.min(255, Swift.max(0, acc[4 * ox + k].rounded()))) }
                dst[ox] = channel(0) | channel(1) << 8 | channel(2) << 16 | (format == .xrgb8888 ? 0 : channel(3) << 24)
            }
        }
        return out
    }

    /// For each of `count` new pixels along one axis, the source pixels it covers and their weights (summing to 1).
    private static func footprints(from size: Int, to count: Int) -> [[(Int, Double)]] {
        let step = Double(size) / Double(count)
        return (0..<count).map { i in
            let a = Double(i) * step, b = Swift.min(Double(size), a + step)
            var parts: [(Int, Double)] = []
            var s = Int(a.rounded(.down))
            while Double(s) < b, s < size {
                let covered = Swift.min(b, Double(s + 1)) - Swift.max(a, Double(s))
                if covered > 0 { parts.append((s, covered / (b - a))) }
                s += 1
            }
            return parts.isEmpty ? [(Swift.min(size - 1, Int(a)), 1)] : parts
        }
    }
}
