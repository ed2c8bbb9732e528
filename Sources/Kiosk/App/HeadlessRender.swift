import Geometry
import Raster

/// Renders screen `name` of `config` as a panel of `width` x `height` turned by `rotation` would
/// show it, at rest, and writes the PNG: `kiosk render` and the README's pictures.
public func renderScreen(_ config: KioskConfig, name: String, width: Int, height: Int, rotation: DisplayRotation, to path: String) throws {
    let output = try HeadlessOutput(panelWidth: width, panelHeight: height, rotation: rotation)
    var shown = config
    shown.home = name
    let app = try KioskApp(config: shown, width: output.logicalWidth, height: output.logicalHeight, now: 0)
    let frame = try PixelBuffer(width: output.logicalWidth, height: output.logicalHeight)
    output.present(frame, damage: app.render(into: frame, now: 0))
    try output.writeScreenshot(to: path)
}
