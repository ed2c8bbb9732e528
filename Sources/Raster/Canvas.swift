import Geometry

/// Draws into a `PixelBuffer` through a clip rectangle: every operation is clipped first, then drawn.
///
/// A canvas owns the scratch memory of its rasterizer, so keep one per target and reuse it.
public final class Canvas {
    public let target: PixelBuffer
    /// Only pixels inside this rectangle (always within the target) are ever written.
    public private(set) var clip: PixelRect
    @usableFromInline let rasterizer = CoverageRasterizer()

    public init(_ target: PixelBuffer) {
        self.target = target
        self.clip = target.bounds
    }

    /// Narrows the clip to `rect` while `body` runs.
    public func withClip<R>(_ rect: PixelRect, _ body: () throws -> R) rethrows -> R {
        let saved = clip
        clip = clip.intersection(rect)
        defer { clip = saved }
        return try body()
    }

    /// Sets the clip to `rect` within the target.
    public func setClip(_ rect: PixelRect) { clip = rect.intersection(target.bounds) }
    public func resetClip() { clip = target.bounds }

    // MARK: Solid fills

    /// Fills the clip (or `rect` within it) with `color`, replacing what was there.
    public func clear(_ color: Color, rect: PixelRect? = nil) {
        let r = (rect ?? clip).intersection(clip)
        guard !r.isEmpty else { return }
        let value = target.format == .xrgb8888 ? color.premultiplied() & 0x00FF_FFFF : color.premultiplied()
        for y in r.minY..<r.maxY { (target.row(y) + r.x).update(repeating: value, count: r.width) }
    }

