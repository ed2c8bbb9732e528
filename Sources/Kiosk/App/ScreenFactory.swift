import KioskConfiguration
import MenuScreens

/// Builds the screen a config describes.
enum ScreenFactory {
    /// `values`: the live values its labels show (nil: the labels as written).
    static func make(_ config: ScreenConfig, resources: ScreenResources, showsBack: Bool, values: LiveValues? = nil,
                     now: Double = 0) throws -> MenuScreen {
        let config = values.map { LivePresentation.present(config, values: $0, now: now) } ?? config
        switch config.layout {
        case .arc(let style):
            return try ArcScreen(config: config, style: style, resources: resources, showsBack: showsBack)
        case .dial(let style):
            return try DialScreen(config: config, style: style, resources: resources, showsBack: showsBack)
        case .list(let style):
            return try ListScreen(config: config, style: style, resources: resources, showsBack: showsBack)
        }
    }
}
