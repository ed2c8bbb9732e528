import Foundation
import Raster
import Testing

/// SVG icons rendered through librsvg (`SVGDocument`) against `rsvg-convert` (package
/// librsvg2-bin), run as a separate process on the same file at 3 sizes, and the refusals of
/// hostile SVGs.
///
/// Tolerance 1 per channel, alpha included: both render with librsvg and cairo, but rsvg-convert
/// writes its PNG un-premultiplied (colour * 255 / alpha, rounded) and PNGCodec premultiplies it
/// again when reading it back, which moves a channel of a partly transparent pixel by at most 1.
/// Any real difference (a wrong scale, an offset, a lost gradient or `use`) is tens of levels.
@Suite struct SVGTests {
    static let tolerance: UInt32 = 1
    /// Where a failing comparison writes `<name>.actual.png` beside `<name>.expected.png`.
    static let outputDirectory: String = {
        let dir = NSTemporaryDirectory() + "kiosk-svg-reference"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    @Test(arguments: ["icon-symbolic", "icon-colour", "icon-viewbox-only"], [16, 48, 128])
    func matchesRsvgConvert(icon: String, side: Int) throws {
        let file = "\(fixtureDirectory)/\(icon).svg"
        let name = "\(icon)-\(side)"
        let expectedPath = "\(Self.outputDirectory)/\(name).expected.png"
        try Self.rsvgConvert(file, side: side, to: expectedPath)
        let expected = try PNGCodec.read(path: expectedPath)
        let actual = try SVGDocument(path: file).render(width: side, height: side)
        #expect(actual.format == .argb8888Premultiplied)
        guard let difference = Self.difference(actual, expected) else { return }
        try PNGCodec.write(actual, to: "\(Self.outputDirectory)/\(name).actual.png")
        Issue.record("\(name): \(difference); wrote \(name).actual.png beside \(name).expected.png in \(Self.outputDirectory)")
    }

    @Test func rendersSomethingAtEverySize() throws {
        // Guards the comparison above against two empty images agreeing.
        let image = try SVGDocument(path: "\(fixtureDirectory)/icon-colour.svg").render(width: 48, height: 48)
        #expect(image[24, 24]! >> 24 == 255)
        #expect(image[0, 0]! >> 24 == 0)
    }

    @Test func readsTheIntrinsicSize() throws {
        let sized = try SVGDocument(path: "\(fixtureDirectory)/icon-colour.svg")
        #expect(sized.intrinsicSize?.width == 48 && sized.intrinsicSize?.height == 48)
        #expect(try SVGDocument(path: "\(fixtureDirectory)/icon-viewbox-only.svg").intrinsicSize == nil)
    }

    // MARK: Hostile SVGs

    @Test func refusesWhatIsNotSVG() {
        #expect { try SVGDocument(data: Array("this is not an image\n".utf8), name: "t.svg") } throws: { error in
            guard case .svg(let call, _)? = error as? RasterError else { return false }
            return call.hasPrefix("rsvg_handle_new_from_data")
        }
        #expect(throws: RasterError.self) { try SVGDocument(data: [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0], name: "png.svg") }
        #expect(throws: RasterError.self) { try SVGDocument(data: [], name: "empty.svg") }
    }

