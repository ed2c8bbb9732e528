import CRsvg
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An SVG document parsed by librsvg, rendered at any pixel size (icons drawn crisp at the size
/// they are shown). It owns its `RsvgHandle` and frees it in deinit. Not thread-safe: one thread
/// at a time.
///
/// Bounds, besides librsvg's own (libxml2's nesting-depth and entity limits, which the handle keeps
/// because it is made without `RSVG_HANDLE_FLAG_UNLIMITED`; at most 1,000,000 loaded elements and
/// 500,000 references followed through `use` and the like, librsvg's answer to "billion laughs",
/// which still takes seconds to reach): the file is at most `maximumBytes`; a document that its
/// internal references expand beyond `maximumExpandedElements` is refused before it is parsed; a document referring to anything outside itself (`href`,
/// `url()`, `@import`, an external entity) is refused before librsvg sees it, and the handle has
/// no base file, so librsvg could load nothing external anyway; an intrinsic size above
/// `maximumDimension` is refused like a PNG that large, and so are images inside it (`data:`
/// URIs, `SVGEmbeddedImages`) beyond a PNG icon's limits; a render is at most `maximumDimension` on
/// a side. Render time is bounded by the caller (`ConfigAssets` times a trial render).
public final class SVGDocument {
    /// Largest SVG file read. Icons are a few KB (Adwaita's largest symbolic one is under 20 KB).
    public static let maximumBytes = 1 << 20
    /// Most elements a document may become once its internal references are followed
    /// (`SVGReferenceCount`): Adwaita's busiest icons are a few hundred.
    public static let maximumExpandedElements = 20_000
    /// Widest and tallest intrinsic size, and render size, accepted: as for PNGs.
    public static let maximumDimension = PNGCodec.maximumDimension

    private let handle: OpaquePointer
    private let library: KioskRsvgFunctions
    /// The document's own size in pixels (96 dpi) when it gives one; nil for a viewBox alone.
    public let intrinsicSize: (width: Double, height: Double)?
    /// The file's path or a name, for messages.
    public let name: String

    /// Reads and parses the SVG file at `path` (at most `maximumBytes`).
    public convenience init(path: String) throws(RasterError) {
        try self.init(data: try Self.readFile(path), name: path)
    }

    /// Parses `data`; refuses what the type's bounds refuse, naming `name`.
    public init(data: [UInt8], name: String) throws(RasterError) {
        self.name = name
        try Self.check(data, name: name)
        library = try SVGLibraries.functions()
        handle = try Self.newHandle(data, name: name, library: library)
        var width = 0.0, height = 0.0
        if library.rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 {
            intrinsicSize = (width, height)
        } else {
            intrinsicSize = nil
        }
        if let size = intrinsicSize,
           !(size.width <= Double(Self.maximumDimension) && size.height <= Double(Self.maximumDimension)) {
            throw .imageTooLarge(name: name, width: Int(min(size.width, 1e9)), height: Int(min(size.height, 1e9)), limit: Self.maximumDimension)
        }
    }

    deinit { library.g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// The document fitted into `width` x `height` (aspect kept, centred) as premultiplied ARGB.
    public func render(width: Int, height: Int) throws(RasterError) -> PixelBuffer {
        guard width > 0, height > 0, width <= Self.maximumDimension, height <= Self.maximumDimension else {
            throw .invalidArgument(call: "SVGDocument.render", message: "size \(width)x\(height) outside 1...\(Self.maximumDimension)")
        }
        let surface = try CairoImageSurface(width: width, height: height, library: library)
        let context = try CairoContext(surface: surface)
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        var error: UnsafeMutablePointer<GError>? = nil
        guard library.rsvg_handle_render_document(handle, context.pointer, &viewport, &error) != 0 else {
            throw .svg(call: "rsvg_handle_render_document(\(name))", message: Self.take(error, library: library))
        }
        return try surface.pixels()
    }

    /// What can be refused from the bytes alone, without librsvg: the size, a reference to
    /// anything outside the file, internal references that expand too far.
    public static func check(_ data: [UInt8], name: String) throws(RasterError) {
        guard data.count <= maximumBytes else {
            throw .svg(call: "SVGDocument(\(name))", message: "\(data.count) bytes is more than the \(maximumBytes) an SVG icon may have")
        }
        if let reference = externalReference(in: data) {
            throw .svg(call: "SVGDocument(\(name))", message: "refers to something outside the file (\(reference)); an icon must be self-contained")
        }
        if let problem = SVGEmbeddedImages.problem(in: data) {
            throw .svg(call: "SVGDocument(\(name))", message: problem)
        }
        let expanded = SVGReferenceCount.expandedElements(in: data, limit: maximumExpandedElements)
        guard expanded <= maximumExpandedElements else {
            throw .svg(call: "SVGDocument(\(name))", message: "its references (use, href=\"#...\") make it more than "
                + "\(maximumExpandedElements) elements to draw; an icon needs far fewer")
        }
    }

    /// `rsvg_handle_new_from_data` with no flags (librsvg's limits stay on).
    private static func newHandle(_ data: [UInt8], name: String, library: KioskRsvgFunctions) throws(RasterError) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>? = nil
        let handle = data.withUnsafeBufferPointer { library.rsvg_handle_new_from_data($0.baseAddress, $0.count, &error) }
        guard let handle else {
            throw .svg(call: "rsvg_handle_new_from_data(\(name))", message: take(error, library: library))
        }
        return handle
    }

    /// A GError's message; frees it.
    private static func take(_ error: UnsafeMutablePointer<GError>?, library: KioskRsvgFunctions) -> String {
        guard let error else { return "unknown error" }
        defer { library.g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// The file's bytes, refused above `maximumBytes` before reading them.
    public static func readFile(_ path: String) throws(RasterError) -> [UInt8] {
        try ImageFile.bytes(path, limit: maximumBytes, kind: "an SVG icon", sizeCall: "SVGDocument(\(path))") { .svg(call: $0, message: $1) }
    }

    /// The first reference to something outside the document, as written, or nil: an `href` whose
    /// value is not a fragment (`#id`) or `data:`, a `url(...)` that is not a fragment, an
    /// `@import`, or an entity declared `SYSTEM`/`PUBLIC`. ASCII case is ignored.
    static func externalReference(in data: [UInt8]) -> String? {
        let text = String(decoding: data.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        func value(after marker: String, opening: Set<Character>, stopping: Set<Character>) -> String? {
            var rest = text[...]
            while let found = rest.firstRange(of: marker) {
                rest = rest[found.upperBound...]
                var value = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || opening.contains($0) }
                value = value.prefix { !stopping.contains($0) }
                let trimmed = value.trimmingPrefix { $0 == " " }
                if !(trimmed.hasPrefix("#") || trimmed.hasPrefix("data:")) { return marker + String(trimmed.prefix(60)) }
            }
            return nil
        }
        if let href = value(after: "href", opening: ["=", "\"", "'"], stopping: ["\"", "'", ">"]) { return href }
        if let url = value(after: "url(", opening: ["\"", "'"], stopping: ["\"", "'", ")"]) { return url }
        if text.contains("@import") { return "@import" }
        if text.contains("<!entity"), text.contains("system") || text.contains("public") { return "an external entity" }
        return nil
    }
}

/// librsvg, cairo and GLib, opened at the first SVG (`CRsvg`): a kiosk without SVG icons never
/// loads them, and one without them installed says so for each SVG it is given.
enum SVGLibraries {
    static func functions() throws(RasterError) -> KioskRsvgFunctions {
        guard let table = kiosk_rsvg_functions() else {
            throw .svg(call: "dlopen(librsvg-2.so.2)", message: "SVG icons need librsvg, cairo and GLib (Debian: librsvg2-2), "
                + "which cannot be loaded: \(String(cString: kiosk_rsvg_problem()))")
        }
        return table.pointee
    }

    /// cairo's words for `status`.
    static func describe(_ status: cairo_status_t, _ library: KioskRsvgFunctions) -> String {
        library.cairo_status_to_string(status).map { String(cString: $0) } ?? "cairo status \(status.rawValue)"
    }
}

/// A cairo image surface (ARGB32, premultiplied, native-endian: PixelBuffer's own layout) that
/// this owner destroys in deinit.
final class CairoImageSurface {
    let pointer: OpaquePointer
    let width: Int, height: Int
    let library: KioskRsvgFunctions

    init(width: Int, height: Int, library: KioskRsvgFunctions) throws(RasterError) {
        self.library = library
        guard let made = library.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .svg(call: "cairo_image_surface_create(\(width)x\(height))", message: "no surface")
        }
        pointer = made
        self.width = width
        self.height = height
        let status = library.cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            library.cairo_surface_destroy(pointer)
            throw .svg(call: "cairo_image_surface_create(\(width)x\(height))", message: SVGLibraries.describe(status, library))
        }
    }

    deinit { library.cairo_surface_destroy(pointer) }

    /// The surface's pixels copied into a new premultiplied ARGB buffer.
    func pixels() throws(RasterError) -> PixelBuffer {
        library.cairo_surface_flush(pointer)
        guard let data = library.cairo_image_surface_get_data(pointer) else {
            throw .svg(call: "cairo_image_surface_get_data", message: "the surface has no pixels")
        }
        let stride = Int(library.cairo_image_surface_get_stride(pointer))
        let out = try PixelBuffer(width: width, height: height, format: .argb8888Premultiplied)
        for y in 0..<height {
            UnsafeMutableRawPointer(out.row(y)).copyMemory(from: data + y * stride, byteCount: width * 4)
        }
        return out
    }
}

/// A cairo context drawing on one surface, destroyed in deinit; it keeps its surface alive.
final class CairoContext {
    let pointer: OpaquePointer
    private let surface: CairoImageSurface

    init(surface: CairoImageSurface) throws(RasterError) {
        self.surface = surface
        let library = surface.library
        guard let made = library.cairo_create(surface.pointer) else { throw .svg(call: "cairo_create", message: "no context") }
        pointer = made
        let status = library.cairo_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            library.cairo_destroy(pointer)
            throw .svg(call: "cairo_create", message: SVGLibraries.describe(status, library))
        }
    }

    deinit { surface.library.cairo_destroy(pointer) }
}
