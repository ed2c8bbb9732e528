import Geometry

extension Canvas {
    /// Blends `color` through an 8-bit coverage mask (a glyph, `width * height` bytes, rows packed)
    /// whose top-left pixel lands at (x, y). The mask is clipped first, then blended a row at a time.
    public func blend(coverage: [UInt8], width: Int, height: Int, x: Int, y: Int, color: Color, opacity: Double = 1) {
        guard width > 0, height > 0, coverage.count >= width * height else { return }
        let r = PixelRect(x: x, y: y, width: width, height: height).intersection(clip)
        guard !r.isEmpty else { return }
        let blender = SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format)
        guard !blender.isInvisible else { return }
        coverage.withUnsafeBufferPointer { cov in
            for row in r.minY..<r.maxY {
                let src = cov.baseAddress! + (row - y) * width + (r.minX - x)
                blender.blendRow(target.row(row) + r.minX, coverage: src, count: r.width)
            }
        }
    }
}
