import Foundation
import Geometry
import Raster
import Testing
import Text

// The kiosk's text against HarfBuzz's own tools, for one string per script the kiosk promises:
// the glyphs it draws (ids, clusters, advances, offsets in visual order) must be exactly hb-shape's
// for the same font file and size, and the ink it puts on the page must match hb-view's picture
// (colour emoji, which this hb-view cannot draw, against the emoji font's own PNG strikes).

/// One string, the font file the kiosk is given, and the file its glyphs must come from.
struct ReferenceCase: Sendable, CustomTestStringConvertible {
    /// File-name-safe, for the images a failure writes.
    let name: String
    let text: String
    /// The kiosk's font (`Font(path:)`) and hb-shape's, except for emoji.
    let font: String
    var faceIndex = 0
    /// Emoji: the kiosk's font is DejaVu Sans, the glyphs come from its colour emoji face, and the
    /// reference is hb-shape on Noto Color Emoji.
    var emoji = false

    var testDescription: String { "\(name) \"\(text)\"" }
    /// The file every glyph must come from and that hb-shape is given.
    var referenceFont: String { emoji ? Fonts.emoji : font }

    static let all: [ReferenceCase] = [
        ReferenceCase(name: "arabic-coffee", text: "قهوة", font: Fonts.arabic),
        // Lam-alef: the font's ligature, one glyph for two letters (one cluster).
        ReferenceCase(name: "arabic-greeting", text: "السلام عليكم", font: Fonts.arabic),
        ReferenceCase(name: "arabic-greeting-naskh", text: "السلام عليكم", font: Fonts.naskh),
        ReferenceCase(name: "hebrew", text: "קפה עם חלב", font: Fonts.hebrew),
        ReferenceCase(name: "persian", text: "قهوه فارسی", font: Fonts.arabic),
        // ZWNJ (U+200C) after mim-yeh: "mi-" stays unjoined from the verb.
        ReferenceCase(name: "persian-zwnj", text: "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}", font: Fonts.arabic),
        // क ॉ फ ़ ी: a candra o, a nukta on pha, and the i-matra.
        ReferenceCase(name: "devanagari-coffee", text: "\u{915}\u{949}\u{92B}\u{93C}\u{940}", font: Fonts.devanagari),
        // ह ि न ् द ी: the short i drawn before its consonant, the conjunct n+d.
        ReferenceCase(name: "devanagari-hindi", text: "\u{939}\u{93F}\u{928}\u{94D}\u{926}\u{940}", font: Fonts.devanagari),
        ReferenceCase(name: "bengali", text: "কফি", font: Fonts.bengali),
        ReferenceCase(name: "tamil", text: "காபி", font: Fonts.tamil),
        ReferenceCase(name: "thai", text: "กาแฟเย็น", font: Fonts.thai),
        ReferenceCase(name: "chinese", text: "咖啡 关机", font: Fonts.cjk),
        ReferenceCase(name: "japanese", text: "コーヒー", font: Fonts.cjk),
        ReferenceCase(name: "korean", text: "커피", font: Fonts.cjk),
        ReferenceCase(name: "greek", text: "Σύστημα", font: Fonts.latin),
        ReferenceCase(name: "cyrillic", text: "Кофе", font: Fonts.latin),
        // Woman, ZWJ, woman, ZWJ, girl: one ligature glyph.
        ReferenceCase(name: "emoji-family", text: "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}", font: Fonts.dejaVu, emoji: true),
        // Regional indicators D and E: the German flag.
        ReferenceCase(name: "emoji-flag", text: "\u{1F1E9}\u{1F1EA}", font: Fonts.dejaVu, emoji: true),
        // Thumbs up with the medium skin tone modifier.
        ReferenceCase(name: "emoji-skin-tone", text: "\u{1F44D}\u{1F3FD}", font: Fonts.dejaVu, emoji: true),
    ]
    /// The cases hb-view can draw (not colour emoji). A property, not a closure in `@Test(arguments:)`:
    /// that crashes Swift 6.0.3's compiler.
    static let drawable: [ReferenceCase] = all.filter { !$0.emoji }
}

