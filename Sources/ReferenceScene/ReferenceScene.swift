import Geometry
import Raster
import Text
import RealModule

/// Reference scene S1 (DESIGN.md §5), shared by the golden tests and `kiosk-bench`: a pattern
/// background and nine rounded-rectangle rows with labels on the right-hand half-ellipse.
public final class ReferenceScene {
    public let width: Int
    public let height: Int
    public let pattern: ScenePattern
    public let tile: PatternTile
    public let font: Font
    /// The rows' labels, row `i` showing `labels[i % labels.count]`; nil (the default): `Item i`.
    public let labels: [String]?
    /// The menu's plates and labels, recorded once and replayed (nil: drawn plainly every frame).
    public let plates: PlateCache?
    public let labelCache: LabelCache?

    static let rowFill = Color(rgb: 0x202833)
    static let rowOpacity = 0.85
    static let outline = Color(rgb: 0x5fa8ff)

    /// Throws `RasterError` for a size or tile it cannot make, `TextError` for a font it cannot load.
    public init(width: Int, height: Int, pattern: ScenePattern, fontPath: String = Font.dejaVuSansPath,
                labels: [String]? = nil, cached: Bool = true) throws {
        guard width > 0, height > 0 else {
            throw RasterError.invalidArgument(call: "ReferenceScene.init", message: "size \(width)x\(height) must be positive")
        }
        self.width = width
        self.height = height
        self.pattern = pattern
        let cell = Swift.max(2, Int((32 * Double(height) / 1080).rounded()))
        tile = try PatternTile.named(pattern, cell: cell)
        font = try Font(path: fontPath)
        self.labels = labels?.isEmpty == false ? labels : nil
        plates = cached ? PlateCache() : nil
        labelCache = cached ? LabelCache(font: font) : nil
    }

    /// A new XRGB8888 frame of the scene's size (stride = width * 4).
    public func makeFrame() throws(RasterError) -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .xrgb8888)
    }

    /// (b) The background only.
    public func drawBackground(on canvas: Canvas) {
        tile.fill(canvas)
    }

    /// The rectangle of row `i` (0...8) when the menu is scrolled by `offset` pixels, or nil when the
    /// row is outside the ellipse.
    public func rowRect(_ i: Int, offset: Double = 0) -> Rect? {
        let w = Double(width), h = Double(height)
        let ry = h / 2, rx = 0.6 * ry, rowHeight = h / 9
        let y = h / 2 - Double(i - 4) * rowHeight + offset
        let t = (y - h / 2) / ry
        guard t.isFinite, Swift.abs(t) <= 1 else { return nil }
        let angle = Double.asin(t)
        let rowWidth = 0.19 * w
        let xCentre = w - rx * .cos(angle) - rowWidth / 2 - 16
        return Rect(center: Point(x: xCentre, y: y), size: Size(width: rowWidth, height: 0.8 * rowHeight))
    }

    /// The menu: nine rows, row 4 outlined, each labelled `Item i` (or from `labels`).
    public func drawMenu(on canvas: Canvas, offset: Double = 0) {
        let rowHeight = Double(height) / 9
        let textSize = 0.4 * rowHeight
        let metrics = font.lineMetrics(size: textSize)
        for i in 0..<9 {
            guard let r = rowRect(i, offset: offset) else { continue }
            let plate = RoundedRect(rect: r, radius: r.height / 4)
            canvas.fill(plate, color: Self.rowFill, opacity: Self.rowOpacity, cache: plates)
            if i == 4 { canvas.stroke(plate, width: 2, color: Self.outline, cache: plates) }
            let padding = 0.1 * r.width
            let baseline = r.midY + (metrics.ascent - metrics.descent) / 2
            let label = labels.map { $0[i % $0.count] } ?? "Item \(i)"
            canvas.drawText(label, font: font, size: textSize, at: Point(x: r.minX + padding, y: baseline),
                            color: .white, maxWidth: r.width - 2 * padding, cache: labelCache)
        }
    }

    /// (a) The full frame.
    public func render(on canvas: Canvas, offset: Double = 0) {
        drawBackground(on: canvas)
        drawMenu(on: canvas, offset: offset)
    }
}
