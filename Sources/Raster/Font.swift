import Geometry

/// Where a text's anchor point sits on its baseline.
public enum TextAlignment: Sendable, Hashable {
    case left, center, right
}

/// A font file loaded through FreeType, with a glyph cache: each (glyph, size) is rasterized once
/// and reused by every later frame, and each glyph outline (for rotated text) is decoded once.
public final class Font {
    let face: FreeTypeFace
    private var bitmaps: [GlyphKey: GlyphBitmap] = [:]
    private var outlines: [UInt32: GlyphOutline] = [:]
    /// Laid-out strings: a menu draws the same labels every frame, and each label is measured
    /// (for truncation) and then laid out again to draw. Emptied whole when it reaches `layoutCacheLimit`.
    private var layouts: [LayoutKey: TextLayout] = [:]
    public static let layoutCacheLimit = 1024
    /// How many laid-out strings are cached (never more than `layoutCacheLimit`).
    public var cachedLayoutCount: Int { layouts.count }
    /// How many glyph bitmaps FreeType has rendered; steady-state frames must not increase it.
    public private(set) var rasterizedGlyphCount = 0
    /// How many glyph outlines have been decoded for rotated text.
    public private(set) var decodedOutlineCount = 0

    /// The ellipsis appended by truncation: U+2026, or three dots if the font lacks it.
    let ellipsis: String

    /// Loads a TrueType/OpenType file; a missing, unreadable or corrupt file is a `.freeType` error.
    public init(path: String) throws(RasterError) {
        face = try FreeTypeFace(path: path)
        ellipsis = face.glyphIndex(of: "\u{2026}") != 0 ? "\u{2026}" : "..."
    }

    /// Default font of the device images (package `fonts-dejavu-core`).
    public static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Distance from the baseline up to the top of tall glyphs and down to the bottom of descenders, in pixels.
    public func lineMetrics(size: Double) -> (ascent: Double, descent: Double) {
        let s = validSize(size) / face.unitsPerEM
        return (face.ascender * s, -face.descender * s)
    }

    /// Whether the font has a glyph for `scalar` (otherwise a fallback box is drawn).
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { face.glyphIndex(of: scalar) != 0 }

    /// Width of `text` at `size` pixels, with kerning, as drawn.
    public func measure(_ text: String, size: Double) -> Double {
        layout(text, size: size).width
    }

    /// `text`, shortened with an ellipsis if needed so that it fits in `maxWidth` pixels.
    public func truncated(_ text: String, size: Double, maxWidth: Double) -> String {
        guard measure(text, size: size) > maxWidth else { return text }
        var scalars = Array(text.unicodeScalars)
        while !scalars.isEmpty {
            scalars.removeLast()
            var candidate = String(String.UnicodeScalarView(scalars))
            while candidate.last == " " { candidate.removeLast() }
            candidate += ellipsis
            if measure(candidate, size: size) <= maxWidth { return candidate }
        }
        return measure(ellipsis, size: size) <= maxWidth ? ellipsis : ""
    }

    // MARK: Layout

    struct PlacedGlyph {
        /// 0 means the font lacks the character: a fallback box is drawn.
        var glyph: UInt32
        /// Pen position from the start of the text, in pixels.
        var x: Double
        var advance: Double
    }

    struct TextLayout {
        var glyphs: [PlacedGlyph]
        var width: Double
    }

    /// Sizes are clamped to 1...1000 px (NaN gives 1): bad sizes draw something small, never trap.
    func validSize(_ size: Double) -> Double { size > 1 ? Swift.min(size, 1000) : 1 }
    func size64(_ size: Double) -> Int { Int((validSize(size) * 64).rounded()) }

    func fallbackAdvance(size: Double) -> Double { (validSize(size) * 0.6).rounded() }

    /// Pen positions with hinted advances and kerning; used both to measure and to draw.
    func layout(_ text: String, size: Double) -> TextLayout {
        let key = LayoutKey(text: text, size: validSize(size))
        if let cached = layouts[key] { return cached }
        let result = uncachedLayout(text, size: size)
        if layouts.count >= Self.layoutCacheLimit { layouts.removeAll(keepingCapacity: true) }
        layouts[key] = result
        return result
    }

    private func uncachedLayout(_ text: String, size: Double) -> TextLayout {
        let px = validSize(size)
        let key64 = size64(px)
        let kernScale = px / face.unitsPerEM
        var placed: [PlacedGlyph] = []
        var pen = 0.0
        var previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            let g = face.glyphIndex(of: scalar)
            var advance = fallbackAdvance(size: px)
            if g != 0 {
                pen += (face.kerningUnits(previous, g) * kernScale).rounded()
                if let bitmap = cachedBitmap(g, size64: key64) { advance = bitmap.advance }
            }
            placed.append(PlacedGlyph(glyph: g, x: pen, advance: advance))
            pen += advance
            previous = g
        }
        return TextLayout(glyphs: placed, width: pen)
    }

    func cachedBitmap(_ glyph: UInt32, size64: Int) -> GlyphBitmap? {
        let key = GlyphKey(glyph: glyph, size64: size64)
        if let b = bitmaps[key] { return b }
        guard let b = try? face.renderGlyph(glyph, size64: size64) else { return nil }
        rasterizedGlyphCount += 1
        bitmaps[key] = b
        return b
    }

    func cachedOutline(_ glyph: UInt32) -> GlyphOutline? {
        if let o = outlines[glyph] { return o }
        guard let o = try? face.outline(glyph) else { return nil }
        decodedOutlineCount += 1
        outlines[glyph] = o
        return o
    }
}

