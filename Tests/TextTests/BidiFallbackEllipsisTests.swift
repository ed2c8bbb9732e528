import Geometry
import Raster
import Testing
@testable import Text

/// What the Text target promises beyond matching hb-shape: visual order, fallback faces, colour
/// emoji, grapheme-safe ellipsis, caches, and bad text that never crashes or hangs.
@Suite struct BidiFallbackEllipsisTests {
    let font: Font
    init() throws { font = try Font(path: Font.dejaVuSansPath) }

    func clusters(_ text: String) -> [Int] { font.shape(text, size: 20).glyphs.map(\.cluster) }

    @Test func visualOrderOfMixedRuns() {
        // "abc " then Hebrew: the Latin run left to right, then the Hebrew run reversed.
        #expect(clusters("ab אבג") == [0, 1, 2, 5, 4, 3])
        // An RTL paragraph (first strong character Hebrew): the Latin run sits at the left end.
        let rtl = font.shape("אב cd", size: 20)
        #expect(rtl.isRightToLeft)
        #expect(rtl.glyphs.map(\.cluster) == [3, 4, 2, 1, 0])
        // Forced directions override the first strong character.
        #expect(font.shape("ab", size: 20, direction: .rightToLeft).isRightToLeft)
        #expect(!font.shape("אב", size: 20, direction: .leftToRight).isRightToLeft)
        #expect(font.direction(of: "123 !") == .leftToRight)
        #expect(font.direction(of: "123 !", otherwise: .rightToLeft) == .rightToLeft)
        #expect(font.direction(of: "1 قهوة") == .rightToLeft)
    }

    @Test func bidiRunReorderingRuleL2() {
        #expect(Bidi.visualOrder(levels: [0, 1, 1, 0]) == [0, 2, 1, 3])
        #expect(Bidi.visualOrder(levels: [1, 2, 1]) == [2, 1, 0])
        #expect(Bidi.visualOrder(levels: [0, 0]) == [0, 1])
        #expect(Bidi.visualOrder(levels: []) == [])
    }

    @Test func arabicLettersJoin() {
        let word = font.shape("قهوة", size: 20).glyphs.map(\.glyph)
        let alone = "قهوة".unicodeScalars.map { font.shape(String($0), size: 20).glyphs.first!.glyph }
        #expect(word.count == 4)
        // Initial and medial forms differ from the isolated letters (visual order is reversed).
        #expect(Set(word) != Set(alone), "word \(word), isolated \(alone)")
    }

    @Test func charactersTheFontLacksComeFromFallbacks() throws {
        for text in ["咖啡", "कॉफ़ी", "காபி", "กาแฟ", "커피", "コーヒー"] {
            let shaped = font.shape(text, size: 24)
            #expect(!shaped.glyphs.isEmpty)
            #expect(shaped.glyphs.allSatisfy { $0.glyph != 0 && $0.face != 0 }, "\(text): \(shaped.glyphs)")
            #expect(font.missingScalars(in: text).isEmpty)
        }
        #expect(font.missingScalars(in: "a\u{0378}b\u{0378}") == ["\u{0378}"])
        // Without fallback, the same text is boxes (glyph 0) from the one face.
        let alone = try Font(path: Font.dejaVuSansPath, fallback: false)
        #expect(alone.shape("咖啡", size: 24).glyphs.allSatisfy { $0.glyph == 0 && $0.face == 0 })
    }

    @Test func colourEmojiSequencesAreOneGlyphInColour() throws {
        for text in ["👩‍👩‍👧", "🇩🇪", "👍🏽", "1️⃣"] {
            let shaped = font.shape(text, size: 32)
            #expect(shaped.glyphs.count == 1, "\(text): \(shaped.glyphs)")
            let face = font.faces[shaped.glyphs[0].face]
            #expect(face.freeType.isColorBitmap, "\(text) from \(face.file.path)")
        }
        // Text presentation (FE0E) stays with the text font.
        let text = font.shape("\u{263A}\u{FE0E}", size: 32)
        #expect(!font.faces[text.glyphs[0].face].freeType.isColorBitmap)
        // Drawn, an emoji brings colour: some pixel is strongly yellow (🙂's face).
        let buffer = try PixelBuffer(width: 60, height: 50)
        let canvas = Canvas(buffer)
        canvas.clear(.white)
        canvas.drawText("🙂", font: font, size: 32, at: Point(x: 8, y: 38), color: .black)
        var yellow = 0
        for y in 0..<50 { for x in 0..<60 {
            let p = buffer[x, y]!
            let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
            if r > 200, g > 150, b < 100 { yellow += 1 }
        } }
        #expect(yellow > 100, "yellow pixels: \(yellow)")
    }

    @Test func ellipsisNeverCutsAGraphemeAndSitsAtTheLogicalEnd() {
        let family = "👩‍👩‍👧"
        let text = String(repeating: family, count: 6)
        let short = font.truncated(text, size: 24, maxWidth: 100)
        #expect(short.hasSuffix("\u{2026}"))
        let kept = short.dropLast()
        #expect(!kept.isEmpty && kept.allSatisfy { String($0) == family }, "\(short.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(font.measure(short, size: 24) <= 100)
        // Devanagari: a consonant keeps its vowel sign.
        let hindi = font.truncated("कॉफ़ी कॉफ़ी कॉफ़ी कॉफ़ी", size: 24, maxWidth: 90)
        #expect("कॉफ़ी कॉफ़ी कॉफ़ी कॉफ़ी".hasPrefix(String(hindi.dropLast())))
        #expect(hindi.last == "\u{2026}")
        // Arabic: the ellipsis follows the kept letters logically, and so is drawn at the left.
        let arabic = font.truncated("السلام عليكم ورحمة الله", size: 24, maxWidth: 120)
        #expect(arabic.hasSuffix("\u{2026}") && arabic.count < "السلام عليكم ورحمة الله".count)
        let shaped = font.shape(arabic, size: 24)
        let ellipsisIndex = arabic.unicodeScalars.count - 1
        #expect(shaped.glyphs.first?.cluster == ellipsisIndex, "\(shaped.glyphs.map(\.cluster))")
        // Nothing fits: nothing drawn; fits: unchanged.
        #expect(font.truncated(text, size: 24, maxWidth: 1) == "")
        #expect(font.truncated("Fits", size: 16, maxWidth: 120) == "Fits")
    }

