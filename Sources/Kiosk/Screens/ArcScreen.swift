import Geometry
import LayoutCore
import Raster

/// An arc screen (DESIGN.md §1): rows ride an ellipse on one edge; the apex row is selected.
/// The static part (background, title, back button) is drawn once into a cache; a frame
/// restores only the band the rows move in and redraws them there.
public final class ArcScreen: MenuScreen {
    public let config: ScreenConfig
    let style: ArcStyle
    let resources: ScreenResources
    var controller: ArcMenuController
    let showsBack: Bool
    private let chrome: PixelBuffer

    public init(config: ScreenConfig, style: ArcStyle, resources: ScreenResources, showsBack: Bool) throws(RasterError) {
        self.config = config
        self.style = style
        self.resources = resources
        self.showsBack = showsBack
        let layout = Self.layout(style: style, width: resources.width, height: resources.height)
        controller = ArcMenuController(layout: layout, count: max(1, config.items.count), wraps: style.wrap)
        chrome = try PixelBuffer(width: resources.width, height: resources.height)
        resources.drawChrome(into: chrome, background: config.background, title: config.title, showsBack: showsBack)
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

    public var selectedIndex: Int { controller.selectedIndex }
    public var isMoving: Bool { controller.isMoving }
    public var needsFrame: Bool { controller.needsFrame }
    public func select(_ index: Int) { controller.jump(toItem: index) }

    public func handle(_ input: MenuInput, now: Double) {
        controller.handle(resources.routingBackButton(input, shown: showsBack), now: now)
    }

    /// Where rows can be: the whole sweep of the ellipse band, from the apex's inner side outwards.
    var band: PixelRect {
        let layout = controller.layout
        guard let apex = layout.row(item: 0, at: .zero, domain: .wrapping(period: 1))?.frame else { return resources.bounds }
        let r: Rect
        switch layout.edge {
        case .right: r = Rect(x: apex.minX - 4, y: 0, width: Double(resources.width) - apex.minX + 4, height: Double(resources.height))
        case .left: r = Rect(x: 0, y: 0, width: apex.maxX + 4, height: Double(resources.height))
        case .bottom: r = Rect(x: 0, y: apex.minY - 4, width: Double(resources.width), height: Double(resources.height) - apex.minY + 4)
        case .top: r = Rect(x: 0, y: 0, width: Double(resources.width), height: apex.maxY + 4)
        }
        return PixelRect(covering: r).intersection(resources.bounds)
    }

    public var position: ScrollOffset { controller.scroller.position }
    public func jump(to position: ScrollOffset) { controller.jump(to: position) }
    public func update(now: Double) -> [MenuEvent] { controller.frame(now: now).events }

    public func draw(on canvas: Canvas, full: Bool) -> PixelRect {
        let offset = position
        let damage = full ? resources.bounds : band
        canvas.target.copyRows(from: chrome, rect: damage)
        canvas.setClip(damage)
        let items = config.items
        guard !items.isEmpty else { return damage }
        let layout = controller.layout
        let textSize = resources.theme.textSize * layout.pitch
        let selected = offset.nearestItem
        layout.forEachVisibleRow(at: offset, domain: controller.scroller.domain) { row in
            let item = items[row.index]
            resources.drawRow(on: canvas, frame: row.frame, label: item.label, icon: item.icon,
                              highlighted: row.item == selected, textSize: textSize)
        }
        return damage
    }
}
