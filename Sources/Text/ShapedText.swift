/// A line of text shaped and ordered for drawing: glyphs left to right, each from one face of the
/// font's fallback chain, at pen positions in pixels from the line's left end.
public struct ShapedText: Sendable {
    public struct Glyph: Sendable, Hashable {
        /// Which face of the `Font` (0 is the chosen font, higher ones its fallbacks).
        public var face: Int
        /// The glyph id in that face; 0 is the face's .notdef (nothing had the character).
        public var glyph: UInt32
        /// Index of the first code point (in the shaped string's `unicodeScalars`) this glyph belongs to.
        public var cluster: Int
        /// Pen position plus HarfBuzz's offset, from the line's left end, pixels.
        public var x: Double
        /// Offset below the baseline (y-down), pixels.
        public var y: Double
        /// How far this glyph moves the pen, pixels.
        public var advance: Double
    }

    public var glyphs: [Glyph]
    public var width: Double
    /// The paragraph's direction (from its first strong character unless forced).
    public var isRightToLeft: Bool
    /// Code points shaped: a longer string is cut at a grapheme boundary to `Font.maximumScalars`.
    public var scalarCount: Int
}
