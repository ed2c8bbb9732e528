import Foundation
@testable import Raster
import Testing

/// The images an SVG embeds are measured from their headers (PNG, JPEG, GIF), base64 or
/// percent-encoded, and held to a PNG icon's limits; anything else embedded is refused.
@Suite struct SVGEmbeddedImageTests {
    /// Made with ImageMagick: `convert -size 40x30 xc:red t.jpg`, `convert -size 40x30 xc:blue t.gif`.
    static let jpeg40x30 = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/wAALCAAeACgBAREA/8QAFQABAQAAAAAAAAAAAAAAAAAAAAn/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAA/AKpgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA//9k="
    static let gif40x30 = "R0lGODlhKAAeAPAAAAAA/wAAACH5BAAAAAAALAAAAAAoAB4AAAIhhI+py+0Po5y02ouz3rz7D4biSJbmiabqyrbuC8fyTHMFADs="

    static func png(_ width: Int, _ height: Int) throws -> [UInt8] {
        // One file per call: the suite's tests run in parallel and each unlinks its own.
        let path = NSTemporaryDirectory() + "embedded-\(width)x\(height)-\(UUID().uuidString).png"
        defer { unlink(path) }
        try PNGCodec.write(try PixelBuffer(width: width, height: height, format: .argb8888Premultiplied), to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func svg(_ hrefs: [String], attribute: String = "xlink:href") -> [UInt8] {
        let images = hrefs.map { "<image width=\"8\" height=\"8\" \(attribute) = '\($0)'/>" }.joined()
        return Array(("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"64\" height=\"64\">"
            + images + "</svg>").utf8)
    }

    @Test func eachKindIsMeasuredFromItsHeader() throws {
        let png = try Self.png(3, 2)
        #expect(SVGEmbeddedImages.measure(png) == .init(kind: "PNG", width: 3, height: 2))
        #expect(SVGEmbeddedImages.measure(try #require(SVGEmbeddedImages.base64(Array(Self.jpeg40x30.utf8)[...]))) == .init(kind: "JPEG", width: 40, height: 30))
        #expect(SVGEmbeddedImages.measure(try #require(SVGEmbeddedImages.base64(Array(Self.gif40x30.utf8)[...]))) == .init(kind: "GIF", width: 40, height: 30))
        #expect(SVGEmbeddedImages.measure(Array("<svg/>".utf8)) == nil)
        #expect(SVGEmbeddedImages.measure([0xFF, 0xD8, 0xFF]) == nil)
        #expect(SVGEmbeddedImages.measure(Array(png.prefix(20))) == nil)
    }

    @Test func smallImagesPassAndLargeOnesAreRefusedByName() throws {
        let small = "data:image/png;base64," + Data(try Self.png(3, 2)).base64EncodedString()
        #expect(SVGEmbeddedImages.problem(in: Self.svg([small, "data:image/jpeg;base64," + Self.jpeg40x30, "data:image/gif;base64,\n" + Self.gif40x30])) == nil)
        // A 12000x12000 PNG's header (its IHDR alone: measured, never decoded).
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        header += [0, 0, 0x2E, 0xE0, 0, 0, 0x2E, 0xE0, 8, 6, 0, 0, 0]
        let huge = "data:image/png;base64," + Data(header).base64EncodedString()
        #expect(SVGEmbeddedImages.problem(in: Self.svg([small, huge])) == "its embedded image 2 is a 12000x12000 PNG, over the 2048 pixels a side an icon's image may have")
        // Percent-encoded, and `href` without the xlink prefix, in capitals.
        let percent = "data:image/png," + header.map { String(format: "%%%02X", $0) }.joined()
        #expect(SVGEmbeddedImages.problem(in: Self.svg([percent], attribute: "HREF"))?.contains("12000x12000 PNG") == true)
        // Many images each within the limit, together over it.
        var wide: [UInt8] = Array(header.prefix(16))
        wide += [0, 0, 0x08, 0x00, 0, 0, 0x08, 0x00, 8, 6, 0, 0, 0]
        let full = "data:image/png;base64," + Data(wide).base64EncodedString()
        #expect(SVGEmbeddedImages.problem(in: Self.svg([full])) == nil)
        #expect(SVGEmbeddedImages.problem(in: Self.svg([full, small]))?.hasPrefix("its embedded images come to 4194310 pixels") == true)
    }

    @Test func anythingElseEmbeddedIsRefused() throws {
        let nested = "data:image/svg+xml;base64," + Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).base64EncodedString()
        #expect(SVGEmbeddedImages.problem(in: Self.svg([nested]))?.contains("not a PNG, JPEG or GIF") == true)
        #expect(SVGEmbeddedImages.problem(in: Self.svg(["data:image/png;base64,!!!"])) == "its embedded image 1 is not a readable data: URI")
        #expect(SVGEmbeddedImages.problem(in: Self.svg(["data:nocomma"])) == "its embedded image 1 is not a readable data: URI")
        // Through SVGDocument.check, which check-config and the worker's caller use.
        #expect(throws: RasterError.self) { try SVGDocument.check(Self.svg([nested]), name: "nested.svg") }
    }
}
