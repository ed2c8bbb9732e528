import Geometry
import Glibc
import Raster
import Text
import ReferenceScene
import Testing

/// Golden images (`goldens`, TestSupport's `GoldenImages`): each compared pixel by pixel, tolerance 0; on failure the actual image
/// is written beside the golden as `<name>.actual.png`. Regenerate with KIOSK_UPDATE_GOLDENS=1
/// (then look at every image before committing it).
@Suite(.serialized) struct GoldenTests {
    /// Shapes, strokes, blending, clipping and images. Tolerance 0: the same maths gives the same bytes.
    @Test func primitives() throws {
        let buf = try PixelBuffer(width: 320, height: 200)
        let c = Canvas(buf)
        c.clear(Color(rgb: 0xF4F1EA))
        c.fill(Rect(x: 10.5, y: 10.25, width: 60, height: 40.5), color: Color(rgb: 0x3366CC))
        c.fill(.roundedRect(Rect(x: 80.5, y: 10, width: 70, height: 40), radii: CornerRadii(topLeft: 16, topRight: 4, bottomRight: 0, bottomLeft: 10)), color: Color(rgb: 0x202833))
        c.fill(.circle(center: Point(x: 185, y: 30), radius: 20.5), color: Color(rgb: 0xCC3333))
        c.fill(.ellipse(in: Rect(x: 215, y: 12, width: 60, height: 36)), color: Color(rgb: 0x33AA55))
        c.fill(.ringSector(center: Point(x: 295, y: 30), innerRadius: 8, outerRadius: 20, start: Angle(degrees: -90), sweep: Angle(degrees: 240)), color: Color(rgb: 0x8844CC))
        // Strokes: hairline-ish at angles, a wide one with round caps, a polyline with joins.
        for k in 0..<8 {
            let a = Double(k) * .pi / 16
            c.stroke(.line(from: Point(x: 40, y: 110), to: Point(x: 40 + 34 * cos(a), y: 110 + 34 * sin(a))), width: 1, color: .black)
        }
        c.stroke(.line(from: Point(x: 90, y: 80), to: Point(x: 150, y: 130)), width: 9, color: Color(rgb: 0x5FA8FF), cap: .round)
        var zig = Path()
        zig.move(to: Point(x: 170, y: 130))
        for i in 1...5 { zig.line(to: Point(x: 170 + Double(i) * 14, y: i % 2 == 0 ? 130 : 80)) }
        c.stroke(zig, width: 4, color: Color(rgb: 0xAA6600))
        // Curves.
        var curve = Path()
        curve.move(to: Point(x: 250, y: 130))
        curve.cubic(to: Point(x: 310, y: 130), control1: Point(x: 260, y: 60), control2: Point(x: 300, y: 160))
        curve.quad(to: Point(x: 250, y: 130), control: Point(x: 280, y: 170))
        c.fill(curve, color: Color(rgb: 0x118888))
        // Rotated (dial item) rounded rects and global opacity over each other.
        for k in 0..<6 {
            let t = AffineTransform.rotation(Angle(degrees: Double(k) * 30), about: Point(x: 60, y: 165))
            c.fill(.roundedRect(Rect(x: 70, y: 160, width: 40, height: 10), radius: 3), color: Color(rgb: 0x223344), opacity: 0.6, transform: t)
        }
        c.fill(Rect(x: 130, y: 145, width: 60, height: 45), color: .red, opacity: 0.5)
        c.fill(.circle(center: Point(x: 180, y: 170), radius: 22), color: Color(rgb: 0x0000FF), opacity: 0.5)
        // Even-odd star.
        var star = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * .pi / 5
            let p = Point(x: 240 + 25 * cos(a), y: 170 + 25 * sin(a))
            if i == 0 { star.move(to: p) } else { star.line(to: p) }
        }
        star.close()
        c.fill(star, color: Color(rgb: 0xDD8800), rule: .evenOdd)
        // Clipped circle and a bilinear-scaled 2x2 image.
        c.withClip(PixelRect(x: 280, y: 150, width: 20, height: 30)) {
            c.fill(.circle(center: Point(x: 290, y: 165), radius: 18), color: Color(rgb: 0x44AA44))
        }
        let img = try PixelBuffer(width: 2, height: 2, format: .argb8888Premultiplied)
        img.setPixel(x: 0, y: 0, 0xFFFF_0000); img.setPixel(x: 1, y: 0, 0xFF00_FF00)
        img.setPixel(x: 0, y: 1, 0xFF00_00FF); img.setPixel(x: 1, y: 1, 0x8080_8080)
        c.draw(img, in: Rect(x: 300, y: 150, width: 18, height: 40))
        try goldens.expectMatches(buf, "primitives")
    }

    /// The three built-in patterns, a solid and an image tile, each with a phase. Tolerance 0.
    @Test func patterns() throws {
        let buf = try PixelBuffer(width: 400, height: 100)
        let c = Canvas(buf)
        let img = try PNGCodec.read(path: "\(fixtureDirectory)/rgba.png")
        let tiles: [PatternTile] = [try .checker(cell: 20), try .cross(cell: 32), try .circles(cell: 32),
                                    try .solid(Color(rgb: 0x5FA8FF)), try .image(img, cellWidth: 16, cellHeight: 12)]
        for (i, tile) in tiles.enumerated() {
            tile.fill(c, rect: PixelRect(x: i * 80, y: 0, width: 78, height: 100), phaseX: 7 * i, phaseY: 3 * i)
        }
        try goldens.expectMatches(buf, "patterns")
    }

    /// Text: left, centre, right, ellipsis, rotated, a missing glyph. Tolerance 0 on the same FreeType.
    @Test func text() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        let buf = try PixelBuffer(width: 360, height: 220)
        let c = Canvas(buf)
        c.clear(.white)
        c.fill(Rect(x: 180, y: 0, width: 1, height: 120), color: Color(rgb: 0xCCCCCC))
        c.drawText("Left aligned AVAWAY", font: font, size: 18, at: Point(x: 180, y: 24), color: .black, alignment: .left)
        c.drawText("Centred", font: font, size: 18, at: Point(x: 180, y: 50), color: .black, alignment: .center)
        c.drawText("Right aligned", font: font, size: 18, at: Point(x: 180, y: 76), color: .black, alignment: .right)
        c.drawText("A long label that will not fit", font: font, size: 16, at: Point(x: 10, y: 104), color: Color(rgb: 0x202833), maxWidth: 150)
        c.drawText("Missing: \u{10FFFD}!", font: font, size: 18, at: Point(x: 190, y: 104), color: .red)
        // Dial labels: standing around a circle, each turned to point outwards.
        for k in 0..<6 {
            let a = Double(k) * .pi / 3
            c.drawText("Dial \(k)", font: font, size: 13, at: Point(x: 90 + 18 * cos(a), y: 165 + 18 * sin(a)), color: .black,
                       rotation: Angle(radians: a))
        }
        c.drawText("Upside down", font: font, size: 16, at: Point(x: 300, y: 170), color: Color(rgb: 0x3366CC), alignment: .center, rotation: Angle(degrees: 180))
        try goldens.expectMatches(buf, "text")
    }

    /// Scene S1 (DESIGN.md §5), three patterns at both sizes, drawn plainly. Tolerance 0 (the
    /// cached drawing is held to the plain one by DrawingCacheTests).
    @Test(arguments: [(800, 480), (1920, 1080)])
    func sceneS1(width: Int, height: Int) throws {
        for pattern in ScenePattern.allCases {
            let scene = try ReferenceScene(width: width, height: height, pattern: pattern, cached: false)
            let frame = try scene.makeFrame()
            scene.render(on: Canvas(frame))
            try goldens.expectMatches(frame, "s1-\(pattern.rawValue)-\(width)x\(height)")
        }
    }
}
