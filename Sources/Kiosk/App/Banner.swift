import Geometry
import KioskConfiguration
import Raster
import Text

/// The short message along the bottom of the screen (an error, what an action did), wrapped onto
/// up to `maximumLines` lines when laid out for a screen; the last line is shortened if even that
/// is not enough. Its lines are worked out once per text and width, not per frame.
struct Banner {
    static let maximumLines = 3

    let text: String
    /// When it goes away.
    let until: Double
    /// `text` broken to fit the screen it was laid out for.
    private(set) var lines: [String]
    /// The theme's `text_scale`: the banner's text grows with every other.
    let scale: Double

    init(_ text: String, until: Double, font: Font, width: Int, height: Int, scale: Double = 1) {
        self.text = text
        self.until = until
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        lines = []
        layOut(font: font, width: width, height: height)
    }

    /// Text size and line pitch for a screen `height` pixels high.
    static func textSize(height: Int, scale: Double = 1) -> Double { max(12, Double(height) * 0.035) * scale }

    /// Breaks `text` again for a screen of this size (a new display, a new font).
    mutating func layOut(font: Font, width: Int, height: Int) {
        let size = Self.textSize(height: height, scale: scale)
        lines = Self.wrap(text, font: font, size: size, width: Double(width) - 2 * size, maxLines: Self.maximumLines)
    }

    /// `text` in lines no wider than `width`, at most `maxLines` (the last one holds the rest). Lines
    /// break after a space or a slash (a long path breaks between its folders), or anywhere in a word
    /// longer than a line.
    static func wrap(_ text: String, font: Font, size: Double, width: Double, maxLines: Int) -> [String] {
        func fits(_ s: Substring) -> Bool { font.measure(String(s.trimmingTrailingSpaces), size: size) <= width }
        var lines: [String] = []
        var rest = Substring(text.replacingNewlines())
        while lines.count < maxLines - 1, !fits(rest) {
            // Where a line may end: after each space or slash; bisection finds the last that fits.
            let breaks = rest.indices.filter { rest[$0] == " " || rest[$0] == "/" }.map { rest.index(after: $0) }
            var cut = lastFitting(breaks) { fits(rest[..<$0]) }
            if cut == nil {
                let characters = Array(rest.indices.dropFirst())
                cut = lastFitting(characters) { fits(rest[..<$0]) } ?? characters.first
            }
            guard let end = cut, end > rest.startIndex else { break }
            lines.append(String(rest[..<end].trimmingTrailingSpaces))
            rest = rest[end...].drop { $0 == " " }
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(String(rest)) }
        return lines
    }

    /// The last of `candidates` (in order, fitting ones first) that `fits`, by bisection.
    private static func lastFitting<T>(_ candidates: [T], _ fits: (T) -> Bool) -> T? {
        guard let first = candidates.first, fits(first) else { return nil }
        var lo = 0, hi = candidates.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if fits(candidates[mid]) { lo = mid } else { hi = mid - 1 }
        }
        return candidates[lo]
    }

    /// Draws the bar at the bottom of a `width` x `height` canvas; returns what it covers.
    func draw(on canvas: Canvas, font: Font, theme: ThemeConfig, width: Int, height: Int) -> PixelRect {
        let size = Self.textSize(height: height, scale: scale)
        let pitch = size * 1.3
        let barHeight = size * 0.9 + pitch * Double(lines.count)
        let bar = Rect(x: 0, y: Double(height) - barHeight, width: Double(width), height: barHeight)
        canvas.resetClip()
        // Opaque: it is drawn again over itself on frames that do not redraw what lies under it.
        canvas.fill(bar, color: theme.banner)
        let metrics = font.lineMetrics(size: size)
        for (i, line) in lines.enumerated() {
            let middle = bar.minY + size * 0.45 + pitch * (Double(i) + 0.5)
            canvas.drawText(line, font: font, size: size, at: Point(x: size, y: middle + (metrics.ascent - metrics.descent) / 2),
                            color: theme.bannerText, maxWidth: Double(width) - 2 * size)
        }
        return PixelRect(covering: bar)
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
