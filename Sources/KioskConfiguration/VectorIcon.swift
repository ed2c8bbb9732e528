import Raster
import Synchronization

/// An SVG icon the config names, parsed and checked when the config loads, and rendered by librsvg
/// in the SVG worker at exactly the size it is drawn: once per (size, colour), then kept, so that
/// drawing it is a copy. A config load renders every size its screens draw at the output's size
/// (`IconWarmUp`); once the event loop draws with the icon, a size not rendered yet is rendered
/// off the loop (`IconRenderService`) and the icon is drawn without it until it arrives. Screens
/// ask a few sizes and colours of one icon (a row's in two colours, a tile's, a dial plate's, the
/// side panel's); beyond `maximumRenders` the oldest render is dropped.
public final class VectorIcon: @unchecked Sendable {
    /// The colour an icon is drawn in.
    public enum Tint: Hashable, Sendable {
        /// Its own colours.
        case original
        /// Every pixel in this colour, with the icon's own coverage (symbolic icons are drawn so).
        case color(Color)
    }

    /// Renders kept per icon.
    public static let maximumRenders = 16

    /// One size and colour: its image once rendered (nil: librsvg failed at that size, kept too so
    /// that a frame never asks again), or still being rendered in the background.
    /// `@unchecked Sendable`: a kept image is never written again, only copied from.
    private struct Render: @unchecked Sendable {
        let side: Int
        let tint: Tint
        let image: PixelBuffer?
        let pending: Bool
    }

    private struct State {
        var renders: [Render] = []
        var rasterizations = 0
    }

    private let service: IconRenderService
    private let document: UInt32
    /// A freedesktop symbolic icon ("...-symbolic.svg"): one shape meant to be drawn in the text's colour.
    public let symbolic: Bool
    /// `@unchecked Sendable` above: the renders are behind this lock (the loop reads them, the
    /// service's thread stores them), and a stored image is never written again.
    private let state = Mutex(State())

    init(service: IconRenderService, document: UInt32, symbolic: Bool) {
        self.service = service
        self.document = document
        self.symbolic = symbolic
    }

    /// Renders asked for so far (librsvg calls, made or queued): what shows whether drawing had to
    /// rasterize.
    public var rasterizations: Int { state.withLock { $0.rasterizations } }

    /// The icon fitted into a `side` x `side` square in `tint`; nil if librsvg fails at that size,
    /// the worker gave the icon up, or (once the loop draws with it) it is being rendered.
    public func image(side: Int, tint: Tint) -> PixelBuffer? {
        let known = state.withLock { state -> Render? in
            if let hit = state.renders.first(where: { $0.side == side && $0.tint == tint }) { return hit }
            state.rasterizations += 1
            Self.keep(Render(side: side, tint: tint, image: nil, pending: true), in: &state.renders)
            return nil
        }
        if let known {
            if known.pending { service.notYetRendered() }
            return known.image
        }
        if service.enqueue(self, document: document, side: side, tint: tint) {
            service.notYetRendered()
            return nil
        }
        let image = Self.tinted(service.renderNow(document, side: side), tint)
        store(side: side, tint: tint, image: image)
        return image
    }

    /// Keeps a finished render (the service's thread, or `image` itself).
    func store(side: Int, tint: Tint, image: PixelBuffer?) {
        let render = Render(side: side, tint: tint, image: image, pending: false)
        state.withLock { state in
            if let i = state.renders.firstIndex(where: { $0.side == side && $0.tint == tint }) {
                state.renders[i] = render
            } else {
                Self.keep(render, in: &state.renders)
            }
        }
    }

    private static func keep(_ render: Render, in renders: inout [Render]) {
        if renders.count == maximumRenders { renders.removeFirst() }
        renders.append(render)
    }

    /// `image` in `tint`: recoloured in place for a colour, as it is for `.original`.
    static func tinted(_ image: PixelBuffer?, _ tint: Tint) -> PixelBuffer? {
        if let image, case let .color(color) = tint { recolor(image, to: color) }
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
