import CFreeType
import Geometry
import Raster

/// Owns one `FT_Library`; faces keep it alive for as long as they exist.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(TextError) {
        var lib: FT_Library?
        let err = FT_Init_FreeType(&lib)
        guard err == 0, let lib else { throw .freeType(call: "FT_Init_FreeType", code: err, message: freeTypeMessage(err)) }
        handle = lib
    }

    deinit { FT_Done_FreeType(handle) }
}

/// A glyph rendered by FreeType at one size: an 8-bit coverage bitmap, or for colour glyphs
/// (emoji) premultiplied ARGB pixels already scaled to the size, and its placement.
struct GlyphBitmap {
    let width: Int
    let height: Int
    /// Offset from the pen position to the bitmap's top-left pixel (y-down).
    let left: Int
    let top: Int
    /// Coverage, `width * height` bytes; empty for a colour glyph.
    let coverage: [UInt8]
    /// The pixels of a colour glyph; nil for a coverage glyph.
    let color: PixelBuffer?
}

/// A glyph's outline in font units (y-up), for text drawn at any angle.
struct GlyphOutline {
    let path: Path
}

/// Owns one `FT_Face` (and keeps its library alive). Not thread-safe: FreeType faces are not.
///
/// Two kinds of face are accepted: scalable outline fonts, and colour bitmap fonts (CBDT/sbix,
/// such as Noto Color Emoji) whose fixed-size strikes are scaled to the text size.
final class FreeTypeFace {
    let library: FreeTypeLibrary
    let handle: FT_Face
    let path: String
    /// Colour bitmaps at fixed sizes only (no outlines): glyphs are scaled from `strikePixels`.
    let isColorBitmap: Bool
    /// The pixel size of the bitmap strike in use (colour bitmap faces only).
    private(set) var strikePixels: Double = 0
    private var currentSize64: Int = -1

    init(path: String, index: Int = 0) throws(TextError) {
        library = try FreeTypeLibrary()
        var face: FT_Face?
        let err = FT_New_Face(library.handle, path, FT_Long(index), &face)
        guard err == 0, let face else { throw .freeType(call: "FT_New_Face(\(path))", code: err, message: freeTypeMessage(err)) }
        handle = face
        self.path = path
        let flags = Int(face.pointee.face_flags)
        let scalable = flags & FreeTypeFlags.faceScalable != 0 && face.pointee.units_per_EM > 0
        let colorStrikes = flags & FreeTypeFlags.faceColor != 0 && face.pointee.num_fixed_sizes > 0
        guard scalable || colorStrikes else {
            FT_Done_Face(face)
            throw .freeType(call: "FT_New_Face(\(path))", code: 0, message: "not a scalable outline font or a colour bitmap font")
        }
        isColorBitmap = !scalable
        if isColorBitmap {
            // The largest strike: scaling down looks better than scaling up.
            var best = 0
            for i in 0..<Int(face.pointee.num_fixed_sizes) where face.pointee.available_sizes[i].y_ppem > face.pointee.available_sizes[best].y_ppem {
                best = i
            }
            let selectErr = FT_Select_Size(face, FT_Int(best))
            guard selectErr == 0 else {
                FT_Done_Face(face)
                throw .freeType(call: "FT_Select_Size(\(path))", code: selectErr, message: freeTypeMessage(selectErr))
            }
            strikePixels = Double(face.pointee.available_sizes[best].y_ppem) / 64
        }
    }

    deinit { FT_Done_Face(handle) }

    /// Font units per em; a colour bitmap face without one counts its strike as the em.
    var unitsPerEM: Double { handle.pointee.units_per_EM > 0 ? Double(handle.pointee.units_per_EM) : 2048 }
    var ascender: Double { Double(handle.pointee.ascender) }
    var descender: Double { Double(handle.pointee.descender) }
    var familyName: String { handle.pointee.family_name.map { String(cString: $0) } ?? "" }

    func glyphIndex(of scalar: Unicode.Scalar) -> UInt32 { UInt32(FT_Get_Char_Index(handle, FT_ULong(scalar.value))) }

