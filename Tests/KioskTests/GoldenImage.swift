import Glibc
import Kiosk
import LayoutCore
import Raster
import Testing

/// Golden images of rendered screens: compared pixel for pixel with `Golden/<name>.png` beside
/// this file. On a difference `<name>.actual.png` is written next to it; KIOSK_UPDATE_GOLDENS=1
/// rewrites the goldens deliberately (then look at every one before committing).
enum GoldenImage {
    static let directory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!]) + "/Golden"
    }()

    static let updating = getenv("KIOSK_UPDATE_GOLDENS").map { String(cString: $0) == "1" } ?? false

    /// Checks `buffer` against the golden `name` with tolerance 0 (same machine, same font, same maths).
    static func expectMatches(_ buffer: PixelBuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = "\(directory)/\(name).png"
        let actualPath = "\(directory)/\(name).actual.png"
        if updating {
            try PNGCodec.write(buffer, to: path)
            unlink(actualPath)
            return
        }
        let expected: PixelBuffer
        do {
            expected = try PNGCodec.read(path: path)
        } catch {
            try PNGCodec.write(buffer, to: actualPath)
            Issue.record("missing golden \(path): \(error); wrote \(name).actual.png (KIOSK_UPDATE_GOLDENS=1 creates it)",
                         sourceLocation: sourceLocation)
            return
        }
        guard expected.width == buffer.width, expected.height == buffer.height else {
            try PNGCodec.write(buffer, to: actualPath)
            Issue.record("\(name): golden is \(expected.width)x\(expected.height), frame is \(buffer.width)x\(buffer.height)",
                         sourceLocation: sourceLocation)
            return
        }
        var differing = 0
        var first: (x: Int, y: Int)?
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where (buffer[x, y]! ^ expected[x, y]!) & 0x00FF_FFFF != 0 {
                differing += 1
                if first == nil { first = (x, y) }
            }
        }
        if differing > 0 {
            try PNGCodec.write(buffer, to: actualPath)
            Issue.record("\(name): \(differing) pixels differ (first at \(first!.x),\(first!.y)); wrote \(name).actual.png",
                         sourceLocation: sourceLocation)
        } else {
            unlink(actualPath)
        }
    }
}

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
        _ = screen.render(into: buffer, now: now, full: true)
        return buffer
    }
}
