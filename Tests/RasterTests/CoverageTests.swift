import Geometry
import Glibc
import Raster
import Testing
import TestSupport

/// Coverage of the path rasterizer against the exact polygon–pixel intersection area
/// (`pixelArea`), an independent analytic reference: per pixel within 2/255, total within 0.5%.
@Suite struct CoverageTests {
    @Test(arguments: [(20.0, 20.0, 15.0), (20.3, 19.7, 10.25), (16.5, 16.5, 3.2), (32.1, 31.9, 29.0)])
    func circle(cx: Double, cy: Double, r: Double) throws {
        let buf = try coverageBuffer(64, 64)
        Canvas(buf).fill(.circle(center: Point(x: cx, y: cy), radius: r), color: .white)
        expectCoverage(buf, matches: finePoints(center: Point(x: cx, y: cy), radius: r), trueArea: .pi * r * r)
    }

    @Test func ellipseIsAreaCorrect() throws {
        let buf = try coverageBuffer(64, 48)
        let rect = Rect(x: 4.25, y: 6.5, width: 51.5, height: 33)
        Canvas(buf).fill(.ellipse(in: rect), color: .white)
        let pts = finePoints(center: .zero, radius: 1).map { Point(x: rect.midX + $0.x * rect.width / 2, y: rect.midY + $0.y * rect.height / 2) }
        expectCoverage(buf, matches: pts, trueArea: .pi * rect.width * rect.height / 4)
    }

    @Test func roundedRectWithPerCornerRadii() throws {
        let buf = try coverageBuffer(72, 56)
        let r = Rect(x: 5.3, y: 4.6, width: 60.2, height: 44.9)
        let radii = CornerRadii(topLeft: 12, topRight: 0, bottomRight: 6.5, bottomLeft: 20)
        Canvas(buf).fill(.roundedRect(r, radii: radii), color: .white)
        // Reference outline built independently: corner arcs from finePoints, straight edges between.
        var pts: [Point] = []
        func corner(_ c: Point, _ rad: Double, _ a0: Double, _ fallback: Point) {
            if rad > 0 { pts += finePoints(center: c, radius: rad, from: a0, sweep: .pi / 2) } else { pts.append(fallback) }
        }
        corner(Point(x: r.maxX - 0, y: r.minY + 0), 0, -.pi / 2, Point(x: r.maxX, y: r.minY))
        corner(Point(x: r.maxX - 6.5, y: r.maxY - 6.5), 6.5, 0, .zero)
        corner(Point(x: r.minX + 20, y: r.maxY - 20), 20, .pi / 2, .zero)
        corner(Point(x: r.minX + 12, y: r.minY + 12), 12, .pi, .zero)
        let radiiSquared: Double = 12 * 12 + 6.5 * 6.5 + 20 * 20  // split: too slow for Swift 6.0.3 in one
        let area = r.width * r.height - (4 - Double.pi) / 4 * radiiSquared
        expectCoverage(buf, matches: pts, trueArea: area)
    }

    @Test(arguments: [0.0, 17.0, 30.0, 45.0, 71.5])
    func rotatedPolygon(degrees: Double) throws {
        let buf = try coverageBuffer(64, 64)
        let square = [Point(x: -15, y: -10), Point(x: 15, y: -10), Point(x: 15, y: 10), Point(x: -15, y: 10)]
        let triangleCut = [Point(x: -15, y: -10), Point(x: 15, y: -10), Point(x: 15, y: 10), Point(x: 0, y: 2), Point(x: -15, y: 10)]
        let t = AffineTransform.rotation(Angle(degrees: degrees)).concatenating(.translation(x: 32.2, y: 31.7))
        Canvas(buf).fill(.polygon(triangleCut), color: .white, transform: t)
        let ref = triangleCut.map { t.apply($0) }
        expectCoverage(buf, matches: ref, trueArea: abs(shoelace(triangleCut)))
        _ = square
    }

    @Test(arguments: [(1.0, 10.0), (1.0, 33.0), (0.5, 60.0), (2.0, 5.0), (1.5, 89.0)])
    func thinStroke(width: Double, degrees: Double) throws {
        let buf = try coverageBuffer(64, 64)
        let a = Point(x: 8.3, y: 10.1), length = 40.0
        let dir = Point(x: cos(degrees * .pi / 180), y: sin(degrees * .pi / 180))
        let b = a + dir * length
        Canvas(buf).stroke(.line(from: a, to: b), width: width, color: .white)
        let n = Point(x: -dir.y, y: dir.x) * (width / 2)
        expectCoverage(buf, matches: [a + n, b + n, b - n, a - n], trueArea: width * length)
    }

    @Test func strokedCircleIsARing() throws {
        let buf = try coverageBuffer(64, 64)
        let c = Point(x: 31.6, y: 32.3)
        Canvas(buf).stroke(.circle(center: c, radius: 20), width: 1.5, color: .white)
        expectCoverage(buf, matches: finePoints(center: c, radius: 20.75), holes: [finePoints(center: c, radius: 19.25)],
                       trueArea: .pi * (20.75 * 20.75 - 19.25 * 19.25))
    }

    @Test func ringSector() throws {
        let buf = try coverageBuffer(64, 64)
        let c = Point(x: 32, y: 32)
        Canvas(buf).fill(.ringSector(center: c, innerRadius: 12, outerRadius: 28, start: Angle(degrees: -30), sweep: Angle(degrees: 100)), color: .white)
        let a0 = -30.0 * .pi / 180, sweep = 100.0 * .pi / 180
        let outer = finePoints(center: c, radius: 28, from: a0, sweep: sweep)
        let inner = finePoints(center: c, radius: 12, from: a0 + sweep, sweep: -sweep)
        expectCoverage(buf, matches: outer + inner, trueArea: sweep / 2 * (28 * 28 - 12 * 12))
    }