    /// Renders one glyph at `size64` (pixel size in 26.6). Outline glyphs are hinted lightly
    /// (vertically only), so that their shapes agree with HarfBuzz's unhinted advances.
    func renderGlyph(_ glyph: UInt32, size64: Int) throws(TextError) -> GlyphBitmap {
        if isColorBitmap { return try renderColorGlyph(glyph, pixels: Double(size64) / 64) }
        if size64 != currentSize64 {
            let err = FT_Set_Char_Size(handle, 0, FT_F26Dot6(size64), 72, 72)
            guard err == 0 else { throw .freeType(call: "FT_Set_Char_Size", code: err, message: freeTypeMessage(err)) }
            currentSize64 = size64
        }
        var err = FT_Load_Glyph(handle, glyph, FT_Int32(FreeTypeFlags.loadTargetLight))
        guard err == 0 else { throw .freeType(call: "FT_Load_Glyph", code: err, message: freeTypeMessage(err)) }
        let slot = handle.pointee.glyph!
        err = FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)
        guard err == 0 else { throw .freeType(call: "FT_Render_Glyph", code: err, message: freeTypeMessage(err)) }
        let bitmap = slot.pointee.bitmap
        let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: w * h)
        if w > 0, h > 0, let src = bitmap.buffer, Int32(bitmap.pixel_mode) == Int32(FT_PIXEL_MODE_GRAY.rawValue) {
            for y in 0..<h {
                let row = pitch >= 0 ? src + y * pitch : src + (h - 1 - y) * (-pitch)
                for x in 0..<w { coverage[y * w + x] = row[x] }
            }
        }
        return GlyphBitmap(width: w, height: h, left: Int(slot.pointee.bitmap_left), top: -Int(slot.pointee.bitmap_top),
                           coverage: coverage, color: nil)
    }

    /// A colour glyph from the bitmap strike, box-filtered down (or scaled up) to `pixels` per em.
    private func renderColorGlyph(_ glyph: UInt32, pixels: Double) throws(TextError) -> GlyphBitmap {
        let err = FT_Load_Glyph(handle, glyph, FT_Int32(FreeTypeFlags.loadColor))
        guard err == 0 else { throw .freeType(call: "FT_Load_Glyph", code: err, message: freeTypeMessage(err)) }
        let slot = handle.pointee.glyph!
        let bitmap = slot.pointee.bitmap
        let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard w > 0, h > 0, let src = bitmap.buffer, Int32(bitmap.pixel_mode) == Int32(FT_PIXEL_MODE_BGRA.rawValue) else {
            return GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [], color: nil)
        }
        let source: PixelBuffer
        do { source = try PixelBuffer(width: w, height: h, format: .argb8888Premultiplied) } catch { throw .raster(error) }
        for y in 0..<h {
            let row = pitch >= 0 ? src + y * pitch : src + (h - 1 - y) * (-pitch)
            for x in 0..<w {
                // FreeType's BGRA is premultiplied, bytes B, G, R, A: a little-endian 0xAARRGGBB.
                let p = row + 4 * x
                source.setPixel(x: x, y: y, UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24)
            }
        }
        let scale = strikePixels > 0 ? pixels / strikePixels : 1
        let outW = Swift.max(1, Int((Double(w) * scale).rounded())), outH = Swift.max(1, Int((Double(h) * scale).rounded()))
        let scaled: PixelBuffer
        do { scaled = try source.boxScaled(width: outW, height: outH) } catch { throw .raster(error) }
        return GlyphBitmap(width: outW, height: outH, left: Int((Double(slot.pointee.bitmap_left) * scale).rounded()),
                           top: -Int((Double(slot.pointee.bitmap_top) * scale).rounded()), coverage: [], color: scaled)
    }

    /// Loads one glyph's unscaled outline as a path in font units, y-up as the font stores it
    /// (nil for a colour bitmap glyph, which has none).
    func outline(_ glyph: UInt32) throws(TextError) -> GlyphOutline? {
        if isColorBitmap { return nil }
        let err = FT_Load_Glyph(handle, glyph, FT_Int32(FreeTypeFlags.loadNoScale))
        guard err == 0 else { throw .freeType(call: "FT_Load_Glyph", code: err, message: freeTypeMessage(err)) }
        let slot = handle.pointee.glyph!
        let sink = OutlineSink()
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in OutlineSink.from(user).moveTo(to!.pointee); return 0 },
            line_to: { to, user in OutlineSink.from(user).path.line(to: OutlineSink.point(to!.pointee)); return 0 },
            conic_to: { c, to, user in
                OutlineSink.from(user).path.quad(to: OutlineSink.point(to!.pointee), control: OutlineSink.point(c!.pointee)); return 0
            },
            cubic_to: { c1, c2, to, user in
                OutlineSink.from(user).path.cubic(to: OutlineSink.point(to!.pointee), control1: OutlineSink.point(c1!.pointee),
                                                  control2: OutlineSink.point(c2!.pointee)); return 0
            },
            shift: 0, delta: 0)
        var outline = slot.pointee.outline
        let decodeErr = withExtendedLifetime(sink) {
            FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard decodeErr == 0 else { throw .freeType(call: "FT_Outline_Decompose", code: decodeErr, message: freeTypeMessage(decodeErr)) }
        sink.finish()
        return GlyphOutline(path: sink.path)
    }
}

/// Collects FT_Outline_Decompose callbacks into a `Path`, closing each contour.
private final class OutlineSink {
    var path = Path()
    var open = false

    static func from(_ user: UnsafeMutableRawPointer?) -> OutlineSink { Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue() }
    static func point(_ v: FT_Vector) -> Point { Point(x: Double(v.x), y: Double(v.y)) }

    func moveTo(_ v: FT_Vector) {
        if open { path.close() }
        path.move(to: Self.point(v))
        open = true
    }

    func finish() { if open { path.close(); open = false } }
}

/// FreeType flag values that are macros Swift does not import as constants.
enum FreeTypeFlags {
    static let loadNoScale: Int32 = 1 << 0
    /// FT_LOAD_TARGET_LIGHT: hinting in y only, advances untouched.
    static let loadTargetLight: Int32 = 1 << 16
    static let loadColor: Int32 = 1 << 20
    static let faceScalable: Int = 1 << 0
    static let faceColor: Int = 1 << 14
}

/// A readable message for the FreeType errors a caller can cause (see fterrdef.h).
func freeTypeMessage(_ code: FT_Error) -> String {
    switch code {
    case 0x01: return "cannot open resource (missing or unreadable file)"
    case 0x02: return "unknown file format"
    case 0x03: return "broken file"
    case 0x06: return "invalid argument"
    case 0x10: return "invalid glyph index"
    case 0x17: return "invalid pixel size"
    case 0x40: return "out of memory"
    case 0x51: return "invalid stream operation"
    case 0x55: return "invalid frame read (truncated file)"
    default: return "FreeType error 0x\(String(code, radix: 16))"
    }
}
