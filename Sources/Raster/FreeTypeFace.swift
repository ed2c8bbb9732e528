import CFreeType
import Geometry

/// Owns one `FT_Library`; faces keep it alive for as long as they exist.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(RasterError) {
        var lib: FT_Library?
        let err = FT_Init_FreeType(&lib)
        guard err == 0, let lib else { throw .freeType(call: "FT_Init_FreeType", code: err, message: freeTypeMessage(err)) }
        handle = lib
    }

    deinit { FT_Done_FreeType(handle) }
}

/// A glyph rendered by FreeType at one size: an 8-bit coverage bitmap and its placement.
struct GlyphBitmap {
    let width: Int
    let height: Int
    /// Offset from the pen position to the bitmap's top-left pixel (y-down).
    let left: Int
    let top: Int
    /// Hinted advance in pixels.
    let advance: Double
    let coverage: [UInt8]
}

/// A glyph's outline in font units (y-up) with its advance, for text drawn at any angle.
struct GlyphOutline {
    let path: Path
    let advance: Double
}

/// Owns one `FT_Face` (and keeps its library alive). Not thread-safe: FreeType faces are not.
final class FreeTypeFace {
    let library: FreeTypeLibrary
    let handle: FT_Face
    private var currentSize64: Int = -1

    init(path: String) throws(RasterError) {
        library = try FreeTypeLibrary()
        var face: FT_Face?
        let err = FT_New_Face(library.handle, path, 0, &face)
        guard err == 0, let face else { throw .freeType(call: "FT_New_Face(\(path))", code: err, message: freeTypeMessage(err)) }
        handle = face
        guard face.pointee.face_flags & FT_Long(FreeTypeFlags.faceScalable) != 0, face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            throw .freeType(call: "FT_New_Face(\(path))", code: 0, message: "not a scalable outline font")
        }
    }

    deinit { FT_Done_Face(handle) }

    var unitsPerEM: Double { Double(handle.pointee.units_per_EM) }
    var ascender: Double { Double(handle.pointee.ascender) }
    var descender: Double { Double(handle.pointee.descender) }
    var hasKerning: Bool { handle.pointee.face_flags & FT_Long(FreeTypeFlags.faceKerning) != 0 }

    func glyphIndex(of scalar: Unicode.Scalar) -> UInt32 { UInt32(FT_Get_Char_Index(handle, FT_ULong(scalar.value))) }

    /// Kerning between two glyphs in font units (0 when the font has no kerning table).
    func kerningUnits(_ left: UInt32, _ right: UInt32) -> Double {
        guard hasKerning, left != 0, right != 0 else { return 0 }
        var v = FT_Vector()
        guard FT_Get_Kerning(handle, left, right, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 else { return 0 }
        return Double(v.x)
    }

    /// Renders one glyph at `size64` (pixel size in 26.6) into a coverage bitmap.
    func renderGlyph(_ glyph: UInt32, size64: Int) throws(RasterError) -> GlyphBitmap {
        if size64 != currentSize64 {
            let err = FT_Set_Char_Size(handle, 0, FT_F26Dot6(size64), 72, 72)
            guard err == 0 else { throw .freeType(call: "FT_Set_Char_Size", code: err, message: freeTypeMessage(err)) }
            currentSize64 = size64
        }
        var err = FT_Load_Glyph(handle, glyph, FT_Int32(FreeTypeFlags.loadDefault))
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
                           advance: Double(slot.pointee.advance.x) / 64, coverage: coverage)
    }

    /// Loads one glyph's unscaled outline as a path in font units, y-up as the font stores it.
    func outline(_ glyph: UInt32) throws(RasterError) -> GlyphOutline {
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
        return GlyphOutline(path: sink.path, advance: Double(slot.pointee.advance.x))
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
    static let loadDefault: Int32 = 0
    static let loadNoScale: Int32 = 1 << 0
    static let faceScalable: Int = 1 << 0
    static let faceKerning: Int = 1 << 6
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