    @Test func refusesAHugeIntrinsicSize() {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000"><rect width="10000" height="10000"/></svg>"#
        #expect(throws: RasterError.imageTooLarge(name: "big.svg", width: 10000, height: 10000, limit: SVGDocument.maximumDimension)) {
            try SVGDocument(data: Array(svg.utf8), name: "big.svg")
        }
    }

    @Test func refusesExternalReferences() {
        let cases = [
            #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="/etc/passwd" width="9" height="9"/></svg>"#,
            ##"<svg xmlns="http://www.w3.org/2000/svg"><use href = 'other.svg#a'/></svg>"##,
            ##"<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" fill="url(file:///x.svg#g)"/></svg>"##,
            #"<svg xmlns="http://www.w3.org/2000/svg"><style>@import "x.css";</style></svg>"#,
            #"<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&e;</text></svg>"#,
        ]
        for svg in cases {
            #expect(throws: RasterError.self, "\(svg)") { try SVGDocument(data: Array(svg.utf8), name: "x.svg") }
        }
        // Fragments and data: URLs stay inside the file.
        let inside = ##"<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"/></defs><use href="#a"/><rect fill="url(#a)" width="1" height="1"/></svg>"##
        #expect(throws: Never.self) { try SVGDocument(data: Array(inside.utf8), name: "in.svg") }
    }

    @Test func refusesAFileTooLarge() throws {
        let path = "\(Self.outputDirectory)/large.svg"
        let body = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g/>", count: SVGDocument.maximumBytes / 4) + "</svg>"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try SVGDocument(path: path) } throws: { error in
            "\(error)".contains("more than the \(SVGDocument.maximumBytes)")
        }
    }

    /// Ten levels of ten `use` each would be 10^10 shapes: refused from the text before librsvg
    /// parses it (librsvg's own limit, 500,000 references, takes seconds of rendering to reach).
    @Test func refusesAUseBomb() throws {
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><defs><rect id="l0" width="1" height="1"/>"#
        for level in 1...10 {
            svg += "<g id=\"l\(level)\">" + String(repeating: "<use xlink:href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        svg += ##"</defs><use xlink:href="#l10"/></svg>"##
        #expect { try SVGDocument(data: Array(svg.utf8), name: "bomb.svg") } throws: { error in
            "\(error)".contains("more than \(SVGDocument.maximumExpandedElements) elements")
        }
        // A reference cycle, and three levels of ten (1,111 shapes), which is fine.
        let cycle = ##"<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>"##
        #expect(throws: RasterError.self) { try SVGDocument(data: Array(cycle.utf8), name: "cycle.svg") }
        var small = #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><defs><rect id="l0" width="1" height="1"/>"#
        for level in 1...3 { small += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>" }
        small += ##"</defs><use href="#l3"/></svg>"##
        #expect(throws: Never.self) { try SVGDocument(data: Array(small.utf8), name: "small.svg").render(width: 8, height: 8) }
    }

    /// Every Adwaita symbolic icon installed passes the reference count (none is near the limit).
    @Test func acceptsAdwaitasIcons() throws {
        let dir = "/usr/share/icons/Adwaita/scalable/actions"
        let debian13 = "/usr/share/icons/Adwaita/symbolic/actions"
        let folder = FileManager.default.fileExists(atPath: debian13) ? debian13 : dir
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".svg") }
        #expect(files.count > 50, "adwaita-icon-theme is not installed (scripts/apt-packages.txt)")
        for file in files {
            #expect(throws: Never.self, "\(file)") { try SVGDocument(path: "\(folder)/\(file)") }
        }
    }

    @Test func deepNestingIsRefusedByTheParser() {
        let depth = 100_000
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg">"# + String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth) + "</svg>"
        #expect(throws: RasterError.self) { try SVGDocument(data: Array(svg.utf8), name: "deep.svg") }
    }

    @Test func refusesRenderSizesOutOfRange() throws {
        let document = try SVGDocument(path: "\(fixtureDirectory)/icon-symbolic.svg")
        #expect(throws: RasterError.self) { try document.render(width: 0, height: 16) }
        #expect(throws: RasterError.self) { try document.render(width: SVGDocument.maximumDimension + 1, height: 16) }
    }

    // MARK: Helpers

    /// `rsvg-convert -w side -h side file -o out`; a missing tool fails the test, naming the package.
    static func rsvgConvert(_ file: String, side: Int, to out: String) throws {
        let tool = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else {
            throw SVGReferenceError(description: "rsvg-convert is not installed: it is the independent reference of these tests; install librsvg2-bin (scripts/apt-packages.txt)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-w", "\(side)", "-h", "\(side)", file, "-o", out]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SVGReferenceError(description: "rsvg-convert \(process.arguments!.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }

    /// What differs beyond `tolerance` on any channel, alpha included, or nil.
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> String? {
        guard a.width == b.width, a.height == b.height else { return "size \(a.width)x\(a.height), reference \(b.width)x\(b.height)" }
        var worst: UInt32 = 0, count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y]!, q = b[x, y]!
                var d: UInt32 = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    let u = (p >> UInt32(shift)) & 0xFF, v = (q >> UInt32(shift)) & 0xFF
                    d = max(d, u > v ? u - v : v - u)
                }
                worst = max(worst, d)
                if d > tolerance { count += 1 }
            }
        }
        return count == 0 ? nil : "\(count) pixels differ by more than \(tolerance) (worst \(worst))"
    }
}

struct SVGReferenceError: Error, CustomStringConvertible {
    let description: String
}