enum Fonts {
    static let noto = "/usr/share/fonts/truetype/noto/"
    static let arabic = noto + "NotoSansArabic-Regular.ttf"
    static let naskh = noto + "NotoNaskhArabic-Regular.ttf"
    static let hebrew = noto + "NotoSansHebrew-Regular.ttf"
    static let devanagari = noto + "NotoSansDevanagari-Regular.ttf"
    static let bengali = noto + "NotoSansBengali-Regular.ttf"
    static let tamil = noto + "NotoSansTamil-Regular.ttf"
    static let thai = noto + "NotoSansThai-Regular.ttf"
    static let latin = noto + "NotoSans-Regular.ttf"
    static let emoji = noto + "NotoColorEmoji.ttf"
    /// WenQuanYi Micro Hei, face 0 of its collection: Chinese, Japanese kana and Korean hangul.
    static let cjk = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
}

/// The size everything is shaped and drawn at, px: large enough that a one-pixel difference in
/// where two renderers put a stroke is a small part of it, as on the kiosk's large labels.
let referenceSize = 32
/// Margin of hb-view's picture and of the kiosk's page, px.
let referenceMargin = 12
/// The least ink similarity (see `InkComparison`) the kiosk must reach against the reference.
/// Measured (Debian 12: FreeType 2.12, cairo 1.16, HarfBuzz 6.0, these fonts at 32 px): correct
/// renderings 0.83 (Greek; Noto Sans's thin Latin-like strokes move most under hinting: the
/// kiosk snaps them vertically with FT_LOAD_TARGET_LIGHT and rounds every glyph origin to a whole
/// pixel, hb-view's cairo draws unhinted) to 0.985 (Hebrew), 0.96 to 0.98 for colour emoji. Wrong
/// text: 0.21 to 0.56 for reversed, unjoined, reordered or unshaped letters, another font or flag,
/// 0.68 for another skin tone (see `inkSimilarityRejectsWrongText`). 0.75 sits between the two.
let minimumInkSimilarity = 0.75
/// The most stray pixels (see `InkComparison`) allowed each way. Correct renderings have none; a
/// missing nukta (a dot) leaves 9, a missing tonos 16, a missing Thai vowel mark 49 (those three
/// barely move the similarity: 0.82 to 0.92).
let maximumStrayPixels = 4
/// How far (px, either axis) the best alignment may be from where both pictures were drawn: same
/// margin, same pen start, baseline at the margin plus the font's ascent (FreeType's for the kiosk,
/// HarfBuzz's for hb-view). Measured: 0 everywhere but Greek's 1 (rounding of the baseline).
let maximumInkShift = 2

/// The kiosk's glyphs in hb-shape's terms: advances and offsets in 1/64 px, pen positions
/// recovered from the running sum of advances. A position that is not a whole 1/64 is recorded.
func referenceGlyphs(_ shaped: ShapedText, sourceLocation: SourceLocation = #_sourceLocation) -> [ReferenceGlyph] {
    var pen = 0.0
    return shaped.glyphs.map { g in
        func units(_ px: Double) -> Int {
            let u = px * 64
            if abs(u - u.rounded()) > 1e-6 { Issue.record("glyph \(g.glyph): \(px) px is not a whole 1/64 px", sourceLocation: sourceLocation) }
            return Int(u.rounded())
        }
        let r = ReferenceGlyph(glyph: g.glyph, cluster: g.cluster, advance: units(g.advance), dx: units(g.x - pen), dy: units(-g.y))
        pen += g.advance
        return r
    }
}

/// Where two glyph lists first differ, for a failure message.
func firstDifference(_ a: [ReferenceGlyph], _ b: [ReferenceGlyph]) -> String {
    for i in 0..<max(a.count, b.count) {
        let x = i < a.count ? a[i].description : "nothing", y = i < b.count ? b[i].description : "nothing"
        if x != y { return "glyph \(i): kiosk \(x), hb-shape \(y)" }
    }
    return "none"
}

@Suite(.serialized) struct HarfBuzzReferenceTests {
    @Test func referenceToolsAreInstalled() throws {
        for tool in ["hb-shape", "hb-view"] { _ = try ReferenceTools.locate(tool) }
        let version = String(decoding: try ReferenceTools.run("hb-shape", ["--version"]), as: UTF8.self)
        #expect(version.contains("HarfBuzz"))
    }

