import Foundation
import Raster
import Testing

// Independent references for the text pipeline: HarfBuzz's own command-line tools (`hb-shape`,
// `hb-view`, package libharfbuzz-bin) run as separate processes, and the colour emoji font's own
// PNG strikes read straight from its CBLC/CBDT tables. Nothing here calls into Sources/Text
// except to ask what it drew.

/// A reference tool that is missing or failed: the test fails with this message, never skips.
struct ReferenceError: Error, CustomStringConvertible {
    let description: String
}

enum ReferenceTools {
    /// Where a failing comparison writes `<name>.actual.png` (the kiosk) and `<name>.expected.png`
    /// (the reference): a folder under the system's temporary directory, named in the failure.
    static let outputDirectory: String = {
        let dir = NSTemporaryDirectory() + "kiosk-text-reference"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// KIOSK_TEXT_REFERENCE_IMAGES=1 writes both pictures of every comparison, passing or not, to look at.
    static let writingAll = ProcessInfo.processInfo.environment["KIOSK_TEXT_REFERENCE_IMAGES"] == "1"

    /// The absolute path of `tool` on PATH (or in /usr/bin), or a failure naming the package.
    static func locate(_ tool: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ReferenceError(description: "\(tool) is not installed (not on PATH \(path)): it is the independent reference of these tests; install the Debian package libharfbuzz-bin (listed in scripts/apt-packages.txt)")
    }

    /// Runs a tool to completion and returns its standard output; a non-zero exit is a failure
    /// carrying its standard error.
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try locate(tool))
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard output is read to its end before waiting, so a long output cannot block the
        // tool; these tools write at most a line to standard error, far below a pipe's buffer.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errData, as: UTF8.self)
            throw ReferenceError(description: "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(message)")
        }
        return outData
    }

    /// The language HarfBuzz's `hb_language_get_default()` gives this process (what the kiosk's
    /// shaper tags its buffers with): the LC_CTYPE locale, lower-cased, `_` as `-`, cut at the first
    /// other character ("C.UTF-8" is "c"). hb-shape is given it explicitly so that both agree.
    static let defaultLanguage: String = {
        guard let locale = setlocale(LC_CTYPE, nil) else { return "c" }
        var tag = ""
        for c in String(cString: locale).lowercased() {
            if c == "_" || c == "-" { tag.append("-") } else if c.isASCII, c.isLetter || c.isNumber { tag.append(c) } else { break }
        }
        return tag.isEmpty ? "c" : tag
    }()
}

// MARK: hb-shape

/// One glyph as `hb-shape --output-format=json --no-glyph-names` prints it, positions in 26.6
/// (`--font-size` is given as the pixel size times 64, so one unit is 1/64 px).
struct ReferenceGlyph: Equatable, CustomStringConvertible {
    var glyph: UInt32
    var cluster: Int
    var advance: Int
    var dx: Int
    var dy: Int

    var description: String { "g\(glyph)@cl\(cluster)+\(advance)(\(dx),\(dy))" }
}

enum HBShape {
    /// The arguments, apart from the text, that make hb-shape shape like the kiosk: the same face,
    /// scale = size in 26.6 (`--font-size` is the scale when hb-shape's subpixel bits are 0, which
    /// they are), HarfBuzz's own OpenType font functions (`--font-funcs=ot`, also its default),
    /// glyph ids rather than names, and the process's default language.
    static func arguments(font: String, faceIndex: Int, size64: Int) -> [String] {
        ["--font-file=\(font)", "--face-index=\(faceIndex)", "--font-size=\(size64)", "--font-funcs=ot",
         "--no-glyph-names", "--output-format=json", "--language=\(ReferenceTools.defaultLanguage)"]
    }

