import Testing
@testable import Text

/// A glyph FreeType cannot render is asked for once, not at every frame that shows it.
@Suite struct GlyphCacheTests {
    @Test func aFailedGlyphIsNotRetried() throws {
        let face = try FontFace(FontFileRef(path: Font.dejaVuSansPath, index: 0))
        let missing: UInt32 = 0x7FFF_FFFF  // beyond the face's glyphs: FT_Load_Glyph fails
        #expect(face.bitmap(missing, size64: 20 * 64) == nil)
        #expect(face.bitmap(missing, size64: 20 * 64) == nil)
        #expect(face.failedGlyphCount == 1)
        #expect(face.bitmap(missing, size64: 30 * 64) == nil, "another size is another glyph")
        #expect(face.failedGlyphCount == 2)
        #expect(face.outline(missing) == nil && face.outline(missing) == nil)
        #expect(face.failedGlyphCount == 3)
        let a = face.freeType.glyphIndex(of: "A")
        #expect(face.bitmap(a, size64: 20 * 64) != nil && face.bitmap(a, size64: 20 * 64) != nil)
        #expect(face.rasterizedGlyphCount == 1 && face.failedGlyphCount == 3)
    }
}