    @Test func fractionalRectFastPathIsExact() throws {
        let buf = try coverageBuffer(16, 16)
        let r = Rect(x: 2.25, y: 3.5, width: 9.5, height: 0.75)
        Canvas(buf).fill(r, color: .white)
        let ref = [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY)]
        // The rect path computes each pixel's area exactly; only the rounding to a byte remains.
        expectCoverage(buf, matches: ref, trueArea: r.width * r.height, tolerance: 0.5 / 255 + 1e-9)
        // And the general path filler agrees with it.
        let viaPath = try coverageBuffer(16, 16)
        Canvas(viaPath).fill(Path.rect(r), color: .white)
        expectCoverage(viaPath, matches: ref, trueArea: r.width * r.height)
    }

    @Test func evenOddLeavesAHoleNonZeroDoesNot() throws {
        var path = Path.rect(Rect(x: 2, y: 2, width: 12, height: 12))
        path.append(.rect(Rect(x: 6, y: 6, width: 4, height: 4)))   // same direction
        let evenOdd = try coverageBuffer(16, 16), nonZero = try coverageBuffer(16, 16)
        Canvas(evenOdd).fill(path, color: .white, rule: .evenOdd)
        Canvas(nonZero).fill(path, color: .white, rule: .nonZero)
        // Integer-aligned edges: exact, tolerance 0.
        #expect(evenOdd[7, 7]! >> 24 == 0)
        #expect(evenOdd[3, 3]! >> 24 == 255)
        #expect(nonZero[7, 7]! >> 24 == 255)
        #expect(nonZero[1, 1]! >> 24 == 0)
        // Total coverage: 144 - 16 and 144 pixels.
        #expect(coverage(evenOdd).joined().reduce(0, +) == 128)
        #expect(coverage(nonZero).joined().reduce(0, +) == 144)
    }

    @Test func cubicAndQuadCurvesFlattenWithinTolerance() throws {
        // A cubic that approximates a quarter circle closely (kappa); compare against the same cubic
        // evaluated densely in the test.
        let buf = try coverageBuffer(48, 48)
        let k = 0.5522847498 * 36
        var p = Path()
        p.move(to: Point(x: 4, y: 4))
        p.line(to: Point(x: 40, y: 4))
        p.cubic(to: Point(x: 4, y: 40), control1: Point(x: 40, y: 4 + k), control2: Point(x: 4 + k, y: 40))
        p.close()
        Canvas(buf).fill(p, color: .white)
        var ref = [Point(x: 4, y: 4), Point(x: 40, y: 4)]
        let (p0, c1, c2, p3) = (Point(x: 40, y: 4), Point(x: 40, y: 4 + k), Point(x: 4 + k, y: 40), Point(x: 4, y: 40))
        for i in 1...4000 {
            let t = Double(i) / 4000, u = 1 - t
            ref.append(p0 * (u * u * u) + c1 * (3 * t * u * u) + c2 * (3 * t * t * u) + p3 * (t * t * t))
        }
        expectCoverage(buf, matches: ref, trueArea: abs(shoelace(ref)))
    }
}

/// The rounded-rectangle fill sends only its corner rows through the path rasterizer and the rows
/// between them through the rectangle fast path; it must draw what the path fill draws.
@Suite struct RoundedRectFillTests {
    @Test func matchesThePathFillAtFractionalPositionsAndClips() throws {
        var rng = SeededGenerator.fromEnvironment(defaultSeed: 4)
        var worst = 0
        for _ in 0..<300 {
            let r = Rect(x: Double.random(in: -10...40, using: &rng), y: Double.random(in: -10...40, using: &rng),
                         width: Double.random(in: 0.5...60, using: &rng), height: Double.random(in: 0.5...60, using: &rng))
            let radii = CornerRadii(topLeft: Double.random(in: 0...20, using: &rng), topRight: Double.random(in: 0...20, using: &rng),
                                    bottomRight: Double.random(in: 0...20, using: &rng), bottomLeft: Double.random(in: 0...20, using: &rng))
            let clip = PixelRect(x: Int.random(in: 0...20, using: &rng), y: Int.random(in: 0...20, using: &rng),
                                 width: Int.random(in: 1...64, using: &rng), height: Int.random(in: 1...64, using: &rng))
            let opacity = Double.random(in: 0.3...1, using: &rng)
            let fast = try PixelBuffer(width: 64, height: 64), slow = try PixelBuffer(width: 64, height: 64)
            for (buffer, usePath) in [(fast, false), (slow, true)] {
                let canvas = Canvas(buffer)
                canvas.clear(Color(rgb: 0x336699))
                canvas.setClip(clip)
                if usePath {
                    canvas.fill(.roundedRect(r, radii: radii), color: Color(rgb: 0xF0C020), opacity: opacity)
                } else {
                    canvas.fill(r, radii: radii, color: Color(rgb: 0xF0C020), opacity: opacity)
                }
            }
            for y in 0..<64 {
                for x in 0..<64 {
                    let a = fast[x, y]!, b = slow[x, y]!
                    for shift in stride(from: 0, to: 24, by: 8) {
                        worst = max(worst, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
                    }
                }
            }
        }
        #expect(worst == 0, "largest channel difference \(worst); \(rng.replay)")
    }
}