    /// Shapes `text` with hb-shape; `extra` adds direction, script or context options.
    static func shape(_ text: String, font: String, faceIndex: Int = 0, size64: Int, extra: [String] = []) throws -> [ReferenceGlyph] {
        let args = arguments(font: font, faceIndex: faceIndex, size64: size64) + extra + ["--text=\(text)"]
        let data = try ReferenceTools.run("hb-shape", args)
        // hb-shape prints one JSON array per line of text.
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first,
              let array = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]] else {
            throw ReferenceError(description: "hb-shape printed no JSON array for \(args): \(String(decoding: data, as: UTF8.self))")
        }
        return try array.map { item in
            guard let g = item["g"] as? Int, let cl = item["cl"] as? Int, let ax = item["ax"] as? Int,
                  let dx = item["dx"] as? Int, let dy = item["dy"] as? Int else {
                throw ReferenceError(description: "hb-shape glyph without numeric g/cl/ax/dx/dy: \(item)")
            }
            return ReferenceGlyph(glyph: UInt32(g), cluster: cl, advance: ax, dx: dx, dy: dy)
        }
    }
}

// MARK: Ink images

/// An image as how dark each channel is on a white page (0 white, 1 black), for comparing what
/// two renderers put on the page whatever their pixel formats.
struct InkImage {
    let width: Int
    let height: Int
    /// Three values (red, green, blue darkness) per pixel, row by row.
    var dark: [Float]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        dark = [Float](repeating: 0, count: width * height * 3)
    }

    /// From a buffer drawn on white (XRGB), or any buffer composited over white (premultiplied ARGB,
    /// as PNGCodec reads files: hb-view's grayscale PNG comes out as opaque grey).
    init(_ buffer: PixelBuffer) {
        self.init(width: buffer.width, height: buffer.height)
        let opaque = buffer.format == .xrgb8888
        for y in 0..<height {
            for x in 0..<width {
                let p = buffer[x, y]!
                let a = opaque ? 255 : p >> 24
                for (c, shift) in [16, 8, 0].enumerated() {
                    let overWhite = min(255, ((p >> UInt32(shift)) & 0xFF) + (255 - a))
                    dark[(y * width + x) * 3 + c] = Float(255 - overWhite) / 255
                }
            }
        }
    }

    /// Back to a picture, to write beside the other one.
    func buffer() throws -> PixelBuffer {
        let b = try PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let rgb = (0..<3).map { UInt32((255 * (1 - dark[i + $0])).rounded()) }
                b.setPixel(x: x, y: y, rgb[0] << 16 | rgb[1] << 8 | rgb[2])
            }
        }
        return b
    }

    /// The darkest channel of a pixel: the ink coverage of black text.
    func ink(_ x: Int, _ y: Int) -> Float {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        let i = (y * width + x) * 3
        return max(dark[i], dark[i + 1], dark[i + 2])
    }

    /// The smallest rectangle holding every pixel with some ink (> 1/8), or nil for a blank page.
    var inkBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var b: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<height {
            for x in 0..<width where ink(x, y) > 0.125 {
                b = (min(b?.minX ?? x, x), min(b?.minY ?? y, y), max(b?.maxX ?? x, x), max(b?.maxY ?? y, y))
            }
        }
        return b
    }

    /// Ink-weighted centre.
    var centroid: (x: Double, y: Double) {
        var sx = 0.0, sy = 0.0, s = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let w = Double(ink(x, y))
                sx += w * Double(x); sy += w * Double(y); s += w
            }
        }
        return s > 0 ? (sx / s, sy / s) : (0, 0)
    }
}

/// How alike two renderings of one line are, by two measures taken with `b` shifted by whole
/// pixels (the two renderers place the baseline and round pen positions independently; the shift
/// is searched within ±`search` px around the one that lines up their ink centroids, and the one
/// with the best similarity is kept):
/// - `similarity`: the weighted Jaccard (Ruzicka) similarity of their per-channel darkness,
///   Σ min(a, b) / Σ max(a, b) over every pixel and channel. 1 is identical ink; ink that only one
///   of them has counts fully against. It falls when glyphs are reordered, unjoined, missing or
///   from another font, and for colour it falls when colours differ (a skin tone, a flag).
/// - `strayPixels`: pixels that are solid ink (≥ 1/2) in one and have no ink worth the name
///   (≥ 1/4) within one pixel in the other, counted both ways. A whole-pixel hinting or rounding
///   difference moves an edge by at most a pixel and leaves none; a missing or extra mark, dot or
///   accent, too small to move the similarity much, leaves a blob of them.
struct InkComparison: CustomStringConvertible {
    let similarity: Double
    let shift: (dx: Int, dy: Int)
    /// Solid pixels of `a` with nothing near them in `b`, and the other way round.
    let strayPixels: (inA: Int, inB: Int)
    let inkA: Double
    let inkB: Double

