import Geometry
import LayoutCore
import Raster

/// Draws an arc menu over a tiled background, in the look of reference scene S1.
///
/// The background is rendered once into a cache; a frame restores only the menu band from it
/// and redraws the rows there, so a scroll step costs the band, not the screen.
public final class ArcMenuScene {
    public let width: Int
    public let height: Int
    public let layout: ArcLayout
    public var labels: [String]
    let font: Font
    let background: PixelBuffer
    static let rowFill = Color(rgb: 0x202833)
    static let highlight = Color(rgb: 0x5fa8ff)

    public init(width: Int, height: Int, labels: [String], pattern: ScenePattern = .checker, fontPath: String = Font.dejaVuSansPath) throws(RasterError) {
        self.width = width
        self.height = height
        self.labels = labels
        let h = Double(height), w = Double(width)
        layout = ArcLayout(viewport: Rect(x: 0, y: 0, width: w, height: h), edge: .right, pitch: h / 9,
                           rowLength: 0.19 * w, rowThickness: 0.8 * h / 9, radiusRatio: 0.6, inset: 16)
        font = try Font(path: fontPath)
        let cell = max(2, Int((32 * h / 1080).rounded()))
        let tile: PatternTile
        switch pattern {
        case .checker: tile = try .checker(cell: cell)
        case .cross: tile = try .cross(cell: cell)
        case .circles: tile = try .circles(cell: cell)
        }
        background = try PixelBuffer(width: width, height: height)
        tile.fill(Canvas(background))
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The part of the screen rows can ever touch: from the apex row's inner side to the edge.
    public var menuBand: PixelRect {
        let apex = layout.row(item: 0, at: .zero, domain: .wrapping(period: 1))?.frame ?? .zero
        let band = PixelRect(covering: Rect(x: apex.minX - 2, y: 0, width: Double(width) - apex.minX + 2, height: Double(height)))
        return band.intersection(bounds)
    }

    /// Draws everything (the first frame, or after the display came back).
    public func renderFull(into target: PixelBuffer, offset: ScrollOffset) -> PixelRect {
        target.copyRows(from: background, rect: bounds)
        drawMenu(into: target, offset: offset)
        return bounds
    }

    /// Draws one scroll step: background restored under the band, rows redrawn. Returns the damage.
    public func renderStep(into target: PixelBuffer, offset: ScrollOffset) -> PixelRect {
        let band = menuBand
        target.copyRows(from: background, rect: band)
        drawMenu(into: target, offset: offset)
        return band
    }

    private func drawMenu(into target: PixelBuffer, offset: ScrollOffset) {
        guard !labels.isEmpty else { return }
        let canvas = Canvas(target)
        let domain = ScrollDomain.wrapping(period: labels.count)
        let textSize = 0.4 * layout.pitch
        let metrics = font.lineMetrics(size: textSize)
        let selected = offset.nearestItem
        layout.forEachVisibleRow(at: offset, domain: domain) { row in
            let r = row.frame
            canvas.fill(r, radii: CornerRadii(all: r.height / 4), color: Self.rowFill, opacity: 0.85)
            if row.item == selected { canvas.stroke(r, radii: CornerRadii(all: r.height / 4), width: 2, color: Self.highlight) }
            let padding = 0.1 * r.width
            let baseline = r.midY + (metrics.ascent - metrics.descent) / 2
            canvas.drawText(labels[row.index], font: font, size: textSize, at: Point(x: r.minX + padding, y: baseline),
                            color: .white, maxWidth: r.width - 2 * padding)
        }
    }
}
