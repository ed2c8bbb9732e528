import CFontconfig

/// A font file and the face within it (a `.ttc` holds several).
struct FontFileRef: Hashable, Sendable {
    var path: String
    var index: Int
}

/// Fontconfig's view of the installed fonts: turns a family name into a file, and lists the fonts
/// that cover what a font lacks. One for the process: fontconfig reads its configuration and its
/// on-disk cache (`fc-cache`, warm on an installed device) once.
final class FontMatcher: @unchecked Sendable {
    /// Nil when fontconfig cannot load a configuration; text then has no fallback, never a crash.
    static let shared: FontMatcher? = FontMatcher()

    /// Fontconfig's current configuration; it is reference counted by fontconfig and lives for the process.
    private let config: OpaquePointer

    private init?() {
        guard FcInit() != 0, let config = FcConfigGetCurrent() else { return nil }
        self.config = config
    }

    /// The file fontconfig picks for `pattern` (a family name, or any fontconfig pattern such as
    /// "emoji:color=true"), with the family it actually has: fontconfig always answers, with a
    /// substitute when nothing matches, so the caller compares the family.
    func match(_ pattern: String) -> (file: FontFileRef, family: String)? {
        guard let p = Self.prepared(pattern, config: config) else { return nil }
        defer { FcPatternDestroy(p) }
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, p, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        guard let file = Self.file(of: font) else { return nil }
        return (file, Self.string(font, "family") ?? "")
    }

    /// The fonts fontconfig would use after `pattern`'s best match, best first, each adding coverage.
    func fallbacks(for pattern: String) -> FallbackFonts? {
        guard let p = Self.prepared(pattern, config: config) else { return nil }
        defer { FcPatternDestroy(p) }
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, p, 1, nil, &result) else { return nil }
        return FallbackFonts(set: set)
    }

    private static func prepared(_ pattern: String, config: OpaquePointer) -> OpaquePointer? {
        guard let p = FcNameParse(pattern) else { return nil }
        FcConfigSubstitute(config, p, FcMatchPattern)
        FcDefaultSubstitute(p)
        return p
    }

    static func string(_ pattern: OpaquePointer, _ object: String) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }

    static func file(of pattern: OpaquePointer) -> FontFileRef? {
        guard let path = string(pattern, "file") else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(pattern, "index", 0, &index) != FcResultMatch { index = 0 }
        return FontFileRef(path: path, index: Int(index))
    }
}

/// Owns a sorted `FcFontSet`: the candidates for characters the chosen font lacks, with the
/// character sets that say which of them has a glyph, asked without opening a file.
final class FallbackFonts: @unchecked Sendable {
    private let set: UnsafeMutablePointer<FcFontSet>
    let files: [FontFileRef]
    private let charsets: [OpaquePointer?]

    fileprivate init(set: UnsafeMutablePointer<FcFontSet>) {
        self.set = set
        var files: [FontFileRef] = []
        var charsets: [OpaquePointer?] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i], let file = FontMatcher.file(of: font) else { continue }
            var charset: OpaquePointer?
            if FcPatternGetCharSet(font, "charset", 0, &charset) != FcResultMatch { charset = nil }
            files.append(file)
            charsets.append(charset)
        }
        self.files = files
        self.charsets = charsets
    }

    deinit { FcFontSetDestroy(set) }

    /// Whether candidate `i` has a glyph for `scalar`, by fontconfig's character set.
    func covers(_ i: Int, _ scalar: UInt32) -> Bool {
        guard let cs = charsets[i] else { return false }
        return FcCharSetHasChar(cs, scalar) != 0
    }
}