    var description: String {
        "similarity \(String(format: "%.3f", similarity)), stray pixels \(strayPixels.inA) + \(strayPixels.inB) at shift (\(shift.dx), \(shift.dy)); ink \(String(format: "%.1f", inkA)) vs \(String(format: "%.1f", inkB)) px"
    }

    /// Whether this is a match by all three bounds (see `expectInk`).
    func meets(minimum: Double, maximumStray: Int, maximumShift: Int) -> Bool {
        similarity >= minimum && max(strayPixels.inA, strayPixels.inB) <= maximumStray && max(abs(shift.dx), abs(shift.dy)) <= maximumShift
    }

    static func compare(_ a: InkImage, _ b: InkImage, search: Int = 3) -> InkComparison {
        let ca = a.centroid, cb = b.centroid
        let bx = Int((cb.x - ca.x).rounded()), by = Int((cb.y - ca.y).rounded())
        let inkA = Double(a.dark.reduce(0, +)) / 3, inkB = Double(b.dark.reduce(0, +)) / 3
        guard let ra = a.inkBounds, let rb = b.inkBounds else {
            return InkComparison(similarity: inkA == inkB ? 1 : 0, shift: (0, 0), strayPixels: (0, 0), inkA: inkA, inkB: inkB)
        }
        var best = (similarity: -1.0, dx: 0, dy: 0)
        for dy in (by - search)...(by + search) {
            for dx in (bx - search)...(bx + search) {
                // Pixel (x, y) of `a` meets pixel (x + dx, y + dy) of `b`; only the union of the
                // two inked rectangles (in a's coordinates) can hold ink, with one pixel to spare.
                let x0 = min(ra.minX, rb.minX - dx) - 1, x1 = max(ra.maxX, rb.maxX - dx) + 1
                let y0 = min(ra.minY, rb.minY - dy) - 1, y1 = max(ra.maxY, rb.maxY - dy) + 1
                var lo = 0.0, hi = 0.0
                for y in y0...y1 {
                    for x in x0...x1 {
                        let ia = (x >= 0 && y >= 0 && x < a.width && y < a.height) ? (y * a.width + x) * 3 : -1
                        let xb = x + dx, yb = y + dy
                        let ib = (xb >= 0 && yb >= 0 && xb < b.width && yb < b.height) ? (yb * b.width + xb) * 3 : -1
                        if ia < 0 && ib < 0 { continue }
                        for c in 0..<3 {
                            let va = ia >= 0 ? a.dark[ia + c] : 0, vb = ib >= 0 ? b.dark[ib + c] : 0
                            lo += Double(min(va, vb)); hi += Double(max(va, vb))
                        }
                    }
                }
                let s = hi > 0 ? lo / hi : 1
                if s > best.similarity { best = (s, dx, dy) }
            }
        }
        return InkComparison(similarity: best.similarity, shift: (best.dx, best.dy),
                             strayPixels: (stray(a, b, dx: best.dx, dy: best.dy), stray(b, a, dx: -best.dx, dy: -best.dy)),
                             inkA: inkA, inkB: inkB)
    }

    /// Pixels of `a` with ink ≥ 1/2 where `b` (pixel (x + dx, y + dy) meeting a's (x, y)) has no
    /// pixel with ink ≥ 1/4 within one pixel.
    static func stray(_ a: InkImage, _ b: InkImage, dx: Int, dy: Int) -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.ink(x, y) >= 0.5 {
                var near = false
                for ny in (y + dy - 1)...(y + dy + 1) where !near {
                    for nx in (x + dx - 1)...(x + dx + 1) where b.ink(nx, ny) >= 0.25 { near = true; break }
                }
                if !near { count += 1 }
            }
        }
        return count
    }
}

