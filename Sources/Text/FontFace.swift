import Raster

/// One face of one font file, as FreeType draws it and HarfBuzz shapes it, with its glyph caches:
/// each (glyph, size) is rasterized once and reused by every later frame, each outline (for
/// rotated text) decoded once.
final class FontFace {
    let file: FontFileRef
    let freeType: FreeTypeFace
    let harfBuzz: HarfBuzzFont
    private var bitmaps: [GlyphKey: GlyphBitmap] = [:]
    private var outlines: [UInt32: GlyphOutline] = [:]
    private(set) var rasterizedGlyphCount = 0
    private(set) var decodedOutlineCount = 0

    init(_ file: FontFileRef) throws(TextError) {
        self.file = file
        freeType = try FreeTypeFace(path: file.path, index: file.index)
        harfBuzz = try HarfBuzzFont(path: file.path, index: file.index)
    }

    func has(_ scalar: UInt32) -> Bool {
        guard let s = Unicode.Scalar(scalar) else { return false }
        return freeType.glyphIndex(of: s) != 0
    }

    func bitmap(_ glyph: UInt32, size64: Int) -> GlyphBitmap? {
        let key = GlyphKey(glyph: glyph, size64: size64)
        if let b = bitmaps[key] { return b }
        guard let b = try? freeType.renderGlyph(glyph, size64: size64) else { return nil }
        rasterizedGlyphCount += 1
        bitmaps[key] = b
        return b
    }

    func outline(_ glyph: UInt32) -> GlyphOutline? {
        if let o = outlines[glyph] { return o }
        guard let o = try? freeType.outline(glyph) else { return nil }
        decodedOutlineCount += 1
        outlines[glyph] = o
        return o
    }
}

struct GlyphKey: Hashable {
    var glyph: UInt32
    var size64: Int
}