    /// The issue's requirement: the glyph ids, clusters, advances and offsets the kiosk draws are
    /// exactly hb-shape's for the same font file and size, in the same (visual) order.
    @Test(arguments: ReferenceCase.all)
    func glyphsMatchHBShape(_ c: ReferenceCase) throws {
        let font = try Font(path: c.font)
        let shaped = font.shape(c.text, size: Double(referenceSize))
        for g in shaped.glyphs {
            #expect(font.facePaths[g.face] == c.referenceFont, "glyph \(g.glyph) (cluster \(g.cluster)) came from \(font.facePaths[g.face]), not \(c.referenceFont)")
        }
        let expected = try HBShape.shape(c.text, font: c.referenceFont, faceIndex: c.faceIndex, size64: referenceSize * 64)
        let actual = referenceGlyphs(shaped)
        #expect(!expected.isEmpty && !expected.contains { $0.glyph == 0 }, "hb-shape finds characters \(c.referenceFont) lacks: \(expected)")
        #expect(actual == expected, "\(c.name): \(firstDifference(actual, expected))\n kiosk:    \(actual)\n hb-shape: \(expected)")
        // Right to left exactly when the text is Arabic or Hebrew.
        let rtl = c.name.hasPrefix("arabic") || c.name.hasPrefix("persian") || c.name.hasPrefix("hebrew")
        #expect(shaped.isRightToLeft == rtl)
        // Each emoji sequence (ZWJ family, flag, skin tone) is one picture in Noto Color Emoji.
        if c.emoji { #expect(expected.count == 1, "hb-shape gives \(expected.count) glyphs for \(c.name)") }
        #expect(abs(shaped.width * 64 - Double(expected.reduce(0) { $0 + $1.advance })) < 1e-6)
    }

    /// The kiosk's page (black on white through `Canvas.drawText`) against hb-view's picture of
    /// the same string, font and size.
    @Test(arguments: ReferenceCase.drawable)
    func inkMatchesHBView(_ c: ReferenceCase) throws {
        let reference = try HBView.render(c.text, font: c.font, faceIndex: c.faceIndex, size: referenceSize, margin: referenceMargin)
        let page = try kioskPage(c.text, font: Font(path: c.font), width: reference.width, height: reference.height)
        let result = try expectInk(InkImage(page), matches: InkImage(reference), minimum: minimumInkSimilarity, maximumStray: maximumStrayPixels, maximumShift: maximumInkShift,
                                   name: c.name, reference: "hb-view")
        #expect(result.inkA > 10, "\(c.name): the kiosk drew (almost) nothing")
    }

    /// Colour emoji: hb-view (6.0 with cairo 1.16) draws nothing for Noto Color Emoji's bitmaps,
    /// so the reference picture is made here from the font's own PNG strikes (CBLC/CBDT, read by
    /// this test without FreeType), scaled with an exact area average to the size and placed at
    /// hb-shape's positions with the strike's bearings. Colours count, not just coverage.
    @Test(arguments: ReferenceCase.all.filter(\.emoji))
    func emojiInkMatchesTheFontsBitmaps(_ c: ReferenceCase) throws {
        let font = try Font(path: c.font)
        let width = 2 * referenceMargin + 3 * referenceSize, height = 2 * referenceMargin + 2 * referenceSize
        let page = try kioskPage(c.text, font: font, width: width, height: height)
        let reference = try emojiReference(c.text, width: width, height: height, baseline: kioskBaseline(font))
        let result = try expectInk(InkImage(page), matches: reference, minimum: minimumInkSimilarity, maximumStray: maximumStrayPixels, maximumShift: maximumInkShift,
                                   name: c.name, reference: "the font's CBDT bitmaps")
        #expect(result.inkA > 10, "\(c.name): the kiosk drew (almost) nothing")
    }

    /// Mixed directions and a fallback face, through the kiosk only: "Café قهوة 2" with Noto Sans,
    /// which has no Arabic. The Unicode bidi algorithm, worked by hand: the paragraph is left to
    /// right (its first strong letter is C); the digit after Arabic letters becomes an Arabic number
    /// (W2), level 2; the space between the Arabic word and it sits between two right-to-left
    /// types (N1), level 1; so the levels are 0 0 0 0 0 1 1 1 1 1 2 and the visual order (L2) is
    /// "Café " (0-4, left to right), "2" (10), then " قهوة" (9 down to 5, right to left). Each run
    /// must be exactly hb-shape's for that run's text, direction and face, with the rest of the
    /// line as context, and the runs must come in that order.
    @Test func mixedDirectionRunsMatchHBShapePerRun() throws {
        let text = "Caf\u{E9} \u{642}\u{647}\u{648}\u{629} 2"
        let scalars = Array(text.unicodeScalars)
        #expect(scalars.count == 11)
        let font = try Font(path: Fonts.latin)
        let shaped = font.shape(text, size: Double(referenceSize))
        #expect(!shaped.isRightToLeft)
        #expect(!shaped.glyphs.contains { $0.glyph == 0 }, "a character was drawn as .notdef: \(shaped.glyphs)")

        // The face the Arabic letters came from: a fallback, since Noto Sans has no Arabic.
        guard let arabicGlyph = shaped.glyphs.first(where: { $0.cluster == 5 }) else {
            Issue.record("no glyph for the first Arabic letter: \(shaped.glyphs)")
            return
        }
        let arabicFace = font.facePaths[arabicGlyph.face]
        #expect(arabicFace != Fonts.latin)

        func string(_ range: Range<Int>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[range])
            return String(s)
        }
        struct Run {
            let range: Range<Int>
            let direction: String
            let script: String
            let face: String
        }
        // In visual order. The digit, a Common character, takes the script of the text before it,
        // as script itemizers do (UAX #24); it is shaped in the face of the Arabic beside it.
        let runs = [
            Run(range: 0..<5, direction: "ltr", script: "Latn", face: Fonts.latin),
            Run(range: 10..<11, direction: "ltr", script: "Arab", face: arabicFace),
            Run(range: 5..<10, direction: "rtl", script: "Arab", face: arabicFace),
        ]
        var expected: [ReferenceGlyph] = []
        var expectedFaces: [String] = []
        for run in runs {
            var context = ["--direction=\(run.direction)", "--script=\(run.script)"]
            if run.range.lowerBound > 0 { context.append("--text-before=\(string(0..<run.range.lowerBound))") }
            if run.range.upperBound < scalars.count { context.append("--text-after=\(string(run.range.upperBound..<scalars.count))") }
            let glyphs = try HBShape.shape(string(run.range), font: run.face, size64: referenceSize * 64, extra: context)
            for var g in glyphs {
                g.cluster += run.range.lowerBound
                expected.append(g)
                expectedFaces.append(run.face)
            }
        }
        let actual = referenceGlyphs(shaped)
        #expect(actual == expected, "\(firstDifference(actual, expected))\n kiosk:    \(actual)\n hb-shape: \(expected)")
        #expect(shaped.glyphs.map { font.facePaths[$0.face] } == expectedFaces)
        // Clusters in visual order: 0 1 2 3 4, 10, then 9 8 7 6 5 (the Arabic letters' glyphs, whatever their number).
        let clusters = shaped.glyphs.map(\.cluster)
        #expect(clusters.prefix(6).elementsEqual([0, 1, 2, 3, 4, 10]) && clusters.dropFirst(6).elementsEqual(clusters.dropFirst(6).sorted(by: >)),
                "visual order of clusters: \(clusters)")
    }

    /// The experiment that shows the ink comparison would catch wrong text: each wrong rendering
    /// by the kiosk (letters in the wrong order, unjoined, unshaped, a missing mark, another font,
    /// another skin tone or flag) measured against the reference of the right text must fail it.
    @Test func inkSimilarityRejectsWrongText() throws {
        struct Wrong {
            let reference: ReferenceCase
            let drawn: String
            var font: String?
            let what: String
        }
        let cases = ReferenceCase.all
        func named(_ n: String) -> ReferenceCase { cases.first { $0.name == n }! }
        let wrongs = [
            Wrong(reference: named("arabic-coffee"), drawn: "\u{629}\u{648}\u{647}\u{642}", what: "letters in reverse order"),
            Wrong(reference: named("arabic-coffee"), drawn: "\u{642}\u{200C}\u{647}\u{200C}\u{648}\u{200C}\u{629}", what: "letters unjoined (ZWNJ between)"),
            Wrong(reference: named("arabic-greeting"), drawn: "\u{644}\u{627}\u{633}\u{644}\u{627}\u{645} \u{639}\u{644}\u{64A}\u{643}\u{645}".reversedWords(), what: "words in the wrong order"),
            Wrong(reference: named("hebrew"), drawn: String("קפה עם חלב".reversed()), what: "letters drawn left to right"),
            Wrong(reference: named("devanagari-hindi"), drawn: "\u{939}\u{93F}\u{928}\u{94D}\u{926}", what: "the final vowel sign missing"),
            Wrong(reference: named("devanagari-hindi"), drawn: "\u{939}\u{25CC}\u{93F}\u{928}\u{94D}\u{926}\u{940}", what: "the i-matra after its consonant (unshaped)"),
            Wrong(reference: named("devanagari-coffee"), drawn: "\u{915}\u{949}\u{92B}\u{940}", what: "the nukta (a dot) missing"),
            Wrong(reference: named("chinese"), drawn: "咖啡 机关", what: "two characters swapped"),
            Wrong(reference: named("thai"), drawn: "กาแฟเยน", what: "the vowel mark maitaikhu missing"),
            Wrong(reference: named("greek"), drawn: "Συστημα", what: "the tonos (an accent) missing"),
            Wrong(reference: named("greek"), drawn: "Σύστημα", font: Fonts.dejaVu, what: "DejaVu Sans instead of Noto Sans"),
            Wrong(reference: named("emoji-skin-tone"), drawn: "\u{1F44D}\u{1F3FF}", what: "the dark skin tone instead of the medium one"),
            Wrong(reference: named("emoji-flag"), drawn: "\u{1F1E6}\u{1F1F9}", what: "the Austrian flag instead of the German one"),
        ]
        for w in wrongs {
            let c = w.reference
            let font = try Font(path: w.font ?? c.font)
            let comparison: InkComparison
            if c.emoji {
                let width = 2 * referenceMargin + 3 * referenceSize, height = 2 * referenceMargin + 2 * referenceSize
                let page = try kioskPage(w.drawn, font: font, width: width, height: height)
                let reference = try emojiReference(c.text, width: width, height: height, baseline: kioskBaseline(font))
                comparison = InkComparison.compare(InkImage(page), reference)
            } else {
                let reference = try HBView.render(c.text, font: c.font, faceIndex: c.faceIndex, size: referenceSize, margin: referenceMargin)
                let page = try kioskPage(w.drawn, font: font, width: reference.width, height: reference.height)
                comparison = InkComparison.compare(InkImage(page), InkImage(reference))
            }
            print("wrong \(c.name) (\(w.what)): \(comparison)")
            #expect(!comparison.meets(minimum: minimumInkSimilarity, maximumStray: maximumStrayPixels, maximumShift: maximumInkShift),
                    "\(c.name) drawn with \(w.what) still passes: \(comparison)")
        }
    }
}

