import KioskConfiguration
import Raster

/// An icon file as a config author (or whoever wrote the USB stick) gives it: PNG bytes are
/// measured from their header and decoded by the worker, as the kiosk decodes an icon; anything else is an SVG, checked (`SVGDocument.check`:
/// size, references, embedded images) and then parsed and drawn at 48 px by the SVG worker, in
/// its own process under its limits, as the kiosk does. Traps when a PNG decodes to another
/// size than its header gives, or the worker answers with another size or with neither an image nor a reason; a
/// worker that crashes or is killed is the outcome the sandbox exists for, not a failure.
public enum IconHarness {
    static let side = 48
    /// PNG decodes keep nothing in the worker between inputs: one worker serves them all (and a
    /// new one starts after an input that ended it). One input at a time.
    nonisolated(unsafe) static let pngWorker = SVGRenderer()

    /// One line, for a replay.
    public static func run(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            // As a config load does: the header read here, the pixels decoded by the worker.
            let header: PNGCodec.Header
            do {
                header = try PNGCodec.header(of: bytes, name: "fuzz.png")
            } catch {
                ControlFixture.check(message: error.description)
                return "PNG refused: \(error)"
            }
            switch pngWorker.decodePNG(bytes, name: "fuzz.png") {
            case .success(let image):
                precondition(image.width == header.width && image.height == header.height,
                             "a \(image.width)x\(image.height) PNG was decoded from a \(header.width)x\(header.height) header")
                return "PNG \(image.width)x\(image.height)"
            case .failure(let error):
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
