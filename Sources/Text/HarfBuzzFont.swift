import CHarfBuzz
import Raster

/// One face of a font file as HarfBuzz sees it: `hb_face_t` and its `hb_font_t`, with HarfBuzz's own
/// OpenType functions (the same that `hb-shape` uses by default), so that shaping here and there agree.
/// The font's scale is set per call to the size being shaped, in 26.6 units.
final class HarfBuzzFont {
    private let font: OpaquePointer

    init(path: String, index: Int) throws(TextError) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw .harfBuzz(call: "hb_blob_create_from_file(\(path))", message: "cannot read the font file")
        }
        defer { hb_blob_destroy(blob) }
        let face = hb_face_create(blob, UInt32(index))
        defer { hb_face_destroy(face) }
        guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else {
            throw .harfBuzz(call: "hb_face_create(\(path))", message: "HarfBuzz finds no glyphs in it")
        }
        self.font = font
    }

    deinit { hb_font_destroy(font) }

    /// Shapes `range` of `text` (the whole paragraph's code points, so that letters at the range's
    /// edges join as they should) in one direction and script, and appends the glyphs to `glyphs`
    /// in visual order (left to right), with `cluster` as an index into `text`.
    func shape(_ text: [UInt32], range: Range<Int>, rightToLeft: Bool, script: UInt32, size64: Int,
               buffer: HarfBuzzBuffer, into glyphs: inout [HarfBuzzGlyph]) {
        let b = buffer.handle
        hb_buffer_clear_contents(b)
        text.withUnsafeBufferPointer { p in
            hb_buffer_add_utf32(b, p.baseAddress, Int32(p.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(b, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(b, hb_script_t(rawValue: script))
        hb_buffer_set_language(b, hb_language_get_default())
        let scale = Int32(clamping: size64)
        hb_font_set_scale(font, scale, scale)
        hb_shape(font, b, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(b, &count), let positions = hb_buffer_get_glyph_positions(b, nil) else { return }
        for i in 0..<Int(count) {
            glyphs.append(HarfBuzzGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                                        xAdvance: positions[i].x_advance, xOffset: positions[i].x_offset, yOffset: positions[i].y_offset))
        }
    }

    /// The script HarfBuzz assigns to a code point (Common and Inherited included).
    static func script(of scalar: UInt32) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue
    }
    static let commonScript = HB_SCRIPT_COMMON.rawValue
    static let inheritedScript = HB_SCRIPT_INHERITED.rawValue
    static let unknownScript = HB_SCRIPT_UNKNOWN.rawValue
}

/// A glyph as HarfBuzz placed it: 26.6 units, y up.
struct HarfBuzzGlyph {
    var glyph: UInt32
    var cluster: Int
    var xAdvance: Int32
    var xOffset: Int32
    var yOffset: Int32
}

/// Owns one reusable `hb_buffer_t`.
final class HarfBuzzBuffer {
    let handle: OpaquePointer

    init() {
        handle = hb_buffer_create()
        // Clusters that stay monotone by grapheme: what ellipsis and hit testing need.
        hb_buffer_set_cluster_level(handle, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
    }

    deinit { hb_buffer_destroy(handle) }
}
