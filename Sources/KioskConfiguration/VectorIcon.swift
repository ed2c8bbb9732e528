import Raster

/// An SVG icon the config names, parsed and checked when the config loads, and rendered by librsvg
/// in the SVG worker (`SVGRenderer`) at exactly the size it is drawn: once per (size, colour),
/// then kept, so that drawing it is a copy. A config load renders every size its screens draw at the output's size (`IconWarmUp`),
/// so the event loop only copies. Screens ask a few sizes and colours of one icon (a row's in
/// two colours, a tile's, a dial plate's, the side panel's); beyond `maximumRenders` the oldest
/// render is dropped. Not thread-safe: one thread at a time (the loader's, then the loop's).
public final class VectorIcon {
    /// The colour an icon is drawn in.
    public enum Tint: Hashable, Sendable {
        /// Its own colours.
        case original
        /// Every pixel in this colour, with the icon's own coverage (symbolic icons are drawn so).
        case color(Color)
    }

    /// Renders kept per icon.
    public static let maximumRenders = 16

    private let renderer: SVGRenderer
    private let document: UInt32
    /// A freedesktop symbolic icon ("...-symbolic.svg"): one shape meant to be drawn in the text's colour.
    public let symbolic: Bool
    /// nil: librsvg failed at that size, kept too so that a frame never asks again.
    private var renders: [(side: Int, tint: Tint, image: PixelBuffer?)] = []
    /// Renders made so far (librsvg calls): what shows whether drawing had to rasterize.
    public private(set) var rasterizations = 0

    init(renderer: SVGRenderer, document: UInt32, symbolic: Bool) {
        self.renderer = renderer
        self.document = document
        self.symbolic = symbolic
    }

    /// The icon fitted into a `side` x `side` square in `tint`; nil if librsvg fails at that size
    /// (or the worker gave the icon up).
    public func image(side: Int, tint: Tint) -> PixelBuffer? {
        if let hit = renders.first(where: { $0.side == side && $0.tint == tint }) { return hit.image }
        rasterizations += 1
        let image = renderer.render(document, side: side).image
        if let image, case let .color(color) = tint { Self.recolor(image, to: color) }
        if renders.count == Self.maximumRenders { renders.removeFirst() }
        renders.append((side, tint, image))
        return image
    }

    /// Replaces every pixel's colour by `color`, keeping its coverage (premultiplied).
    static func recolor(_ image: PixelBuffer, to color: Color) {
        let ca = UInt32(color.alpha)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = ((image[x, y]! >> 24) * ca + 127) / 255
                let r = (UInt32(color.red) * a + 127) / 255, g = (UInt32(color.green) * a + 127) / 255, b = (UInt32(color.blue) * a + 127) / 255
                image.setPixel(x: x, y: y, a << 24 | r << 16 | g << 8 | b)
            }
        }
    }
}
