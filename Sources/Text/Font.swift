import Geometry
import Raster

/// Where a text's anchor point sits on its baseline.
public enum TextAlignment: Sendable, Hashable {
    case left, center, right
}

/// The theme's font with everything needed to draw any language: a chosen face, the faces
/// fontconfig falls back to for characters it lacks (colour emoji first for emoji), HarfBuzz
/// shaping per run, FriBidi ordering, and caches, so that a label is shaped once and later frames
/// only blit its glyphs. Not thread-safe: it fills its caches as it draws.
public final class Font {
    /// The faces in use, in the order they were needed: 0 is the chosen font.
    private(set) var faces: [FontFace]
    private let fallbacks: FallbackFonts?
    /// Faces opened from `fallbacks`, by candidate index (nil: failed to open).
    private var openedFallbacks: [Int: Int?] = [:]
    private let emojiFile: FontFileRef?
    private var emojiFace: Int??
    /// Which face draws a code point on its own (nil: none has it).
    private var faceForScalar: [UInt32: Int?] = [:]
    private var shapes = BoundedCache<ShapeKey, ShapedText>(limit: Font.layoutCacheLimit)
    private var truncations = BoundedCache<TruncationKey, String>(limit: Font.layoutCacheLimit)
    /// Each text's first strong direction (nil: none), asked by every row every frame.
    private var strongDirections = BoundedCache<TextKey, TextDirection?>(limit: Font.layoutCacheLimit)
    private let buffer = HarfBuzzBuffer()

    /// Entries each cache keeps; a cache is emptied whole when it reaches it.
    public static let layoutCacheLimit = 1024
    /// Longest text shaped, in code points: no label can show more, and a bound keeps a hostile
    /// 100,000-character label from costing seconds. Longer text is cut at a grapheme boundary.
    public static let maximumScalars = 1024

    /// How many shaped strings are cached (never more than `layoutCacheLimit`).
    public var cachedLayoutCount: Int { shapes.count }
    /// How many glyph bitmaps FreeType has rendered; steady-state frames must not increase it.
    public var rasterizedGlyphCount: Int { faces.reduce(0) { $0 + $1.rasterizedGlyphCount } }
    /// How many glyph outlines have been decoded for rotated text.
    public var decodedOutlineCount: Int { faces.reduce(0) { $0 + $1.decodedOutlineCount } }
    /// The files of the faces opened so far, chosen font first.
    public var facePaths: [String] { faces.map(\.file.path) }

    /// Default font of the device images (package `fonts-dejavu-core`).
    public static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Loads a font file (TrueType/OpenType; a missing, unreadable or corrupt file is a `.freeType`
    /// error). With `fallback`, characters it lacks come from the fonts fontconfig sorts after it.
    public convenience init(path: String, fallback: Bool = true) throws(TextError) {
        try self.init(primary: FontFileRef(path: path, index: 0), fallback: fallback)
    }

    /// `theme.font`: a file path (it contains a "/") or a family name such as "Noto Sans" that
    /// fontconfig resolves. A family that is not installed is an error naming what fontconfig would
    /// have substituted, rather than a silent change of look.
    public convenience init(named name: String, fallback: Bool = true) throws(TextError) {
        if Self.namesFile(name) {
            try self.init(path: name, fallback: fallback)
            return
        }
        guard let matcher = FontMatcher.shared else {
            throw .fontNotFound(name: name, message: "fontconfig could not load its configuration; give the font as a file path")
        }
        guard let found = matcher.match(name) else {
            throw .fontNotFound(name: name, message: "fontconfig cannot parse or match it")
        }
        guard Self.isGeneric(name) || found.family.lowercased() == name.lowercased() else {
            throw .fontNotFound(name: name, message: "no installed font has this family (fontconfig would use \"\(found.family)\" instead); install it or name that family")
        }
        try self.init(primary: found.file, fallback: fallback)
    }

    private init(primary: FontFileRef, fallback: Bool) throws(TextError) {
        let face = try FontFace(primary)
        guard !face.freeType.isColorBitmap else {
            throw .freeType(call: "FT_New_Face(\(primary.path))", code: 0, message: "a colour bitmap font cannot be the theme font; it is used for emoji by itself")
        }
        faces = [face]
        let matcher = fallback ? FontMatcher.shared : nil
        let family = face.freeType.familyName
        fallbacks = matcher?.fallbacks(for: family.isEmpty ? "sans-serif" : Self.escaped(family))
        if let emoji = matcher?.match("emoji:color=true"), emoji.file != primary {
            emojiFile = emoji.file
        } else {
            emojiFile = nil
        }
    }

    /// Whether `theme.font` names a file (it has a "/" or a font file's extension) rather than a family.
    public static func namesFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.contains("/") || [".ttf", ".otf", ".ttc", ".otc"].contains { lower.hasSuffix($0) }
    }

