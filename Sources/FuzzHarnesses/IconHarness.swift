import KioskConfiguration
import Raster

/// An icon file as a config author (or whoever wrote the USB stick) gives it: PNG bytes are
/// decoded as the kiosk decodes an icon; anything else is an SVG, checked (`SVGDocument.check`:
/// size, references, embedded images) and then parsed and drawn at 48 px by the SVG worker, in
/// its own process under its limits, as the kiosk does. Traps when a PNG decodes past the
/// limits, or the worker answers with another size or with neither an image nor a reason; a
/// worker that crashes or is killed is the outcome the sandbox exists for, not a failure.
public enum IconHarness {
    static let side = 48

    /// One line, for a replay.
    public static func run(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            do {
                let image = try PNGCodec.decode(bytes)
                precondition(image.width >= 1 && image.width <= PNGCodec.maximumDimension
                             && image.height >= 1 && image.height <= PNGCodec.maximumDimension
                             && image.width * image.height <= PNGCodec.maximumPixels, "a \(image.width)x\(image.height) PNG was decoded")
                return "PNG \(image.width)x\(image.height)"
            } catch {
                ControlFixture.check(message: error.description)
                return "PNG refused: \(error)"
            }
        }
        do {
            try SVGDocument.check(bytes, name: "fuzz.svg")
        } catch {
            return "SVG refused: \(error)"
        }
        // A renderer per input: a document once loaded stays in it (and in its worker).
        let renderer = SVGRenderer()
        // As on the loop: a render that takes longer is given up (a slow input, not a find).
        renderer.wallLimit = SVGRenderer.loopWallLimit
        switch renderer.load(bytes, name: "fuzz.svg") {
        case .failure(let error):
            return "SVG not loaded: \(error)"
        case .success(let loaded):
            let render = renderer.render(loaded.id, side: side)
            if let image = render.image {
                precondition(image.width == side && image.height == side, "a \(image.width)x\(image.height) render at \(side) px")
                return "SVG drawn"
            }
            guard let problem = render.problem else { preconditionFailure("a render with neither an image nor a reason") }
            return "SVG not drawn: \(problem)"
        }
    }
}
