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
/// Run by a reload's worker (within `ConfigLoadWorker.iconBudget`), and at start-up once the
/// output is open, before the loop starts (the splash is still up: the first picture waits for
/// it). What it did not render (a spent budget, a panel of another size after a hotplug or a new
/// mode) is rendered off the loop when first drawn (`IconRenderService`): the item shows without
/// its icon for the frames until it arrives.
enum IconWarmUp {
    /// Draws every screen of `config` as described above. Nothing to do without SVG icons.
    /// `shouldStop` is asked before each draw; a stop leaves the rest to the loop. Costs a full
    /// draw per item of each screen with SVG icons (20 items: 29 ms at 800x480, 85 ms at 1080p
    /// on the shared build host) and keeps every render, the side panel's large ones included.
    static func run(_ config: KioskConfig, assets: LoadedAssets, width: Int, height: Int, shouldStop: () -> Bool = { false }) {
        guard !assets.vectors.isEmpty, width > 0, height > 0, let frame = try? PixelBuffer(width: width, height: height) else { return }
        let resources = ScreenResources(theme: config.theme, assets: assets, width: width, height: height)
        let canvas = Canvas(frame)
        let home = config.screen(named: config.home)?.name ?? config.screens.first?.name
        // Home first: the screen most likely shown when the load is handed over.
        let ordered = config.screens.filter { $0.name == home } + config.screens.filter { $0.name != home }
        for screenConfig in ordered where screenConfig.items.contains(where: { $0.icon.flatMap(assets.vector) != nil }) {
            // Below home a screen has the back button, and a header even without a title, which
            // can move its rows: laid out as the loop will lay it out.
            guard let screen = try? ScreenFactory.make(screenConfig, resources: resources, showsBack: screenConfig.name != home) else { continue }
            for index in screenConfig.items.indices {
                if shouldStop() { return }
                screen.select(index)
                _ = screen.draw(on: canvas, full: true)
            }
        }
    }
}