/// Records a failure when `actual` (the kiosk) is less similar than `minimum` to `expected` (the
/// reference), has more than `maximumStray` stray pixels either way, or lines up with it only when
/// shifted by more than `maximumShift` px from where both were drawn (same margin, pen start and
/// baseline), after writing both into `ReferenceTools.outputDirectory`.
func expectInk(_ actual: InkImage, matches expected: InkImage, minimum: Double, maximumStray: Int, maximumShift: Int,
               name: String, reference: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> InkComparison {
    let result = InkComparison.compare(actual, expected)
    print("\(name) against \(reference): \(result)")
    let failed = !result.meets(minimum: minimum, maximumStray: maximumStray, maximumShift: maximumShift)
    let dir = ReferenceTools.outputDirectory
    if failed || ReferenceTools.writingAll {
        try PNGCodec.write(actual.buffer(), to: "\(dir)/\(name).actual.png")
        try PNGCodec.write(expected.buffer(), to: "\(dir)/\(name).expected.png")
    }
    if failed {
        Issue.record("\(name): the kiosk's ink differs from \(reference)'s: \(result), required: similarity ≥ \(minimum), at most \(maximumStray) stray pixels each way, a shift of at most \(maximumShift) px; wrote \(dir)/\(name).actual.png (kiosk) and \(dir)/\(name).expected.png (\(reference))",
                     sourceLocation: sourceLocation)
    }
    return result
}

// MARK: hb-view

enum HBView {
    /// hb-view's picture of `text`: black on white, `margin` px on every side, pen starting at the
    /// left margin, baseline at the top margin plus the font's ascender (HarfBuzz's extents).
    /// hb-view scales by size × 64 (its 6 subpixel bits), shapes with the same HarfBuzz, and draws
    /// through cairo with FreeType, unhinted.
    static func render(_ text: String, font: String, faceIndex: Int = 0, size: Int, margin: Int) throws -> PixelBuffer {
        let file = ReferenceTools.outputDirectory + "/hb-view-\(UUID().uuidString).png"
        defer { unlink(file) }
        _ = try ReferenceTools.run("hb-view", [
            "--font-file=\(font)", "--face-index=\(faceIndex)", "--font-size=\(size)", "--font-funcs=ot",
            "--language=\(ReferenceTools.defaultLanguage)", "--margin=\(margin)",
            "--background=FFFFFF", "--foreground=000000", "--output-format=png", "--output-file=\(file)", "--text=\(text)",
        ])
        return try PNGCodec.read(path: file)
    }
}

// MARK: Colour emoji strikes (CBLC/CBDT)

/// A colour bitmap font's glyph images read from its own tables (OpenType CBLC index, CBDT data):
/// the PNG stored for a glyph and its metrics at the strike's size, without FreeType.
struct ColorBitmapFont {
    struct Strike {
        let png: [UInt8]
        let width: Int
        let height: Int
        let bearingX: Int
        let bearingY: Int
        let ppem: Int
    }

    private let bytes: [UInt8]
    private let cblc: Int
    private let cbdt: Int

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReferenceError(description: "cannot read \(path)")
        }
        bytes = [UInt8](data)
        var tables: [String: Int] = [:]
        let count = Self.u16(bytes, 4)
        for i in 0..<count {
            let record = 12 + 16 * i
            let tag = String(decoding: bytes[record..<record + 4], as: UTF8.self)
            tables[tag] = Self.u32(bytes, record + 8)
        }
        guard let cblc = tables["CBLC"], let cbdt = tables["CBDT"] else {
            throw ReferenceError(description: "\(path) has no CBLC/CBDT tables")
        }
        self.cblc = cblc
        self.cbdt = cbdt
    }

    static func u16(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
    static func u32(_ b: [UInt8], _ o: Int) -> Int { u16(b, o) << 16 | u16(b, o + 2) }
    static func i8(_ b: [UInt8], _ o: Int) -> Int { Int(Int8(bitPattern: b[o])) }

    /// The image of `glyph` in the largest strike that has it.
    func strike(_ glyph: UInt32) throws -> Strike {
        let g = Int(glyph)
        let sizes = Self.u32(bytes, cblc + 4)
        var found: Strike?
        for s in 0..<sizes {
            let record = cblc + 8 + 48 * s
            let arrayOffset = cblc + Self.u32(bytes, record)
            let subtables = Self.u32(bytes, record + 8)
            let ppem = Int(bytes[record + 45])
            for k in 0..<subtables {
                let entry = arrayOffset + 8 * k
                let first = Self.u16(bytes, entry), last = Self.u16(bytes, entry + 2)
                guard (first...last).contains(g) else { continue }
                let header = arrayOffset + Self.u32(bytes, entry + 4)
                let indexFormat = Self.u16(bytes, header), imageFormat = Self.u16(bytes, header + 2)
                let imageData = cbdt + Self.u32(bytes, header + 4)
                let offset: Int
                switch indexFormat {
                case 1: offset = Self.u32(bytes, header + 8 + 4 * (g - first))
                case 3: offset = Self.u16(bytes, header + 8 + 2 * (g - first))
                default: throw ReferenceError(description: "CBLC index format \(indexFormat) is not read by this test")
                }
                let at = imageData + offset
                let strike: Strike
                switch imageFormat {
                case 17: // smallGlyphMetrics (height, width, bearingX, bearingY, advance), length, PNG
                    let length = Self.u32(bytes, at + 5)
                    strike = Strike(png: Array(bytes[(at + 9)..<(at + 9 + length)]), width: Int(bytes[at + 1]), height: Int(bytes[at]),
                                    bearingX: Self.i8(bytes, at + 2), bearingY: Self.i8(bytes, at + 3), ppem: ppem)
                case 18: // bigGlyphMetrics (height, width, horiBearingX, horiBearingY, ...), length, PNG
                    let length = Self.u32(bytes, at + 8)
                    strike = Strike(png: Array(bytes[(at + 12)..<(at + 12 + length)]), width: Int(bytes[at + 1]), height: Int(bytes[at]),
                                    bearingX: Self.i8(bytes, at + 2), bearingY: Self.i8(bytes, at + 3), ppem: ppem)
                default: throw ReferenceError(description: "CBDT image format \(imageFormat) is not read by this test")
                }
                if found == nil || strike.ppem > found!.ppem { found = strike }
            }
        }
        guard let found else { throw ReferenceError(description: "glyph \(glyph) is in no CBLC strike") }
        return found
    }
}