struct LayoutKey: Hashable {
    var text: String
    var size: Double
}

struct GlyphKey: Hashable {
    var glyph: UInt32
    var size64: Int
}

extension Canvas {
    /// Draws `text` with its baseline through `origin`; `alignment` says whether `origin` is the
    /// text's start, middle or end. With `maxWidth`, text that does not fit ends in an ellipsis.
    /// A non-zero `rotation` turns the text about `origin` (dial labels); upright text uses the
    /// cached hinted bitmaps, rotated text the cached outlines through the path rasterizer.
    public func drawText(_ text: String, font: Font, size: Double, at origin: Point, color: Color, opacity: Double = 1,
                         alignment: TextAlignment = .left, maxWidth: Double? = nil, rotation: Angle = .zero) {
        guard origin.isFinite, !text.isEmpty else { return }
        var string = text
        if let maxWidth { string = maxWidth > 0 ? font.truncated(text, size: size, maxWidth: maxWidth) : "" }
        let layout = font.layout(string, size: size)
        let start: Double
        switch alignment {
        case .left: start = 0
        case .center: start = -layout.width / 2
        case .right: start = -layout.width
        }
        let blender = SpanBlender(color: color.premultiplied(opacity: opacity), format: target.format)
        guard !blender.isInvisible else { return }
        let px = font.validSize(size)
        let angle = rotation.radians.isFinite ? rotation.normalized : .zero
        if angle.radians == 0 {
            let baseX = (origin.x + start).rounded(), baseY = origin.y.rounded()
            let key64 = font.size64(px)
            for g in layout.glyphs {
                let penX = Int(baseX + g.x), penY = Int(baseY)
                if g.glyph == 0 {
                    drawFallbackBox(x: Double(penX), baselineY: Double(penY), size: px, blender: blender, transform: nil)
                } else if let bitmap = font.cachedBitmap(g.glyph, size64: key64) {
                    blit(bitmap, x: penX + bitmap.left, y: penY + bitmap.top, blender: blender)
                }
            }
            return
        }
        let place = AffineTransform.rotation(angle).concatenating(.translation(x: origin.x, y: origin.y))
        let unit = px / font.face.unitsPerEM
        for g in layout.glyphs {
            let penX = start + g.x
            if g.glyph == 0 {
                drawFallbackBox(x: penX, baselineY: 0, size: px, blender: blender, transform: place)
            } else if let outline = font.cachedOutline(g.glyph) {
                let t = AffineTransform.scale(x: unit, y: -unit).concatenating(.translation(x: penX, y: 0)).concatenating(place)
                fill(polylines: Flattener.flatten(outline.path, transform: t), blender: blender, rule: .nonZero)
            }
        }
    }

    /// Blends a glyph's coverage bitmap with its top-left pixel at (x, y), clipped first.
    func blit(_ glyph: GlyphBitmap, x: Int, y: Int, blender: SpanBlender) {
        let r = PixelRect(x: x, y: y, width: glyph.width, height: glyph.height).intersection(clip)
        guard !r.isEmpty else { return }
        glyph.coverage.withUnsafeBufferPointer { cov in
            for row in r.minY..<r.maxY {
                let src = cov.baseAddress! + (row - y) * glyph.width + (r.minX - x)
                blender.blendRow(target.row(row) + r.minX, coverage: src, count: r.width)
            }
        }
    }

    /// The visible stand-in for a character the font lacks: a hollow box on the baseline.
    func drawFallbackBox(x: Double, baselineY: Double, size: Double, blender: SpanBlender, transform: AffineTransform?) {
        let advance = (size * 0.6).rounded()
        let inset = Swift.max(1, (size * 0.08).rounded())
        let line = Swift.max(1, (size / 14).rounded())
        let box = Rect(x: x + inset, y: baselineY - (size * 0.7).rounded(), width: advance - 2 * inset, height: (size * 0.7).rounded())
        guard box.width > 2 * line, box.height > 2 * line else { return }
        var path = Path.rect(box)
        let inner = box.insetBy(dx: line, dy: line)
        path.move(to: Point(x: inner.minX, y: inner.minY))
        path.line(to: Point(x: inner.minX, y: inner.maxY))
        path.line(to: Point(x: inner.maxX, y: inner.maxY))
        path.line(to: Point(x: inner.maxX, y: inner.minY))
        path.close()
        fill(polylines: Flattener.flatten(path, transform: transform ?? .identity), blender: blender, rule: .nonZero)
    }
}