    @Test func hostileTextIsBoundedAndNeverCrashes() throws {
        let buffer = try PixelBuffer(width: 200, height: 40)
        let canvas = Canvas(buffer)
        let storm = String(repeating: "\u{202E}\u{202A}\u{2067}", count: 2000) + "abc" + String(repeating: "\u{202C}\u{2069}", count: 2000)
        let marks = "a" + String(repeating: "\u{0301}", count: 5000)
        let long = String(repeating: "قهوة ", count: 2000)
        let odd = "\u{0378}\u{E0080}\u{F8FF}\u{10FFFD}\u{FFFE}\u{0000}"
        let broken = String(decoding: [0x61, 0xED, 0xA0, 0x80, 0x62, 0xFF], as: UTF8.self)  // a lone surrogate's bytes, and 0xFF
        for text in [storm, marks, long, odd, broken] {
            let shaped = font.shape(text, size: 16)
            #expect(shaped.scalarCount <= Font.maximumScalars)
            #expect(shaped.width.isFinite)
            let short = font.truncated(text, size: 16, maxWidth: 150)
            #expect(font.measure(short, size: 16) <= 150)
            canvas.drawText(text, font: font, size: 16, at: Point(x: 2, y: 30), color: .white, maxWidth: 190)
        }
    }

    /// Found by the fuzzer: Debian 12's FriBidi 1.0.8 writes outside its stack on this label (its
    /// initiators overflow the depth limit, then unmatched PDIs follow) and the kiosk died with it.
    @Test func fribidiDepthOverflowIsGuarded() throws {
        var text = "\u{202B}\u{200F}"
        for _ in 0..<21 { text += "\u{2066}\u{202D}\u{2068}" }
        text += "\u{200F}" + String(repeating: "\u{2069}", count: 42) + "abc"
        let shaped = font.shape(text, size: 16)
        #expect(shaped.glyphs.contains { $0.glyph != 0 })
        let buffer = try PixelBuffer(width: 100, height: 30)
        Canvas(buffer).drawText(text, font: font, size: 16, at: Point(x: 2, y: 20), color: .white, maxWidth: 90)
        // Ordinary controls keep their meaning: an RLO turns Latin letters around.
        let levels = Bidi.levels(Array("\u{202E}abc\u{202C}".unicodeScalars.map(\.value)), direction: .leftToRight).levels
        #expect(levels[1...3].allSatisfy { $0 == 1 }, "\(levels)")
        #expect(Bidi.withinFriBidisDepth(Array(text.unicodeScalars.map(\.value))).allSatisfy { !Bidi.isExplicitControl($0) })
    }

    /// Canonically equivalent strings are different texts to shape: their clusters index different code points.
    @Test func cacheKeysAreTheBytesNotCanonicalEquivalence() {
        let decomposed = font.shape("e\u{301}", size: 20), composed = font.shape("\u{E9}", size: 20)
        #expect(decomposed.scalarCount == 2 && composed.scalarCount == 1)
        #expect(TextKey(text: "e\u{301}") != TextKey(text: "\u{E9}"))
        #expect(TextKey(text: "قهوة") == TextKey(text: "قهوة"))
    }

    @Test func steadyFramesShapeAndRasterizeNothing() throws {
        let buffer = try PixelBuffer(width: 300, height: 60)
        let canvas = Canvas(buffer)
        let labels = ["Café قهوة 2", "咖啡 👩‍👩‍👧", "कॉफ़ी"]
        for l in labels { canvas.drawText(l, font: font, size: 20, at: Point(x: 4, y: 40), color: .white, maxWidth: 120) }
        let glyphs = font.rasterizedGlyphCount, shaped = font.cachedLayoutCount
        for _ in 0..<3 {
            for l in labels { canvas.drawText(l, font: font, size: 20, at: Point(x: 4, y: 40), color: .white, maxWidth: 120) }
        }
        #expect(font.rasterizedGlyphCount == glyphs)
        #expect(font.cachedLayoutCount == shaped)
    }

    @Test func fontsByFamilyAndBadFonts() throws {
        let byFamily = try Font(named: "DejaVu Sans")
        #expect(byFamily.facePaths.first?.hasSuffix("DejaVuSans.ttf") == true)
        #expect(Font.namesFile("fonts/My.ttf") && Font.namesFile("My.OTF") && !Font.namesFile("Noto Sans"))
        #expect(throws: TextError.self) { try Font(named: "No Such Family Anywhere") }
        #expect(throws: TextError.self) { try Font(named: "/nonexistent/font.ttf") }
        #expect(throws: TextError.self) { try Font(named: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf") }
        do { _ = try Font(named: "No Such Family Anywhere") } catch {
            #expect("\(error)".contains("No Such Family Anywhere") && "\(error)".contains("fontconfig would use"))
        }
    }
}
