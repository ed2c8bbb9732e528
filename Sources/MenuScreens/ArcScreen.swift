import Geometry
import KioskConfiguration
import LayoutCore
import Raster

/// An arc screen (DESIGN.md §1): rows ride an ellipse on one edge; the apex row is selected
/// (a list that ends keeps its arc full, and its selection moves off the apex near its ends).
public typealias ArcScreen = Screen<ArcShape>

/// The arc's part of a screen: its controller, and the rows drawn in the band they sweep.
public struct ArcShape: MenuShape {
    public var controller: ArcMenuController
    private let reading: ReadingDirection
    /// The labels' size before any shrinking, from the theme and the row pitch.
    private let textSize: Double
    private let iconColumn: Bool
    /// The selected item shown large on the side the arc leaves free (nil: off, or no room).
    let panel: SidePanel?

    public init(config: ScreenConfig, style: ArcStyle, resources: ScreenResources, showsBack: Bool) {
        let reservesHeader = showsBack || !(config.title ?? "").isEmpty
        let fit = Self.layout(style: style, items: config.items, resources: resources, reservesHeader: reservesHeader,
                              textScale: resources.textScale)
        var size = fit.textSize
        if resources.textScale > 1 {
            // Larger text never makes any text smaller than `text_scale = 1` draws it.
            let plain = Self.layout(style: style, items: config.items, resources: resources, reservesHeader: reservesHeader, textScale: 1)
            size = max(size, plain.textSize)
        }
        let top = reservesHeader ? Swift.min(resources.headerHeight, Double(resources.height)) : 0
        panel = style.sidePanel
            ? SidePanel(layout: fit.layout, width: Double(resources.width), height: Double(resources.height), top: top, rowTextSize: size)
            : nil
        if style.sidePanel, panel == nil, config.items.contains(where: { $0.description != nil }),
           let free = SidePanel.freeWidth(layout: fit.layout, width: Double(resources.width), height: Double(resources.height)) {
            cut = "no side panel: the rows leave \(Int(free)) of \(resources.width) px, it needs "
                + "\(Int(SidePanel.neededWidth(width: Double(resources.width)))); shorten the longest labels"
        } else {
            cut = nil
        }
        let count = config.items.count
        // A vertical arc opens on its first item, at the top of the arc when the list ends there
        // (`ArcLayout.viewOffset`). A horizontal one that does not wrap opens on its middle item,
        // its items spread to both sides of the apex (its reading start is not on one side).
        let start = style.edge.isVertical || style.wrap ? 0 : (count - 1) / 2
        controller = ArcMenuController(layout: fit.layout, count: count, wraps: style.wrap, selected: Swift.max(0, start))
        textSize = size
        iconColumn = fit.iconColumn
        reading = config.reading
    }

    /// Something the layout had to leave out, for `check-config --size`.
    private let cut: String?

    /// The items' one size: the title is never drawn smaller.
    public var levelBelowTitle: Double { textSize }

    /// What the arc's rows are laid out with: the ellipse and rows, the label size, whether rows keep an icon column.
    struct Fit {
        var layout: ArcLayout
        var textSize: Double
        var iconColumn: Bool
    }