extension String {
    /// The words in reverse order (the letters of each as they were).
    func reversedWords() -> String { split(separator: " ").reversed().joined(separator: " ") }
}

/// Where the kiosk's page puts the baseline: below the margin by the font's ascent, as hb-view does
/// (any difference in the ascent the two take is absorbed by the comparison's alignment).
func kioskBaseline(_ font: Font) -> Double {
    (Double(referenceMargin) + font.lineMetrics(size: Double(referenceSize)).ascent).rounded()
}

/// `text` drawn by the kiosk black on white, pen at the left margin, on a page of the given size.
func kioskPage(_ text: String, font: Font, width: Int, height: Int) throws -> PixelBuffer {
    let page = try PixelBuffer(width: width, height: height)
    let canvas = Canvas(page)
    canvas.clear(.white)
    canvas.drawText(text, font: font, size: Double(referenceSize), at: Point(x: Double(referenceMargin), y: kioskBaseline(font)), color: .black)
    return page
}

/// The reference picture of a colour emoji string: hb-shape's glyphs and positions on Noto Color
/// Emoji, each glyph's PNG from the font's CBDT table scaled from its strike to `referenceSize`.
func emojiReference(_ text: String, width: Int, height: Int, baseline: Double) throws -> InkImage {
    let glyphs = try HBShape.shape(text, font: Fonts.emoji, size64: referenceSize * 64)
    let strikes = try ColorBitmapFont(path: Fonts.emoji)
    var image = InkImage(width: width, height: height)
    var pen = Double(referenceMargin)
    for g in glyphs {
        let strike = try strikes.strike(g.glyph)
        let picture = try PNGCodec.decode(strike.png)
        #expect(picture.width == strike.width && picture.height == strike.height, "glyph \(g.glyph): PNG \(picture.width)x\(picture.height), metrics \(strike.width)x\(strike.height)")
        let scale = Double(referenceSize) / Double(strike.ppem)
        image.paint(picture, left: pen + Double(g.dx) / 64 + Double(strike.bearingX) * scale,
                    top: baseline - Double(g.dy) / 64 - Double(strike.bearingY) * scale, scale: scale)
        pen += Double(g.advance) / 64
    }
    return image
}
