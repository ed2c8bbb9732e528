import KioskConfiguration
import MenuScreens

/// Builds the screen a config describes.
enum ScreenFactory {
    static func make(_ config: ScreenConfig, resources: ScreenResources, showsBack: Bool) throws -> MenuScreen {
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
