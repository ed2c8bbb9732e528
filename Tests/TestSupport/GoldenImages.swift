import Glibc
import Raster
import Testing

/// Golden images of one test target: rendered buffers compared pixel by pixel with
/// `Golden/<name>.png` beside the target's sources. On a difference (or a missing golden)
/// `<name>.actual.png` is written next to the expected image, to look at; a match removes a stale one.
/// KIOSK_UPDATE_GOLDENS=1 rewrites the goldens deliberately (then look at every one before committing).
public struct GoldenImages: Sendable {
    /// The `Golden` folder.
    public let directory: String

    public static let updating = getenv("KIOSK_UPDATE_GOLDENS").map { String(cString: $0) == "1" } ?? false

    /// The goldens in the `Golden` folder beside `file` (a test target's source, given as `#filePath`).
    public init(besideFile file: String) {
        directory = String(file[..<file.lastIndex(of: "/")!]) + "/Golden"
    }

    /// The goldens in `directory` (docs/gallery.md's pictures, kept current as goldens are).
    public init(directory: String) {
        self.directory = directory
    }

    /// Checks `buffer` against the golden `name`. The tolerance is per colour channel (0...255): a
    /// pixel differs when its red, green or blue is further than that from the golden's. The top
    /// byte (X of XRGB, alpha of ARGB) is not compared. 0, the default, asks for identical colours.
    public func expectMatches(_ buffer: PixelBuffer, _ name: String, tolerance: UInt32 = 0,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = "\(directory)/\(name).png"
        let actualPath = "\(directory)/\(name).actual.png"
        if Self.updating {
            try PNGCodec.write(buffer, to: path)
            unlink(actualPath)
            return
        }
        let failure: String
        do {
            let expected = try PNGCodec.read(path: path)
            if let difference = Self.difference(buffer, expected, tolerance: tolerance) {
                failure = "\(name): \(difference)"
            } else {
                unlink(actualPath)
                return
            }
        } catch {
            failure = "missing golden \(path): \(error) (KIOSK_UPDATE_GOLDENS=1 creates it)"
        }
        try PNGCodec.write(buffer, to: actualPath)
        Issue.record("\(failure); wrote \(name).actual.png", sourceLocation: sourceLocation)
    }

    /// What differs between `actual` and `expected` beyond `tolerance`, or nil when nothing does.
    static func difference(_ actual: PixelBuffer, _ expected: PixelBuffer, tolerance: UInt32) -> String? {
        guard expected.width == actual.width, expected.height == actual.height else {
            return "golden is \(expected.width)x\(expected.height), frame is \(actual.width)x\(actual.height)"
        }
        var worst: UInt32 = 0, differing = 0
        var first: (x: Int, y: Int)?
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let d = channelDifference(actual[x, y]!, expected[x, y]!)
                worst = max(worst, d)
                if d > tolerance {
                    differing += 1
                    if first == nil { first = (x, y) }
                }
            }
        }
        guard let first else { return nil }
        return "\(differing) pixels differ by more than \(tolerance) per channel (worst \(worst), first at \(first.x),\(first.y))"
    }
}

/// The largest difference of any red, green or blue channel between two buffers of one size, and
/// how many pixels differ at all: how far a fast path is from its plain twin.
public func channelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (worst: UInt32, pixels: Int) {
    precondition(a.width == b.width && a.height == b.height)
    var worst: UInt32 = 0, pixels = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let d = channelDifference(a[x, y]!, b[x, y]!)
            worst = max(worst, d)
            if d > 0 { pixels += 1 }
        }
    }
    return (worst, pixels)
}

/// The largest difference of the red, green and blue channels of two pixels.
func channelDifference(_ p: UInt32, _ q: UInt32) -> UInt32 {
    var d: UInt32 = 0
    for shift: UInt32 in [0, 8, 16] {
        let u = (p >> shift) & 0xFF, v = (q >> shift) & 0xFF
        d = max(d, u > v ? u - v : v - u)
    }
    return d
}