    /// fontconfig's generic families, which always resolve to something.
    static func isGeneric(_ name: String) -> Bool {
        ["sans-serif", "sans", "serif", "monospace", "mono", "emoji", "system-ui", "cursive", "fantasy"].contains(name.lowercased())
    }

    /// A family name as a fontconfig pattern: '-', ':' and ',' have meanings there.
    static func escaped(_ family: String) -> String {
        var out = ""
        for c in family {
            if c == "-" || c == ":" || c == "," || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    // MARK: Metrics and measuring

    /// Sizes are clamped to 1...1000 px (NaN gives 1): bad sizes draw something small, never trap.
    static func validSize(_ size: Double) -> Double { size > 1 ? Swift.min(size, 1000) : 1 }
    static func size64(_ size: Double) -> Int { Int((validSize(size) * 64).rounded()) }

    /// Distance from the baseline up to the top of tall glyphs and down to the bottom of descenders,
    /// in pixels, of the chosen font.
    public func lineMetrics(size: Double) -> (ascent: Double, descent: Double) {
        let primary = faces[0].freeType
        let s = Self.validSize(size) / primary.unitsPerEM
        return (primary.ascender * s, -primary.descender * s)
    }

    /// Whether some face (the chosen font or a fallback) has a glyph for `scalar`.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { face(for: scalar.value) != nil }

    /// The code points of `text` that no installed font can draw (each once, in order), ignoring
    /// those that are invisible by definition (joiners, variation selectors, bidi controls).
    public func missingScalars(in text: String) -> [Unicode.Scalar] {
        var seen: Set<UInt32> = []
        var missing: [Unicode.Scalar] = []
        for s in text.unicodeScalars where !Self.isIgnorable(s.value) && !s.properties.isWhitespace {
            if face(for: s.value) == nil, seen.insert(s.value).inserted { missing.append(s) }
        }
        return missing
    }

    /// Width of `text` at `size` pixels, as drawn.
    public func measure(_ text: String, size: Double) -> Double { shape(text, size: size).width }

    /// Which way `text` runs: as its first strong character, or `otherwise` when it has none (a
    /// label of digits or emoji on a right-to-left screen runs right to left).
    public func direction(of text: String, otherwise: TextDirection = .leftToRight) -> TextDirection {
        if let known = strongDirections[TextKey(text: text)] { return known ?? otherwise }
        let found = Bidi.firstStrongDirection(text.unicodeScalars.prefix(Self.maximumScalars).map(\.value))
        strongDirections.insert(found, for: TextKey(text: text))
        return found ?? otherwise
    }

    /// `text` shaped at `size`: cached by (text, size, direction), so a label costs one shaping.
    public func shape(_ text: String, size: Double, direction: TextDirection = .auto) -> ShapedText {
        let key = ShapeKey(text: TextKey(text: text), size64: Self.size64(size), direction: direction)
        if let cached = shapes[key] { return cached }
        let result = uncachedShape(text, size64: key.size64, direction: direction)
        shapes.insert(result, for: key)
        return result
    }

    /// `text`, shortened if needed so that it fits in `maxWidth` pixels: whole grapheme clusters are
    /// dropped from its logical end and an ellipsis put there (which is the left in right-to-left
    /// text), never inside a cluster (an emoji sequence, a letter and its marks).
    public func truncated(_ text: String, size: Double, maxWidth: Double) -> String {
        let key = TruncationKey(text: TextKey(text: text), size64: Self.size64(size), maxWidth: maxWidth)
        if let cached = truncations[key] { return cached }
        let result = uncachedTruncation(text, size: size, maxWidth: maxWidth)
        truncations.insert(result, for: key)
        return result
    }

    private func uncachedTruncation(_ text: String, size: Double, maxWidth: Double) -> String {
        guard !(measure(text, size: size) <= maxWidth) else { return text }
        let ellipsis = hasGlyph(for: "\u{2026}") ? "\u{2026}" : "..."
        let clusters = Array(text.prefix(Self.maximumScalars))
        func candidate(_ k: Int) -> String {
            var s = String(clusters[0..<k])
            while let last = s.last, last.isWhitespace { s.removeLast() }
            return s + ellipsis
        }
        // The longest prefix that fits, by bisection: widths grow with the prefix (shaping at the
        // cut can change a letter's form, so each candidate is measured as drawn).
        var lo = 0, hi = clusters.count - 1
        guard measure(candidate(0), size: size) <= maxWidth else { return "" }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if measure(candidate(mid), size: size) <= maxWidth { lo = mid } else { hi = mid - 1 }
        }
        return lo == 0 ? ellipsis : candidate(lo)
    }

    // MARK: Faces

    /// Code points that draw nothing by definition (ZWJ, variation selectors, bidi controls...).
    static func isIgnorable(_ scalar: UInt32) -> Bool {
        Unicode.Scalar(scalar)?.properties.isDefaultIgnorableCodePoint ?? true
    }

    /// The face that draws `scalar` on its own: the chosen font, else the first fallback that has
    /// it, else the colour emoji font.
    func face(for scalar: UInt32) -> Int? {
        if let known = faceForScalar[scalar] { return known }
        var found: Int? = faces[0].has(scalar) ? 0 : nil
        if found == nil, let fallbacks {
            for i in fallbacks.files.indices where fallbacks.covers(i, scalar) {
                if let f = openFallback(i), faces[f].has(scalar) { found = f; break }
            }
        }
        if found == nil, let e = colorEmojiFace(), faces[e].has(scalar) { found = e }
        faceForScalar[scalar] = found
        return found
    }

    private func openFallback(_ i: Int) -> Int? {
        if let known = openedFallbacks[i] { return known }
        guard let fallbacks else { return nil }
        let file = fallbacks.files[i]
        var index: Int? = faces.firstIndex { $0.file == file }
        if index == nil, let face = try? FontFace(file), !face.freeType.isColorBitmap {
            faces.append(face)
            index = faces.count - 1
        }
        openedFallbacks[i] = index
        return index
    }

    private func colorEmojiFace() -> Int? {
        if let known = emojiFace { return known }
        var index: Int?
        if let emojiFile, let face = try? FontFace(emojiFile) {
            faces.append(face)
            index = faces.count - 1
        }
        emojiFace = index
        return index
    }

    /// Whether a grapheme cluster asks to be a colour emoji: an emoji-presentation character, or one
    /// with the emoji variation selector (FE0F), a skin tone or a keycap; FE0E asks for text.
    static func prefersEmoji(_ cluster: ArraySlice<UInt32>) -> Bool {
        guard let first = cluster.first, let s = Unicode.Scalar(first) else { return false }
        if cluster.contains(0xFE0E) { return false }
        if cluster.contains(0xFE0F) || cluster.contains(where: { (0x1F3FB...0x1F3FF).contains($0) }) { return true }
        return s.properties.isEmojiPresentation
    }

    /// The face for one grapheme cluster: colour emoji for emoji; the face before it for spaces and
    /// punctuation when it has them (so a run of Arabic stays one run across its spaces); else the
    /// first face that has every visible code point of the cluster; else the one that has its first.
    func face(forCluster cluster: ArraySlice<UInt32>, previous: Int?) -> Int {
        let visible = cluster.filter { !Self.isIgnorable($0) }
        guard let first = visible.first else { return previous ?? 0 }
        if Self.prefersEmoji(cluster), let e = colorEmojiFace(), faces[e].has(first) { return e }
        if let previous, !faces[previous].freeType.isColorBitmap,
           visible.allSatisfy({ HarfBuzzFont.isCommon($0) && faces[previous].has($0) }) {
            return previous
        }
        if visible.count == 1 { return face(for: first) ?? 0 }
        if visible.allSatisfy({ faces[0].has($0) }) { return 0 }
        if let fallbacks {
            for i in fallbacks.files.indices where visible.allSatisfy({ fallbacks.covers(i, $0) }) {
                if let f = openFallback(i), visible.allSatisfy({ faces[f].has($0) }) { return f }
            }
        }
        return face(for: first) ?? 0
    }

    // MARK: Shaping

    private func uncachedShape(_ text: String, size64: Int, direction: TextDirection) -> ShapedText {
        // Code points, cut at a grapheme boundary, and where each grapheme cluster starts.
        var scalars: [UInt32] = []
        var clusterStarts: [Int] = []
        for ch in text {
            let cs = ch.unicodeScalars
            if scalars.count + cs.count > Self.maximumScalars { break }
            clusterStarts.append(scalars.count)
            for s in cs { scalars.append(s.value) }
        }
        let n = scalars.count
        let (levels, rightToLeft) = Bidi.levels(scalars, direction: direction)
        guard n > 0 else { return ShapedText(glyphs: [], width: 0, isRightToLeft: rightToLeft, scalarCount: 0) }

        var faceOf = [Int](repeating: 0, count: n)
        var previous: Int?
        for (k, start) in clusterStarts.enumerated() {
            let end = k + 1 < clusterStarts.count ? clusterStarts[k + 1] : n
            let f = face(forCluster: scalars[start..<end], previous: previous)
            for i in start..<end { faceOf[i] = f }
            previous = f
        }
        let scripts = Self.resolvedScripts(scalars)

        // Runs of one level, face and script, in logical order.
        var runs: [TextRun] = []
        var start = 0
        for i in 1...n where i == n || levels[i] != levels[start] || faceOf[i] != faceOf[start] || scripts[i] != scripts[start] {
            runs.append(TextRun(range: start..<i, level: levels[start], face: faceOf[start], script: scripts[start]))
            start = i
        }

        var glyphs: [ShapedText.Glyph] = []
        glyphs.reserveCapacity(n)
        var placed: [HarfBuzzGlyph] = []
        var pen = 0.0
        for r in Bidi.visualOrder(levels: runs.map(\.level)) {
            let run = runs[r]
            placed.removeAll(keepingCapacity: true)
            faces[run.face].harfBuzz.shape(scalars, range: run.range, rightToLeft: run.level & 1 == 1, script: run.script,
                                           size64: size64, buffer: buffer, into: &placed)
            for g in placed {
                let advance = Double(g.xAdvance) / 64
                glyphs.append(ShapedText.Glyph(face: run.face, glyph: g.glyph, cluster: g.cluster,
                                               x: pen + Double(g.xOffset) / 64, y: -Double(g.yOffset) / 64, advance: advance))
                pen += advance
            }
        }
        return ShapedText(glyphs: glyphs, width: pen, isRightToLeft: rightToLeft, scalarCount: n)
    }

    /// Each code point's script, with Common and Inherited ones (spaces, digits, marks) taking the
    /// script of the text before them, or after them at the start; 0 (unset) when there is none.
    static func resolvedScripts(_ scalars: [UInt32]) -> [UInt32] {
        var scripts = scalars.map { HarfBuzzFont.script(of: $0) }
        var last: UInt32 = 0
        var firstReal: UInt32?
        for i in scripts.indices {
            if HarfBuzzFont.isReal(scripts[i]) {
                last = scripts[i]
                if firstReal == nil { firstReal = last }
            } else {
                scripts[i] = last
            }
        }
        if let firstReal {
            for i in scripts.indices where scripts[i] == 0 { scripts[i] = firstReal }
        }
        return scripts
    }
}

/// A run to shape: one bidi level, one face, one script.
struct TextRun {
    var range: Range<Int>
    var level: UInt8
    var face: Int
    var script: UInt32
}

/// A string as a cache key, by its UTF-8 bytes: `String`'s own equality is canonical equivalence,
/// under which "e\u{301}" and "é" are one key although they shape to different clusters, and its
/// hash normalizes non-ASCII text first (about 3x slower per lookup, every row every frame).
struct TextKey: Hashable {
    var text: String

    static func == (a: TextKey, b: TextKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

struct ShapeKey: Hashable {
    var text: TextKey
    var size64: Int
    var direction: TextDirection
}

struct TruncationKey: Hashable {
    var text: TextKey
    var size64: Int
    var maxWidth: Double
}

extension HarfBuzzFont {
    /// A script that says something about shaping (not Common, Inherited or Unknown).
    static func isReal(_ script: UInt32) -> Bool {
        script != commonScript && script != inheritedScript && script != unknownScript && script != 0
    }

    static func isCommon(_ scalar: UInt32) -> Bool { !isReal(script(of: scalar)) }
}