    /// The layout for a screen of this size. The ellipse fills the area below the header (the
    /// rows at its ends inside it too); rows are as long as the longest label needs at the theme's
    /// size unless `row_length` says otherwise; when the panel is too narrow across the axis for
    /// that (a portrait panel), the ellipse flattens first, down to a quarter of its height, and
    /// only then are the rows cut back (their labels then shrink, and at last are shortened).
    /// Lengths in the config are fractions, or pixels at 1080 lines.
    static func layout(style: ArcStyle, items: [MenuItem], resources: ScreenResources, reservesHeader: Bool, textScale scaleOfText: Double) -> Fit {
        let w = Double(resources.width), h = Double(resources.height)
        let top = reservesHeader ? Swift.min(resources.headerHeight(textScale: scaleOfText), h) : 0
        let vertical = style.edge.isVertical
        // The band the ellipse may fill: below the header; a top-edge arc hangs from it.
        let along = vertical ? h - top : w
        let across = vertical ? w : h - top
        let scale = h / 1080
        let rowsVisible = style.rowsVisible.isFinite ? Swift.min(Swift.max(1, style.rowsVisible), 1000) : 9
        var pitch = along / rowsVisible
        let iconColumn = items.contains { $0.icon != nil }
        // The label's size per pixel of pitch; a large text_scale spaces the rows out (fewer show)
        // rather than overfill them.
        let wanted = resources.theme.textSize * scaleOfText
        let textScale = Swift.min(wanted, ScreenResources.fullestText)
        if wanted > textScale, textScale > 0 { pitch *= wanted / textScale }
        var textSize: Double
        var thickness: Double
        var length: Double
        if vertical {
            textSize = textScale * pitch
            thickness = style.rowThickness * pitch
            // (+1: the room drawRow computes from the row's edges must not round below the label.)
            let need = resources.widestLabel(of: items, size: textSize) + resources.rowInsets(height: thickness, width: 4 * thickness, iconColumn: iconColumn) + 1
            // An author's row_length is kept unless a label would be cut at the legible floor in it:
            // then the rows grow to what the floor needs (and the room below caps that).
            let atFloor = resources.widestAtFloor(of: items, size: textSize, rowHeight: thickness) + 1
            length = style.rowLength.map { Swift.max($0 * across, atFloor) } ?? Swift.max(need, 4 * thickness)
        } else {
            // Tiles: on a panel taller than wide the band across is deep, and tiles grow into it
            // (fewer per screen width). The label's size is set by that tile; then tiles widen to
            // their longest label, up to a third of the screen.
            pitch = Swift.max(pitch, Swift.min(across / (rowsVisible * 0.6), along / 3))
            let length0 = style.rowLength.map { $0 * across } ?? style.rowThickness * pitch * 1.3
            textSize = Swift.min(textScale * pitch, 0.17 * length0 * scaleOfText)
            let need = resources.widestLabel(of: items, size: textSize) / 0.84
            pitch = Swift.min(Swift.max(pitch, need / Swift.max(style.rowThickness, 0.01)), along / 3)
            thickness = style.rowThickness * pitch
            length = style.rowLength.map { $0 * across } ?? Swift.max(length0, thickness * 1.3)
        }
        let inset = style.inset * scale
        let margin = (12 * scale).rounded()
        let ry = Swift.max(0, (along - thickness) / 2)
        var rx = style.radiusRatio * ry
        let room = across - inset - margin
        if rx + length > room {
            rx = Swift.max(Swift.min(rx, 0.25 * ry), room - length)
            rx = Swift.min(rx, Swift.max(0, room))  // never past the far edge (a panel a few pixels wide)
            length = Swift.max(0, Swift.min(length, room - rx))
        }
        // The band's middle on the edge: for a left/right arc, the middle of the area below the header.
        var t = Point(x: style.translation.x * scale, y: style.translation.y * scale)
        switch style.edge {
        case .left, .right: t.y += top / 2
        case .top: t.y += top
        case .bottom: break
        }
        let layout = ArcLayout(viewport: Rect(x: 0, y: 0, width: w, height: h), edge: style.edge, pitch: pitch,
                               rowLength: length, rowThickness: thickness, alongRadius: ry,
                               radiusRatio: ry > 0 ? rx / ry : 0, inset: inset, translation: t)
        // One size for every row: the longest label fits its row (or the floor is reached).
        if vertical {
            let room = length - resources.rowInsets(height: thickness, width: length, iconColumn: iconColumn)
            textSize = resources.sharedSize(of: items, wanted: textSize) { _ in room }
        } else {
            let tile = Swift.min(textSize, length * 0.17 * scaleOfText)
            textSize = resources.sharedSize(of: items, wanted: tile) { _ in thickness * (1 - 2 * ScreenResources.tilePadding) }
        }
        return Fit(layout: layout, textSize: textSize, iconColumn: iconColumn && vertical)
    }

    /// The side panel follows the selection once it has settled: while the menu moves under a
    /// finger or an animation, it keeps the item it showed and is neither damaged nor drawn.
    private var panelIsLive: Bool { panel != nil && !controller.isMoving && !controller.motion.isHeld }

    /// Where rows can be (the whole sweep of the ellipse band, from the apex's inner side
    /// outwards) and, once the menu has settled, the side panel.
    public func damage(within bounds: PixelRect) -> PixelRect {
        let band = bandDamage(within: bounds)
        guard panelIsLive, let panel else { return band }
        return band.union(PixelRect(covering: panel.frame).intersection(bounds))
    }

    private func bandDamage(within bounds: PixelRect) -> PixelRect {
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
        let offset = controller.viewOffset
        let selected = controller.position.nearestItem
        let pressed = controller.motion.pressed
        layout.forEachVisibleRow(at: offset, domain: controller.scroller.domain) { row in
            let item = items[row.index]
            let state: PlateState = pressed == .item(row.item) ? .pressed : row.item == selected ? .selected : .normal
            resources.drawRow(on: canvas, frame: row.frame, label: item.label, icon: item.icon,
                              state: state, textSize: textSize, reading: reading,
                              iconColumn: iconColumn, tile: !layout.edge.isVertical, index: row.index)
        }
        if let cut { resources.layoutReport?.cuts = [cut] }
        if panelIsLive, let panel, items.indices.contains(controller.selectedIndex) {
            panel.draw(items[controller.selectedIndex], on: canvas, resources: resources, reading: reading)
        }
    }
}
