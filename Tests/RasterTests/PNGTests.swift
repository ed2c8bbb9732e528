import Glibc
import Raster
import Testing

/// PNG decoding of every colour type the fixtures hold (written by Fixtures/make_fixtures.py
/// without libpng), round-tripping, and clear errors for bad input.
@Suite struct PNGTests {
    /// The fixtures' colours, straight RGBA, row-major 4x3 (see make_fixtures.py).
    static let colors: [[(UInt32, UInt32, UInt32, UInt32)]] = [
        [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)],
        [(0, 0, 0, 255), (128, 64, 32, 255), (10, 200, 100, 255), (255, 255, 0, 255)],
        [(255, 0, 0, 128), (0, 0, 0, 0), (40, 80, 120, 255), (200, 100, 50, 64)],
    ]

    /// Premultiplied ARGB as the decoder must produce it (exact: tolerance 0).
    static func expected(_ c: (UInt32, UInt32, UInt32, UInt32), grey: Bool, alpha: Bool) -> UInt32 {
        let a = alpha ? c.3 : 255
        let (r, g, b) = grey ? (c.0, c.0, c.0) : (c.0, c.1, c.2)
        return (a << 24) | (div255(r * a) << 16) | (div255(g * a) << 8) | div255(b * a)
    }

    @Test(arguments: [("palette.png", false, true), ("grey.png", true, false), ("grey-alpha.png", true, true),
                      ("rgb16.png", false, false), ("rgba.png", false, true), ("rgb-interlaced.png", false, false)])
    func decodesEveryColourType(file: String, grey: Bool, alpha: Bool) throws {
        let image = try PNGCodec.read(path: "\(fixtureDirectory)/\(file)")
        #expect(image.width == 4 && image.height == 3)
        #expect(image.format == .argb8888Premultiplied)
        for y in 0..<3 {
            for x in 0..<4 {
                let want = Self.expected(Self.colors[y][x], grey: grey, alpha: alpha)
                #expect(image[x, y] == want, "\(file) pixel (\(x), \(y))")
            }
        }
    }

    @Test func roundTripsXRGBAndARGB() throws {
        let xrgb = try PixelBuffer(width: 7, height: 5)
        let argb = try PixelBuffer(width: 7, height: 5, format: .argb8888Premultiplied)
        for y in 0..<5 {
            for x in 0..<7 {
                xrgb.setPixel(x: x, y: y, UInt32(x * 36) << 16 | UInt32(y * 60) << 8 | UInt32((x * y * 7) & 0xFF))
                argb.setPixel(x: x, y: y, 0xFF00_0000 | UInt32(x * 30) << 16 | UInt32(y * 50))
            }
        }
        let dir = "/tmp/kiosk-raster-png-\(getpid())"
        mkdir(dir, 0o755)
        try PNGCodec.write(xrgb, to: "\(dir)/x.png")
        try PNGCodec.write(argb, to: "\(dir)/a.png")
        let x2 = try PNGCodec.read(path: "\(dir)/x.png"), a2 = try PNGCodec.read(path: "\(dir)/a.png")
        for y in 0..<5 {
            for x in 0..<7 {
                #expect(x2[x, y]! == xrgb[x, y]! | 0xFF00_0000)
                #expect(a2[x, y]! == argb[x, y]!)
            }
        }
    }

    /// Writing into a folder that is not there names the folder instead of passing on libpng's
    /// (strerror's) words, and leaves nothing behind.
    @Test func writingIntoAMissingFolderSaysSo() throws {
        let frame = try PixelBuffer(width: 2, height: 2)
        let dir = "/tmp/kiosk-raster-png-missing-\(getpid())"
        #expect(throws: RasterError.cannotWrite(path: "\(dir)/out/x.png", reason: "the folder \(dir)/out does not exist")) {
            try PNGCodec.write(frame, to: "\(dir)/out/x.png")
        }
        #expect(RasterError.cannotWrite(path: "a/x.png", reason: "the folder a does not exist").description
                == "cannot write a/x.png: the folder a does not exist")
        #expect(access(dir, F_OK) != 0)
    }

    /// `createFolder` is `mkdir -p`: every missing parent, an existing folder is fine, and a file
    /// in the way is named.
    @Test func createFolderMakesEveryMissingParent() throws {
        let root = "/tmp/kiosk-raster-png-folder-\(getpid())"
        defer { for p in ["\(root)/a/b/c/x.png", "\(root)/a/b/c", "\(root)/a/b", "\(root)/a", "\(root)/file", root] { remove(p) } }
        let frame = try PixelBuffer(width: 2, height: 2)
        try PNGCodec.createFolder("\(root)/a/b/c")
        try PNGCodec.createFolder("\(root)/a/b/c/")   // already there
        try PNGCodec.write(frame, to: "\(root)/a/b/c/x.png")
        #expect(try PNGCodec.read(path: "\(root)/a/b/c/x.png").width == 2)
        try PNGCodec.write(frame, to: "\(root)/file")
        #expect(throws: RasterError.cannotWrite(path: "\(root)/file/d", reason: "\(root)/file exists and is not a folder")) {
            try PNGCodec.createFolder("\(root)/file/d")
        }
        #expect(throws: RasterError.cannotWrite(path: "\(root)/file/x.png", reason: "a part of \(root)/file is not a folder")) {
            try PNGCodec.write(frame, to: "\(root)/file/x.png")
        }
        #expect(throws: RasterError.cannotWrite(path: "\(root)/a", reason: "it is a folder; give a file name")) {
            try PNGCodec.write(frame, to: "\(root)/a")
        }
    }

    @Test func missingFileIsAClearError() {
        #expect(throws: RasterError.self) { try PNGCodec.read(path: "/nonexistent/kiosk.png") }
        do { _ = try PNGCodec.read(path: "/nonexistent/kiosk.png") } catch {
            #expect(error.description.contains("png_image_begin_read_from_file"))
        }
    }

    @Test func truncatedFileIsAClearError() {
        #expect(throws: RasterError.self) { try PNGCodec.read(path: "\(fixtureDirectory)/truncated.png") }
    }

    @Test func corruptBytesAreAClearError() throws {
        #expect(throws: RasterError.self) { try PNGCodec.decode([]) }
        #expect(throws: RasterError.self) { try PNGCodec.decode(Array("not a png at all".utf8)) }
        // A valid file with its image data damaged.
        let fd = open("\(fixtureDirectory)/rgba.png", O_RDONLY)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &bytes, bytes.count)
        close(fd)
        bytes = Array(bytes[0..<n])
        for i in 45..<(n - 12) { bytes[i] ^= 0xA5 }
        #expect(throws: RasterError.self) { try PNGCodec.decode(bytes) }
    }

    /// The header read without libpng gives libpng's size for every colour type, and refuses what
    /// is not a PNG or is too large to decode before any pixel is.
    @Test func theHeaderReadWithoutLibpngAgreesWithLibpng() throws {
        for name in ["rgba", "rgb16", "grey-alpha", "grey", "rgb-interlaced", "palette"] {
            let path = "\(fixtureDirectory)/\(name).png"
            let bytes = try PNGCodec.readFile(path)
            #expect(try PNGCodec.header(of: bytes, name: path) == PNGCodec.header(path: path), "\(name)")
        }
        var bytes = try PNGCodec.readFile("\(fixtureDirectory)/rgba.png")
        #expect(throws: RasterError.self) { try PNGCodec.header(of: Array(bytes[..<20]), name: "short") }
        #expect(throws: RasterError.self) { try PNGCodec.header(of: Array("not a png at all, not at all".utf8), name: "text") }
        var renamed = bytes
        renamed[12] = UInt8(ascii: "i")  // the first chunk is not IHDR
        #expect(throws: RasterError.self) { try PNGCodec.header(of: renamed, name: "renamed") }
        // 12000 x 12000: refused by its size, as libpng's header would be.
        for (i, v) in [0, 0, 0x2E, 0xE0, 0, 0, 0x2E, 0xE0].enumerated() { bytes[16 + i] = UInt8(v) }
        #expect(throws: RasterError.imageTooLarge(name: "huge", width: 12000, height: 12000, limit: PNGCodec.maximumDimension)) {
            try PNGCodec.header(of: bytes, name: "huge")
        }
    }
}

