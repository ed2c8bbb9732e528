@testable import DRMOutput
import Geometry
import Kiosk
@testable import KioskConfiguration
@testable import MenuScreens
import Raster
import TestSupport

/// Golden images of rendered screens, in `Golden/` beside this file.
let goldens = GoldenImages(besideFile: #filePath)

/// Small screens made in the tests, so goldens do not change when the example config does.
enum ScreenFixtures {
    static let width = 800
    static let height = 480

    static func items(_ labels: [String]) -> [MenuItem] {
        labels.map { MenuItem(label: $0, action: .spawn(Command(argv: ["/bin/true"]))) }
    }

    static let dialLabels = ["Music", "Radio", "Photos", "Weather", "Clock", "Settings", "Lights", "Doorbell"]

    /// Resources with `theme`'s font and the images at `imagePaths` decoded.
    static func resources(theme: ThemeConfig = ThemeConfig(), imagePaths: [String] = []) throws -> ScreenResources {
        ScreenResources(theme: theme, assets: try LoadedAssets.load(fontPath: theme.font, imagePaths: imagePaths), width: width, height: height)
    }

    static func dialConfig(labels: [String] = dialLabels, style: DialStyle = DialStyle()) -> ScreenConfig {
        ScreenConfig(name: "dial", title: "Living room", layout: .dial(style),
                     background: BackgroundConfig(pattern: .circles, cell: 48),
                     sections: [MenuSection(items: items(labels))])
    }

    static func listConfig(style: ListStyle = ListStyle(columns: 2, rowHeight: 0.1)) -> ScreenConfig {
        ScreenConfig(name: "list", title: "Settings", layout: .list(style),
                     background: BackgroundConfig(pattern: .checker, cell: 32),
                     sections: [
                         MenuSection(title: "Network", items: items(["Wi-Fi", "Ethernet", "Bluetooth"])),
                         MenuSection(title: "Display", items: items(["Brightness", "Rotation", "Screen saver", "Night mode"])),
                         MenuSection(title: "System", items: items(["Updates", "About", "Restart kiosk", "Power off", "Reboot"])),
                         MenuSection(title: "Sound", items: items(["Volume", "Output"])),
                     ])
    }

    static func arcConfig(style: ArcStyle = ArcStyle(rowsVisible: 7, rowLength: 0.3, wrap: true)) -> ScreenConfig {
        ScreenConfig(name: "arc", title: "Home", layout: .arc(style),
                     background: BackgroundConfig(pattern: .cross, cell: 40),
                     sections: [MenuSection(items: items(["Music", "Radio", "Photos", "Weather", "Clock", "Settings",
                                                          "Lights", "Doorbell", "Garden", "Cameras"]))])
    }

    /// A full frame of `screen` at `now`.
    static func frame(of screen: MenuScreen, now: Double = 0) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: width, height: height)
        _ = screen.update(now: now)
        _ = screen.draw(on: Canvas(buffer), full: true)
        return buffer
    }
}
