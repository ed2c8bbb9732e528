import Geometry
import Raster

extension Canvas {
    /// Draws `text` with its baseline through `origin`; `alignment` says whether `origin` is the
    /// text's left end, middle or right end. With `maxWidth`, text that does not fit is shortened
    /// with an ellipsis at its logical end. A non-zero `rotation` turns the text about `origin` (dial
    /// labels): upright text uses the cached hinted bitmaps, rotated text the cached outlines through
    /// the path rasterizer (colour emoji stay upright at their rotated place: they have no outline).
    public func drawText(_ text: String, font: Font, size: Double, at origin: Point, color: Color, opacity: Double = 1,
                         alignment: TextAlignment = .left, maxWidth: Double? = nil, rotation: Angle = .zero,
                         direction: TextDirection = .auto) {
        guard origin.isFinite, abs(origin.x) < 1e7, abs(origin.y) < 1e7, !text.isEmpty, opacity > 0 else { return }
        var string = text
        if let maxWidth { string = maxWidth > 0 ? font.truncated(text, size: size, maxWidth: maxWidth) : "" }
        let line = font.shape(string, size: size, direction: direction)
        draw(line, font: font, size: size, at: origin, color: color, opacity: opacity, alignment: alignment, rotation: rotation)
    }

    /// Draws an already shaped line (see `drawText`).
    public func draw(_ line: ShapedText, font: Font, size: Double, at origin: Point, color: Color, opacity: Double = 1,
                     alignment: TextAlignment = .left, rotation: Angle = .zero) {
        guard origin.isFinite, abs(origin.x) < 1e7, abs(origin.y) < 1e7, !line.glyphs.isEmpty else { return }
        let start: Double
        switch alignment {
        case .left: start = 0
        case .center: start = -line.width / 2
        case .right: start = -line.width
        }
        let px = Font.validSize(size)
        let key64 = Font.size64(px)
        let angle = rotation.radians.isFinite ? rotation.normalized : .zero
        if angle.radians == 0 {
            let baseX = origin.x + start, baseY = origin.y
            for g in line.glyphs {
                let penX = Int((baseX + g.x).rounded()), penY = Int((baseY + g.y).rounded())
                let face = font.faces[g.face]
                if g.glyph == 0 {
                    drawFallbackBox(x: Double(penX), baselineY: Double(penY), advance: g.advance, size: px, color: color,
                                    opacity: opacity, transform: nil)
                } else if let bitmap = face.bitmap(g.glyph, size64: key64) {
                    if let image = bitmap.color {
                        composite(image, x: penX + bitmap.left, y: penY + bitmap.top, opacity: opacity)
                    } else {
                        blend(coverage: bitmap.coverage, width: bitmap.width, height: bitmap.height,
                              x: penX + bitmap.left, y: penY + bitmap.top, color: color, opacity: opacity)
                    }
                }
            }
            return
        }
        let place = AffineTransform.rotation(angle).concatenating(.translation(x: origin.x, y: origin.y))
        for g in line.glyphs {
            let penX = start + g.x
            let face = font.faces[g.face]
            if g.glyph == 0 {
                drawFallbackBox(x: penX, baselineY: g.y, advance: g.advance, size: px, color: color, opacity: opacity, transform: place)
            } else if let outline = face.outline(g.glyph) {
                let unit = px / face.freeType.unitsPerEM
                let t = AffineTransform.scale(x: unit, y: -unit).concatenating(.translation(x: penX, y: g.y)).concatenating(place)
                fill(outline.path, color: color, opacity: opacity, transform: t)
            } else if let bitmap = face.bitmap(g.glyph, size64: key64), let image = bitmap.color {
                let at = place.apply(Point(x: penX, y: g.y))
                composite(image, x: Int((at.x + Double(bitmap.left)).rounded()), y: Int((at.y + Double(bitmap.top)).rounded()),
                          opacity: opacity)
            }
        }
    }

    /// The visible stand-in for a character no font has: a hollow box on the baseline.
    func drawFallbackBox(x: Double, baselineY: Double, advance: Double, size: Double, color: Color, opacity: Double,
                         transform: AffineTransform?) {
        let width = advance > 0 ? advance : (size * 0.6).rounded()
        let inset = Swift.max(1, (size * 0.08).rounded())
        let line = Swift.max(1, (size / 14).rounded())
        let box = Rect(x: x + inset, y: baselineY - (size * 0.7).rounded(), width: width - 2 * inset, height: (size * 0.7).rounded())
        guard box.width > 2 * line, box.height > 2 * line else { return }
        var path = Path.rect(box)
        let inner = box.insetBy(dx: line, dy: line)
        path.move(to: Point(x: inner.minX, y: inner.minY))
        path.line(to: Point(x: inner.minX, y: inner.maxY))
        path.line(to: Point(x: inner.maxX, y: inner.maxY))
        path.line(to: Point(x: inner.maxX, y: inner.minY))
        path.close()
        fill(path, color: color, opacity: opacity, transform: transform ?? .identity)
    }
}