    /// Fills an axis-aligned rectangle with exact anti-aliased edges: fractional rows and columns get
    /// their covered fraction; whole pixels get a solid span. Faster than a general path.
    public func fill(_ rect: Rect, color: Color, opacity: Double = 1) {
        let blender = SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format)
        guard !blender.isInvisible, rect.width > 0, rect.height > 0,
              rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return }
        let c = clip.rect
        let x0 = Swift.max(rect.minX, c.minX), x1 = Swift.min(rect.maxX, c.maxX)
        let y0 = Swift.max(rect.minY, c.minY), y1 = Swift.min(rect.maxY, c.maxY)
        guard x1 > x0, y1 > y0 else { return }
        let ix0 = Int(x0.rounded(.down)), ix1 = Int(x1.rounded(.up))
        let iy0 = Int(y0.rounded(.down)), iy1 = Int(y1.rounded(.up))
        // Horizontal coverage of the first and last column (one column if they coincide).
        let leftCov = ix0 + 1 == ix1 ? x1 - x0 : Double(ix0 + 1) - x0
        let rightCov = x1 - Double(ix1 - 1)
        for y in iy0..<iy1 {
            let cy = Swift.min(y1, Double(y + 1)) - Swift.max(y0, Double(y))
            let row = target.row(y)
            if ix0 + 1 == ix1 {
                blender.fill(row + ix0, count: 1, coverage: coverageByte(leftCov * cy))
                continue
            }
            blender.fill(row + ix0, count: 1, coverage: coverageByte(leftCov * cy))
            if ix1 - ix0 > 2 { blender.fill(row + ix0 + 1, count: ix1 - ix0 - 2, coverage: coverageByte(cy)) }
            blender.fill(row + ix1 - 1, count: 1, coverage: coverageByte(rightCov * cy))
        }
    }

    /// Fills a rectangle with rounded corners. Only the rows that hold corners go through the path
    /// rasterizer; the rows between them have straight sides and take the rectangle fast path, which
    /// is most of a menu row.
    public func fill(_ rect: Rect, radii: CornerRadii, color: Color, opacity: Double = 1) {
        let blender = SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format)
        guard !blender.isInvisible, rect.width > 0, rect.height > 0,
              rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return }
        let c = radii.fitted(to: rect.size)
        let corners = Flattener.flatten(.roundedRect(rect, radii: c), transform: .identity)
        // Whole rows strictly between the top corners' lowest point and the bottom corners' highest.
        let topBand = (rect.minY + Swift.max(c.topLeft, c.topRight)).rounded(.up)
        let bottomBand = (rect.maxY - Swift.max(c.bottomLeft, c.bottomRight)).rounded(.down)
        guard bottomBand > topBand, Swift.abs(topBand) < 1e9, Swift.abs(bottomBand) < 1e9 else {
            fill(polylines: corners, blender: blender, rule: .nonZero)
            return
        }
        let top = Int(topBand), bottom = Int(bottomBand)
        withClip(PixelRect(x: clip.x, y: clip.y, width: clip.width, height: top - clip.y)) {
            fill(polylines: corners, blender: blender, rule: .nonZero)
        }
        withClip(PixelRect(x: clip.x, y: bottom, width: clip.width, height: clip.maxY - bottom)) {
            fill(polylines: corners, blender: blender, rule: .nonZero)
        }
        fill(Rect(x: rect.minX, y: topBand, width: rect.width, height: bottomBand - topBand), color: color, opacity: opacity)
    }

    /// Strokes the outline of a rectangle with rounded corners, centred on it, `width` pixels wide.
    /// (Unlike the fill, the stroke gains nothing measurable from drawing its straight middle rows
    /// as rectangles: its cost is in the corners' inner and outer arcs.)
    public func stroke(_ rect: Rect, radii: CornerRadii, width: Double, color: Color, opacity: Double = 1) {
        guard rect.width > 0, rect.height > 0 else { return }
        stroke(.roundedRect(rect, radii: radii), width: width, color: color, opacity: opacity)
    }

    /// Fills `shape`: its rectangle with the chosen corners rounded.
    public func fill(_ shape: RoundedRect, color: Color, opacity: Double = 1) {
        fill(shape.rect, radii: CornerRadii(shape), color: color, opacity: opacity)
    }

    /// Strokes the outline of `shape`, centred on it.
    public func stroke(_ shape: RoundedRect, width: Double, color: Color, opacity: Double = 1) {
        stroke(shape.rect, radii: CornerRadii(shape), width: width, color: color, opacity: opacity)
    }

    // MARK: Paths

    /// Fills `path` (transformed by `transform`) with `color` at `opacity`.
    public func fill(_ path: Path, color: Color, opacity: Double = 1, rule: FillRule = .nonZero, transform: AffineTransform = .identity) {
        let blender = SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format)
        guard !blender.isInvisible else { return }
        fill(polylines: Flattener.flatten(path, transform: transform), blender: blender, rule: rule)
    }

    /// Strokes `path` with a line `width` pixels wide (scaled by the transform's area scale),
    /// miter/round joins and the given caps.
    public func stroke(_ path: Path, width: Double, color: Color, opacity: Double = 1, cap: LineCap = .butt, transform: AffineTransform = .identity) {
        let blender = SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format)
        guard !blender.isInvisible else { return }
        let scale = Swift.abs(transform.determinant).squareRoot()
        let outline = Stroker.outline(of: Flattener.flatten(path, transform: transform), width: width * scale, cap: cap)
        fill(polylines: outline, blender: blender, rule: .nonZero)
    }

    @usableFromInline func fill(polylines: [Polyline], blender: SpanBlender, rule: FillRule) {
        guard !polylines.isEmpty, !clip.isEmpty else { return }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for poly in polylines {
            for p in poly.points {
                minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
                minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return }
        // Everything left of the bounding box still matters for winding, but nothing left of the clip shows,
        // so the area starts at the clip's left edge when the shape extends past it.
        let box = PixelRect(covering: Rect(x: minX, y: minY, width: Swift.max(maxX - minX, 1e-9), height: Swift.max(maxY - minY, 1e-9)))
        let area = box.intersection(clip)
        guard !area.isEmpty else { return }
        rasterizer.reset(width: area.width, height: area.height)
        rasterizer.addPolylines(polylines, originX: area.x, originY: area.y)
        let target = self.target
        rasterizer.sweep(rule: rule, partial: { row, x, coverage, count in
            blender.blendRow(target.row(area.y + row) + area.x + x, coverage: coverage, count: count)
        }, constant: { row, x, count, coverage in
            blender.fill(target.row(area.y + row) + area.x + x, count: count, coverage: coverage)
        })
    }
}

/// A coverage fraction (0...1) as a byte, rounded.
@inlinable func coverageByte(_ c: Double) -> UInt32 {
    guard c > 0 else { return 0 }
    return c >= 1 ? 255 : UInt32(c * 255 + 0.5)
}
