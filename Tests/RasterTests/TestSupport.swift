import Geometry
import Glibc
import Raster
import Testing
import TestSupport

/// Directory of this file, so fixtures are found without bundle resources.
let testDirectory: String = {
    let path = #filePath
    return String(path[..<path.lastIndex(of: "/")!])
}()
let fixtureDirectory = testDirectory + "/Fixtures"
let goldens = GoldenImages(besideFile: #filePath)

/// The coverage (alpha, 0...1) of each pixel of an ARGB buffer into which a shape was filled in opaque white.
func coverage(_ buffer: PixelBuffer) -> [[Double]] {
    (0..<buffer.height).map { y in (0..<buffer.width).map { x in Double(buffer[x, y]! >> 24) / 255 } }
}

// MARK: Independent analytic reference

/// Exact area of the intersection of a simple polygon with the pixel square [x, x+1)×[y, y+1):
/// Sutherland–Hodgman clipping then the shoelace formula. Independent of the rasterizer under test.
func pixelArea(of polygon: [Point], x: Int, y: Int) -> Double {
    var pts = polygon
    let x0 = Double(x), x1 = Double(x + 1), y0 = Double(y), y1 = Double(y + 1)
    func clip(_ inside: (Point) -> Bool, _ intersect: (Point, Point) -> Point) {
        guard !pts.isEmpty else { return }
        var out: [Point] = []
        var prev = pts[pts.count - 1]
        for p in pts {
            if inside(p) {
                if !inside(prev) { out.append(intersect(prev, p)) }
                out.append(p)
            } else if inside(prev) {
                out.append(intersect(prev, p))
            }
            prev = p
        }
        pts = out
    }
    func atX(_ x: Double) -> (Point, Point) -> Point { { a, b in Point(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)) } }
    func atY(_ y: Double) -> (Point, Point) -> Point { { a, b in Point(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y) } }
    clip({ $0.x >= x0 }, atX(x0))
    clip({ $0.x <= x1 }, atX(x1))
    clip({ $0.y >= y0 }, atY(y0))
    clip({ $0.y <= y1 }, atY(y1))
    return abs(shoelace(pts))
}

func shoelace(_ pts: [Point]) -> Double {
    guard pts.count >= 3 else { return 0 }
    var s = 0.0
    var prev = pts[pts.count - 1]
    for p in pts { s += prev.x * p.y - p.x * prev.y; prev = p }
    return s / 2
}

/// A circle (or an arc run) as a polygon so fine (chord error < 1e-6 px) that it stands for the true curve.
func finePoints(center: Point, radius: Double, from a0: Double = 0, sweep: Double = 2 * .pi) -> [Point] {
    let n = max(16, Int(abs(sweep) * radius * 64))
    return (0..<(abs(sweep) >= 2 * .pi ? n : n + 1)).map { k in
        let a = a0 + sweep * Double(k) / Double(n)
        return Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
    }
}

/// Compares the coverage of `buffer` with the reference region (outer polygon minus optional holes),
/// per pixel within `tolerance` and in total within `areaTolerance` (relative) of `trueArea`.
func expectCoverage(_ buffer: PixelBuffer, matches outer: [Point], holes: [[Point]] = [], trueArea: Double,
                    tolerance: Double = 2.0 / 255, areaTolerance: Double = 0.005, sourceLocation: SourceLocation = #_sourceLocation) {
    let cov = coverage(buffer)
    var worst = 0.0, worstAt = (0, 0), total = 0.0
    for y in 0..<buffer.height {
        for x in 0..<buffer.width {
            var ref = pixelArea(of: outer, x: x, y: y)
            for h in holes { ref -= pixelArea(of: h, x: x, y: y) }
            let d = abs(cov[y][x] - ref)
            if d > worst { worst = d; worstAt = (x, y) }
            total += cov[y][x]
        }
    }
    #expect(worst <= tolerance, "worst per-pixel coverage error \(worst * 255)/255 at \(worstAt)", sourceLocation: sourceLocation)
    #expect(abs(total - trueArea) <= areaTolerance * trueArea, "total coverage \(total) vs true area \(trueArea)", sourceLocation: sourceLocation)
}

/// An ARGB buffer, transparent, for coverage tests.
func coverageBuffer(_ w: Int, _ h: Int) throws -> PixelBuffer {
    try PixelBuffer(width: w, height: h, format: .argb8888Premultiplied)
}
