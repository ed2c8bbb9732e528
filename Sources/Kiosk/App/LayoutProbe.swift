import DRMOutput
import Geometry
import KioskConfiguration
import MenuScreens
import Raster

/// What a config's screens lay out at a panel size, as their drawing code reports it:
/// `kiosk render --layout` writes it, `kiosk check-config --size` warns from it.
public enum LayoutProbe {
    /// Screen `name` of `config` drawn at rest on a panel of `width` x `height` turned by
    /// `rotation`, as `kiosk render` draws it (`renderPreview`: the device's app, a sub-screen
    /// with its back button), reporting as it draws. Sizes are in the unrotated screen.
    public static func report(_ config: KioskConfig, screen name: String, width: Int, height: Int, rotation: DisplayRotation,
                              assets: LoadedAssets) throws -> LayoutReport {
        try renderPreview(config, PreviewState(screen: name), width: width, height: height, rotation: rotation, assets: assets, to: nil)
    }

    /// Warnings for every label that is shortened, every pair of overlapping items, every item
    /// over the title or cut by the screen's edge, on each screen at each panel size; each names
    /// the item's key path.
    public static func warnings(_ config: KioskConfig, file: String, panels: [PanelSize], assets: LoadedAssets) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        for panel in panels {
            let size = "\(panel.width)x\(panel.height)" + (config.display.rotation == .none ? "" : " turned \(config.display.rotation)")
            for screen in config.screens {
                func warn(_ index: Int?, _ message: String) {
                    let path = index.map { itemPath(screen, $0) } ?? ConfigKeyPath([.key("screens"), .key(screen.name)])
                    problems.append(ConfigProblem(.warning, file: file, at: ConfigLocation(keyPath: path), "\(message) at \(size)"))
                }
                let report: LayoutReport
                do {
                    report = try Self.report(config, screen: screen.name, width: panel.width, height: panel.height,
                                             rotation: config.display.rotation, assets: assets)
                } catch {
                    warn(nil, "cannot be laid out (\(error))")
                    continue
                }
                if let title = report.title, title.shortened { warn(nil, "the title \(quoted(title.text)) is shortened") }
                for item in report.shortenedItems {
                    let drawn = report.items.first { $0.index == item.index && $0.shortened }
                    warn(item.index, "\(quoted(item.label)) is shortened" + (drawn.map { " (\(Int($0.fontSize.rounded())) px)" } ?? ""))
                }
                for header in report.headers where header.shortened {
                    warn(nil, "the section header \(quoted(header.text)) is shortened; shorten it")
                }
                if let columns = report.columns {
                    warn(nil, "\(columns.kept) of \(columns.wanted) columns shown: one needs \(Int(columns.widthNeeded.rounded(.up))) px "
                         + "for the longest label; shorten it or set fewer")
                }
                for cut in report.cuts { warn(nil, cut) }
                for icon in report.outlinedIcons.sorted() {
                    warn(nil, "the icon \(quoted(icon)) barely shows on its plate and is drawn outlined; choose another icon or icon_color")
                }
                if let panel = report.panel, panel.shortened {
                    warn(nil, "the side panel shortens \(quoted(panel.label)); set side_panel = false or shorten the label")
                }
                var warned: Set<Int> = []
                for item in report.itemsOverPanel where warned.insert(item.index).inserted {
                    warn(item.index, "\(quoted(item.label)) runs into the side panel")
                }
                for item in report.itemsOverTitle where warned.insert(item.index).inserted {
                    warn(item.index, "\(quoted(item.label)) overlaps the title")
                }
                for item in report.itemsOffScreen where warned.insert(item.index).inserted {
                    warn(item.index, "\(quoted(item.label)) is cut by the screen's edge")
                }
                for (a, b) in report.overlappingItems where a.index != b.index && warned.insert(a.index).inserted {
                    warn(a.index, "\(quoted(a.label)) overlaps \(quoted(b.label))")
                }
            }
        }
        return problems
    }

    /// `screens.NAME.items[i]`, or `screens.NAME.sections[s].items[j]` for a list's item `index`.
    static func itemPath(_ screen: ScreenConfig, _ index: Int) -> ConfigKeyPath {
        let base = ConfigKeyPath([.key("screens"), .key(screen.name)])
        guard case .list = screen.layout else { return base.appending("items").appending(index: index) }
        var rest = index
        for (s, section) in screen.sections.enumerated() {
            if rest < section.items.count { return base.appending("sections").appending(index: s).appending("items").appending(index: rest) }
            rest -= section.items.count
        }
        return base
    }

    /// A label in a message: quoted, and cut after 40 characters (a 500-character label would
    /// bury the rest of the line).
    private static func quoted(_ s: String) -> String { "\"" + (s.count > 40 ? s.prefix(40) + "\u{2026}" : s) + "\"" }
}

public struct LayoutProbeError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
