import Raster

/// One face of one font file, as FreeType draws it and HarfBuzz shapes it, with its glyph caches:
/// each (glyph, size) is rasterized once and reused by every later frame, each outline (for
/// rotated text) decoded once. A glyph that FreeType cannot render or decode is remembered too,
/// and not tried again at every frame.
final class FontFace {
    let file: FontFileRef
    let freeType: FreeTypeFace
    let harfBuzz: HarfBuzzFont
    private var bitmaps: [GlyphKey: GlyphBitmap] = [:]
    private var outlines: [UInt32: GlyphOutline] = [:]
    /// Glyphs that failed (or, for outlines, have none): nil next time without asking FreeType.
    private var failedBitmaps: Set<GlyphKey> = []
    private var failedOutlines: Set<UInt32> = []
    private(set) var rasterizedGlyphCount = 0
    private(set) var decodedOutlineCount = 0
    /// Calls to FreeType that gave no bitmap or outline.
    private(set) var failedGlyphCount = 0

    init(_ file: FontFileRef) throws(TextError) {
        self.file = file
        freeType = try FreeTypeFace(path: file.path, index: file.index)
        harfBuzz = try HarfBuzzFont(path: file.path, index: file.index)
    }

    func has(_ scalar: UInt32) -> Bool {
        guard let s = Unicode.Scalar(scalar) else { return false }
        return freeType.glyphIndex(of: s) != 0
    }

    /// The glyph at a size in 26.6 pixels; nil when FreeType cannot render it (the glyph is
    /// left out of the text, as before; the error says nothing a frame could act on).
    func bitmap(_ glyph: UInt32, size64: Int) -> GlyphBitmap? {
        let key = GlyphKey(glyph: glyph, size64: size64)
        if let b = bitmaps[key] { return b }
        guard !failedBitmaps.contains(key) else { return nil }
        guard let b = try? freeType.renderGlyph(glyph, size64: size64) else {
            failedBitmaps.insert(key)
            failedGlyphCount += 1
            return nil
        }
        rasterizedGlyphCount += 1
        bitmaps[key] = b
        return b
    }

    /// The glyph's outline in font units; nil when it has none or FreeType cannot decode it.
    func outline(_ glyph: UInt32) -> GlyphOutline? {
        if let o = outlines[glyph] { return o }
        guard !failedOutlines.contains(glyph) else { return nil }
        guard let o = try? freeType.outline(glyph) else {
            failedOutlines.insert(glyph)
            failedGlyphCount += 1
            return nil
        }
        decodedOutlineCount += 1
        outlines[glyph] = o
        return o
    }
}

struct GlyphKey: Hashable {
    var glyph: UInt32
    var size64: Int
}
