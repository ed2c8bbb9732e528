import CPNG
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// PNG reading and writing through libpng's simplified API (`png_image`), which applies libpng's
/// own transforms: palette expansion, grey to RGB, tRNS to alpha, 16 to 8 bits, de-interlacing.
/// It reports errors through the `png_image` rather than `longjmp`, so Swift can handle them.
public enum PNGCodec {
    /// Widest and tallest image decoded. Icons and background tiles are drawn at most a few hundred
    /// pixels wide even on a 4K panel (a background cell is at most 512 px at 1080 lines, so 1024 at
    /// 2160), so 2048 leaves room to spare while one decoded image stays at most 16 MiB. The
    /// header is checked before any pixel is decoded: an 8000x8000 PNG of 17 KB never costs 256 MB.
    public static let maximumDimension = 2048
    /// Decoded images are refused above this many pixels (`maximumDimension` squared).
    public static let maximumPixels = maximumDimension * maximumDimension
    /// Largest PNG file read: one of the largest size stored without compression is 16 MiB and a
    /// little; twice that leaves room for ancillary chunks.
    public static let maximumFileBytes = 2 * maximumPixels * 4

    /// The file's bytes, refused above `maximumFileBytes` before reading them: what is handed to a
    /// decoder in another process (the SVG worker decodes a config's images).
    public static func readFile(_ path: String) throws(RasterError) -> [UInt8] {
        try ImageFile.bytes(path, limit: maximumFileBytes, kind: "a PNG image", sizeCall: "PNG(\(path))") { .png(call: $0, message: $1) }
    }

    /// The size a PNG file's signature and IHDR chunk give, read by this code and not libpng (so
    /// that no PNG a config names is parsed by C code in the kiosk's process), checked against the
    /// decoding bounds. `name` names the file in errors.
    public static func header(of bytes: [UInt8], name: String) throws(RasterError) -> Header {
        guard bytes.starts(with: signature) else {
            throw .png(call: "PNG(\(name))", message: "not a PNG file (no PNG signature)")
        }
        guard bytes.count >= 33, bigEndian32(bytes, at: 8) == 13, let size = ihdrSize(bytes) else {
            throw .png(call: "PNG(\(name))", message: "not a PNG file (its first chunk is not a whole IHDR header)")
        }
        let (width, height) = size
        guard width > 0, height > 0 else { throw .png(call: "PNG(\(name))", message: "image size \(width)x\(height) is empty") }
        guard width <= maximumDimension, height <= maximumDimension, width * height <= maximumPixels else {
            throw .imageTooLarge(name: name, width: width, height: height, limit: maximumDimension)
        }
        return Header(width: width, height: height)
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The width and height in the IHDR chunk that follows a PNG's signature, read without
    /// libpng; nil when the bytes do not start so. Unchecked against any bound: the caller's.
    static func ihdrSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        return (bigEndian32(bytes, at: 16), bigEndian32(bytes, at: 20))
    }

