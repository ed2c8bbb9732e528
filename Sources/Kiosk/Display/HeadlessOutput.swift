import Geometry
import Raster

/// An output without a display: frames go through the same rotated, damage-limited copy as
/// the scanout, into a panel-oriented buffer in memory. `kiosk render` and tests take their
/// screenshots from it.
public final class HeadlessOutput {
    public let panel: PixelBuffer
    private let copier: ScanoutCopy

    /// A panel of `panelWidth` x `panelHeight` pixels; the layout sees it turned by `rotation`.
    public init(panelWidth: Int, panelHeight: Int, rotation: DisplayRotation) throws(RasterError) {
        panel = try PixelBuffer(width: panelWidth, height: panelHeight)
        let logical = rotation.logicalSize(forPanel: Size(width: Double(panelWidth), height: Double(panelHeight)))
        copier = ScanoutCopy(rotation: rotation, logicalWidth: Int(logical.width), logicalHeight: Int(logical.height))
    }

    public var logicalWidth: Int { copier.logicalWidth }
    public var logicalHeight: Int { copier.logicalHeight }

    /// Copies the damaged parts of the logical frame `shadow` onto the panel.
    public func present(_ shadow: PixelBuffer, damage: [PixelRect]) {
        shadow.withUnsafePixels { src, srcStride in
            panel.withUnsafePixels { dst, dstStride in
                for r in damage {
                    copier.copy(r, from: src, sourceStride: srcStride, to: dst, destinationStride: dstStride)
                }
            }
        }
    }

    /// What the panel shows, as a PNG.
    public func writeScreenshot(to path: String) throws(RasterError) {
        try PNGCodec.write(panel, to: path)
    }
}