extension InkImage {
    /// Paints a colour image (premultiplied ARGB) scaled by `scale` with its top-left corner at the
    /// fractional point (`left`, `top`), each page pixel getting the exact area-weighted average of
    /// the image pixels under it, composited over what is there.
    mutating func paint(_ image: PixelBuffer, left: Double, top: Double, scale: Double) {
        let x0 = max(0, Int(left.rounded(.down))), x1 = min(width, Int((left + Double(image.width) * scale).rounded(.up)))
        let y0 = max(0, Int(top.rounded(.down))), y1 = min(height, Int((top + Double(image.height) * scale).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let sy0 = max(0, (Double(y) - top) / scale), sy1 = min(Double(image.height), (Double(y + 1) - top) / scale)
            guard sy0 < sy1 else { continue }
            for x in x0..<x1 {
                let sx0 = max(0, (Double(x) - left) / scale), sx1 = min(Double(image.width), (Double(x + 1) - left) / scale)
                guard sx0 < sx1 else { continue }
                var sum = [0.0, 0.0, 0.0, 0.0]
                for sy in Int(sy0.rounded(.down))..<Int(sy1.rounded(.up)) {
                    let wy = min(sy1, Double(sy + 1)) - max(sy0, Double(sy))
                    for sx in Int(sx0.rounded(.down))..<Int(sx1.rounded(.up)) {
                        let w = wy * (min(sx1, Double(sx + 1)) - max(sx0, Double(sx)))
                        let p = image[sx, sy]!
                        sum[0] += w * Double((p >> 16) & 0xFF); sum[1] += w * Double((p >> 8) & 0xFF)
                        sum[2] += w * Double(p & 0xFF); sum[3] += w * Double(p >> 24)
                    }
                }
                // The pixel's whole area counts: parts of it outside the image are transparent.
                let a = sum[3] / 255 / (1 / scale / scale)
                let i = (y * width + x) * 3
                for c in 0..<3 {
                    let premultiplied = sum[c] / 255 / (1 / scale / scale)
                    let under = 1 - Double(dark[i + c])
                    let over = premultiplied + (1 - a) * under
                    dark[i + c] = Float(max(0, min(1, 1 - over)))
                }
            }
        }
    }
}
