import KioskConfiguration
import MenuScreens
import Raster

/// Rasterizes a config's SVG and named icons when the config loads, not on the event loop: every
/// screen is built at the output's size and drawn once with each of its items selected (so each
/// row's icon is drawn in the normal and the selected colour, and the side panel's for every
/// item) into a scratch canvas that is then thrown away. The icons keep their renders
/// (`VectorIcon`), and the loop's screens, built from the same assets at the same size, only copy
/// them. Drawing through the screens themselves, rather than listing sizes beside them, keeps one
/// owner of where an icon goes and how large.
///
/// Not warmed: a panel of another size (a hotplug, a new mode) lays the screens out again on the
/// loop, and the first frame of each screen at the new size rasterizes its icons there, once
/// each (the next load warms at the new size); and start-up, whose load runs before the output
/// is open and whose first picture should not wait for every screen.
enum IconWarmUp {
    /// Draws every screen of `config` as described above. Nothing to do without SVG icons.
    /// `shouldStop` is asked between screens; a stop leaves the rest to the loop.
    static func run(_ config: KioskConfig, assets: LoadedAssets, width: Int, height: Int, shouldStop: () -> Bool = { false }) {
        guard !assets.vectors.isEmpty, width > 0, height > 0, let frame = try? PixelBuffer(width: width, height: height) else { return }
        let resources = ScreenResources(theme: config.theme, assets: assets, width: width, height: height)
        let canvas = Canvas(frame)
        let home = config.screen(named: config.home)?.name ?? config.screens.first?.name
        for screenConfig in config.screens where screenConfig.items.contains(where: { $0.icon.flatMap(assets.vector) != nil }) {
            if shouldStop() { return }
            // A screen below home shows the back button, which narrows its header but not its rows.
            guard let screen = try? ScreenFactory.make(screenConfig, resources: resources, showsBack: screenConfig.name != home) else { continue }
            for index in screenConfig.items.indices {
                screen.select(index)
                _ = screen.draw(on: canvas, full: true)
            }
        }
    }
}