    private static func bigEndian32(_ bytes: [UInt8], at i: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[i + $1]) } }

    /// An image's size as its header (IHDR) gives it.
    public struct Header: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Reads a PNG file into a premultiplied ARGB buffer; `.imageTooLarge` from its header alone.
    public static func read(path: String) throws(RasterError) -> PixelBuffer {
        try PNGReader(name: path) { image in png_image_begin_read_from_file(&image, path) }.decode(call: "png_image_begin_read_from_file(\(path))")
    }

    /// The size in the file's header, read without decoding any pixel: what a config check needs
    /// to refuse an image too large to decode. Throws what `read` would for a file that is not a
    /// PNG, or `.imageTooLarge`; a header that passes does not prove the pixel data is sound.
    public static func header(path: String) throws(RasterError) -> Header {
        try PNGReader(name: path) { image in png_image_begin_read_from_file(&image, path) }.header(call: "png_image_begin_read_from_file(\(path))")
    }

    /// Decodes PNG bytes into a premultiplied ARGB buffer.
    public static func decode(_ bytes: [UInt8]) throws(RasterError) -> PixelBuffer {
        guard !bytes.isEmpty else { throw .png(call: "png_image_begin_read_from_memory", message: "no data") }
        let result = bytes.withUnsafeBytes { raw -> Result<PixelBuffer, RasterError> in
            Result { () throws(RasterError) -> PixelBuffer in
                try PNGReader(name: "PNG data") { image in png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) }
                    .decode(call: "png_image_begin_read_from_memory")
            }
        }
        return try result.get()
    }

    /// Writes `buffer` as a PNG file: RGB for XRGB buffers, RGBA (un-premultiplied) for ARGB ones.
    public static func write(_ buffer: PixelBuffer, to path: String) throws(RasterError) {
        let hasAlpha = buffer.format == .argb8888Premultiplied
        let channels = hasAlpha ? 4 : 3
        var bytes = [UInt8](repeating: 0, count: buffer.width * buffer.height * channels)
        var i = 0
        for y in 0..<buffer.height {
            let row = buffer.row(y)
            for x in 0..<buffer.width {
                let p = row[x]
                var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                if hasAlpha {
                    let a = p >> 24
                    if a == 0 { (r, g, b) = (0, 0, 0) } else if a < 255 {
                        r = Swift.min(255, (r * 255 + a / 2) / a); g = Swift.min(255, (g * 255 + a / 2) / a); b = Swift.min(255, (b * 255 + a / 2) / a)
                    }
                    bytes[i] = UInt8(r); bytes[i + 1] = UInt8(g); bytes[i + 2] = UInt8(b); bytes[i + 3] = UInt8(a)
                } else {
                    bytes[i] = UInt8(r); bytes[i + 1] = UInt8(g); bytes[i + 2] = UInt8(b)
                }
                i += channels
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(buffer.width)
        image.height = UInt32(buffer.height)
        image.format = hasAlpha ? PNGFormat.rgba : PNGFormat.rgb
        // Speed over size: a screenshot is written on the event loop, which the watchdog times.
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        // The file is opened here rather than by libpng, whose only word for a missing folder is
        // strerror's; a path that cannot be written is then said plainly (see `cannotOpen`).
        guard let file = fopen(path, "wb") else { throw cannotOpen(path, errno: errno) }
        let ok = bytes.withUnsafeBytes { raw in
            png_image_write_to_stdio(&image, file, 0, raw.baseAddress, Int32(buffer.width * channels), nil)
        }
        let message = pngMessage(image)
        png_image_free(&image)
        let closed = fclose(file) == 0
        guard ok != 0, closed else {
            // As png_image_write_to_file does: no half-written file is left behind.
            remove(path)
            throw .png(call: "png_image_write_to_stdio(\(path))", message: ok != 0 ? "closing the file failed" : message)
        }
    }

    /// Creates the folder `path` and any missing parents (as `mkdir -p` does), for a folder PNG
    /// files are to be written into; a folder that exists is fine. Throws `.cannotWrite` naming
    /// the part of the path that is in the way.
    public static func createFolder(_ path: String) throws(RasterError) {
        guard !path.isEmpty else { throw .cannotWrite(path: path, reason: "no folder named") }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if mkdir(prefix, 0o755) == 0 { continue }
            let error = errno
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw .cannotWrite(path: path, reason: "\(prefix) exists and is not a folder")
                }
                continue
            }
            throw .cannotWrite(path: path, reason: "cannot create the folder \(prefix): \(errorText(error))")
        }
    }

    /// Why `fopen(path, "wb")` failed, in words: a missing folder is named.
    static func cannotOpen(_ path: String, errno error: Int32) -> RasterError {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var info = stat()
        switch error {
        case ENOENT where stat(folder, &info) != 0:
            return .cannotWrite(path: path, reason: "the folder \(folder) does not exist")
        case ENOTDIR:
            return .cannotWrite(path: path, reason: "a part of \(folder) is not a folder")
        case EISDIR:
            return .cannotWrite(path: path, reason: "it is a folder; give a file name")
        default:
            return .cannotWrite(path: path, reason: errorText(error))
        }
    }
}

