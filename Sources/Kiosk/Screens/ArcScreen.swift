import Geometry
import LayoutCore
import Raster

/// An arc screen (DESIGN.md §1): rows ride an ellipse on one edge; the apex row is selected.
public typealias ArcScreen = Screen<ArcShape>

/// The arc's part of a screen: its controller, and the rows drawn in the band they sweep.
public struct ArcShape: MenuShape {
    public var controller: ArcMenuController
    private let rightToLeft: Bool

    public init(config: ScreenConfig, style: ArcStyle, resources: ScreenResources) {
        let layout = Self.layout(style: style, width: resources.width, height: resources.height)
        controller = ArcMenuController(layout: layout, count: config.items.count, wraps: style.wrap)
        rightToLeft = config.isRightToLeft
    }

    /// The layout for a screen of this size; lengths in the config are fractions or pixels at 1080 lines.
    static func layout(style: ArcStyle, width: Int, height: Int) -> ArcLayout {
        let w = Double(width), h = Double(height)
        let along = style.edge.isVertical ? h : w
        let across = style.edge.isVertical ? w : h
        let scale = h / 1080
        let pitch = along / max(1, style.rowsVisible)
        return ArcLayout(viewport: Rect(x: 0, y: 0, width: w, height: h), edge: style.edge, pitch: pitch,
                         rowLength: style.rowLength * across, rowThickness: style.rowThickness * pitch,
                         radiusRatio: style.radiusRatio, inset: style.inset * scale,
                         translation: Point(x: style.translation.x * scale, y: style.translation.y * scale))
    }

    /// Where rows can be: the whole sweep of the ellipse band, from the apex's inner side outwards.
    public func damage(within bounds: PixelRect) -> PixelRect {
        let layout = controller.layout
        guard let apex = layout.row(item: 0, at: .zero, domain: .wrapping(period: 1))?.frame else { return bounds }
        let width = Double(bounds.width), height = Double(bounds.height)
        let r: Rect
        switch layout.edge {
        case .right: r = Rect(x: apex.minX - 4, y: 0, width: width - apex.minX + 4, height: height)
        case .left: r = Rect(x: 0, y: 0, width: apex.maxX + 4, height: height)
        case .bottom: r = Rect(x: 0, y: apex.minY - 4, width: width, height: height - apex.minY + 4)
        case .top: r = Rect(x: 0, y: 0, width: width, height: apex.maxY + 4)
        }
        return PixelRect(covering: r).intersection(bounds)
    }

    public func draw(on canvas: Canvas, items: [MenuItem], resources: ScreenResources) {
        guard !items.isEmpty else { return }
        let layout = controller.layout
        let offset = controller.position
        let textSize = resources.theme.textSize * layout.pitch
        let selected = offset.nearestItem
        let pressed = controller.motion.pressed
        layout.forEachVisibleRow(at: offset, domain: controller.scroller.domain) { row in
            let item = items[row.index]
            let state: PlateState = pressed == .item(row.item) ? .pressed : row.item == selected ? .selected : .normal
            resources.drawRow(on: canvas, frame: row.frame, label: item.label, icon: item.icon,
                              state: state, textSize: textSize, rightToLeft: rightToLeft)
        }
    }
}