private func errorText(_ error: Int32) -> String {
    strerror(error).map { String(cString: $0) } ?? "errno \(error)"
}

/// Owns one `png_image` for the length of a decode, and frees it on every path out.
private struct PNGReader {
    /// How messages name the image (its path).
    let name: String
    let begin: (inout png_image) -> Int32

    /// Reads the header (libpng reads the chunks before the first IDAT, no pixel data) and checks
    /// the size against the decoding bounds.
    private func readHeader(_ image: inout png_image, call: String) throws(RasterError) -> PNGCodec.Header {
        guard begin(&image) != 0 else { throw .png(call: call, message: pngMessage(image)) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw .png(call: call, message: "image size \(width)x\(height) is empty") }
        guard width <= PNGCodec.maximumDimension, height <= PNGCodec.maximumDimension, width * height <= PNGCodec.maximumPixels else {
            throw .imageTooLarge(name: name, width: width, height: height, limit: PNGCodec.maximumDimension)
        }
        return PNGCodec.Header(width: width, height: height)
    }

    func header(call: String) throws(RasterError) -> PNGCodec.Header {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        return try readHeader(&image, call: call)
    }

    func decode(call: String) throws(RasterError) -> PixelBuffer {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let size = try readHeader(&image, call: call)
        let width = size.width, height = size.height
        let buffer = try PixelBuffer(width: width, height: height, format: .argb8888Premultiplied)
        if image.format & PNGFormat.flagLinear != 0 {
            // A 16-bit file. libpng's simplified API takes 16-bit samples as linear light and would
            // gamma-encode them on the way to 8 bits; read them as they are stored (premultiplied
            // 16-bit) and round each to 8 bits instead.
            image.format = PNGFormat.bgra | PNGFormat.flagLinear
            var wide = [UInt16](repeating: 0, count: width * height * 4)
            let ok = wide.withUnsafeMutableBytes { raw in
                png_image_finish_read(&image, nil, raw.baseAddress, Int32(width * 4), nil)
            }
            guard ok != 0 else { throw .png(call: "png_image_finish_read", message: pngMessage(image)) }
            for y in 0..<height {
                let row = buffer.row(y)
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    func to8(_ v: UInt16) -> UInt32 { (UInt32(v) * 255 + 32767) / 65535 }
                    row[x] = (to8(wide[i + 3]) << 24) | (to8(wide[i + 2]) << 16) | (to8(wide[i + 1]) << 8) | to8(wide[i])
                }
            }
            return buffer
        }
        // BGRA bytes are exactly the little-endian 0xAARRGGBB layout of a PixelBuffer row.
        image.format = PNGFormat.bgra
        let ok = png_image_finish_read(&image, nil, buffer.base, Int32(buffer.bytesPerRow), nil)
        guard ok != 0 else { throw .png(call: "png_image_finish_read", message: pngMessage(image)) }
        for y in 0..<height {
            let row = buffer.row(y)
            for x in 0..<width {
                let p = row[x], a = p >> 24
                if a != 255 { row[x] = (a << 24) | (scalePixel(p, by: a) & 0x00FF_FFFF) }
            }
        }
        return buffer
    }
}

/// libpng's error text, stored in the `png_image`'s fixed-size `message` field.
private func pngMessage(_ image: png_image) -> String {
    var copy = image.message
    let text = withUnsafeBytes(of: &copy) { raw -> String in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
    return text.isEmpty ? "unknown libpng error" : text
}

/// libpng's `PNG_FORMAT_*` values, which are macro expressions Swift does not import.
private enum PNGFormat {
    static let flagAlpha: UInt32 = 0x01, flagColor: UInt32 = 0x02, flagLinear: UInt32 = 0x04, flagBGR: UInt32 = 0x10
    static let rgb = flagColor
    static let rgba = flagColor | flagAlpha
    static let bgra = flagColor | flagAlpha | flagBGR
}
