import Geometry
import KioskConfiguration
import LayoutCore
import Raster
import Text

/// A dial screen (DESIGN.md §1, seed 003): items stand around a full circle below the header;
/// the dial turns under a finger or the knob and settles with one item at the pointer.
///
/// Labels stay upright instead of turning with the dial: text at the bottom of a turned dial
/// would be upside down, and upright text is drawn from the font's hinted bitmap cache, which is
/// crisper at these sizes and cheaper per frame than rotated outlines. The hub in the middle
/// repeats the selected item's full label (the items' own labels may be shortened) and carries
/// the pointer. A frame redraws only the dial's bounding square, restored from the chrome cache.
public typealias DialScreen = Screen<DialShape>

/// The dial's part of a screen: its controller, and the dial drawn in its bounding square.
public struct DialShape: MenuShape {
    public var controller: DialMenuController

    public init(config: ScreenConfig, style: DialStyle, resources: ScreenResources, showsBack: Bool) {
        let count = config.items.count
        controller = DialMenuController(geometry: Self.geometry(style: style, resources: resources, items: config.items),
                                        count: count, wraps: style.wrap)
    }

    /// The dial centred in the area below the header, radius `style.radius × min(width, height)`
    /// (shrunk if it would not fit there).
    static func geometry(style: DialStyle, resources: ScreenResources, items: [MenuItem]) -> DialGeometry {
        let w = Double(resources.width), h = Double(resources.height)
        let top = min(resources.headerHeight, h)
        let area = Rect(x: 0, y: top, width: w, height: h - top)
        return DialGeometry(style: style, area: area, screenMin: min(w, h), count: items.count,
                            highlightWidth: resources.theme.highlightWidth, textScale: resources.theme.textScale,
                            widestLabel: { resources.widestLabel(of: items, size: $0) })
    }

    public var geometry: DialGeometry { controller.geometry }

    /// The items' label size before any shrinking.
    private var labelSize: Double { geometry.labelSize }

    /// The dial's bounding square.
    public func damage(within bounds: PixelRect) -> PixelRect { PixelRect(covering: geometry.bounds).intersection(bounds) }

    /// Where item `index`'s shape is drawn at `offset` (nil when it is not on the dial).
    public func itemFrame(_ index: Int, at offset: ScrollOffset) -> Rect? {
        let size = geometry.itemSize
        return controller.layout.visibleItems(at: offset, domain: controller.scroller.domain, count: controller.count)
            .first { $0.index == index }
            .map { Rect(center: $0.center, size: size) }
    }

    public func draw(on canvas: Canvas, items: [MenuItem], resources: ScreenResources) {
        let offset = controller.position
        let theme = resources.theme
        let layout = controller.layout
        let g = geometry
        guard layout.radius > 0, g.itemSize.width > 0 else { return }
        let c = layout.center
        // The dial's face: a faint ring under the items, so the circle reads as one control.
        let ringWidth = 1.8 * g.itemSize.height
        canvas.fill(.ringSector(center: c, innerRadius: layout.radius - ringWidth / 2, outerRadius: layout.radius + ringWidth / 2,
                                start: .zero, sweep: Angle(radians: 2 * .pi)),
                    color: theme.row, opacity: theme.rowOpacity * 0.18)
        guard !items.isEmpty else { return }
        let selected = offset.nearestItem
        let pressed = controller.motion.pressed
        for item in layout.visibleItems(at: offset, domain: controller.scroller.domain, count: controller.count) {
            let frame = Rect(center: item.center, size: g.itemSize)
            let pill = RoundedRect(rect: frame, radius: frame.height / 2)
            let state: PlateState = pressed == .item(item.item) ? .pressed : item.item == selected ? .selected : .normal
            let colors = theme.plateColors(state)
            canvas.fill(pill, color: colors.fill, opacity: colors.opacity, cache: resources.plates)
            if state == .selected, theme.highlight != colors.fill {
                canvas.stroke(pill, width: theme.highlightWidth, color: theme.highlight, cache: resources.plates)
            }
            drawLabel(items[item.index], index: item.index, selected: item.item == selected, in: frame, size: labelSize,
                      color: colors.text, on: canvas, resources: resources)
        }
        drawHub(on: canvas, selected: items[controller.scroller.domain.contentIndex(selected) ?? 0], pressed: pressed == .hub,
                resources: resources)
    }

    /// Icon (if any) and label centred as one group in `frame`, the icon leading in the label's
    /// reading direction. The label comes first: the icon is left out when the label would not
    /// fit beside it at full size, then the label shrinks, and only then is it shortened.
    private func drawLabel(_ item: MenuItem, index: Int, selected: Bool, in frame: Rect, size: Double, color: Color,
                           on canvas: Canvas, resources: ScreenResources) {
        let font = resources.font
        let padding = frame.height * DialGeometry.labelPadding
        let available = frame.width - 2 * padding
        let side = frame.height * 0.5
        var fitted = FittedLabel(item.label, font: font, size: size, maxWidth: available)
        var icon: String?
        if let key = item.icon, resources.hasIcon(key) {
            let beside = FittedLabel(item.label, font: font, size: size, maxWidth: available - side - padding / 2, floor: size)
            if !beside.shortened {
                icon = key
                fitted = beside
            }
        }
        let groupWidth = fitted.width + (icon == nil ? 0 : side + padding / 2)
        var x = frame.midX - groupWidth / 2
        if let icon {
            // The icon leads the label: on its left, or on its right when the label runs right to left.
            if font.direction(of: item.label) == .rightToLeft {
                resources.drawIcon(icon, in: Rect(x: x + fitted.width + padding / 2, y: frame.midY - side / 2, width: side, height: side),
                                   textColor: color, on: canvas)
            } else {
                resources.drawIcon(icon, in: Rect(x: x, y: frame.midY - side / 2, width: side, height: side), textColor: color, on: canvas)
                x += side + padding / 2
            }
        }
        let metrics = font.lineMetrics(size: fitted.size)
        let baseline = frame.midY + (metrics.ascent - metrics.descent) / 2
        canvas.drawText(fitted.text, font: font, size: fitted.size, at: Point(x: x, y: baseline), color: color, cache: resources.labels)
        resources.layoutReport?.items.append(.init(index: index, label: item.label, rect: frame,
                                                   textRect: LayoutReport.textRect(of: fitted, at: Point(x: x, y: baseline), font: font),
                                                   fontSize: fitted.size, shortened: fitted.shortened, selected: selected))
    }

    /// The hub: a disc in the selection's colours (a tap on it activates the selection) with the
    /// selected item's label and a pointer towards `style.pointer`; pressed while a finger is on it.
    private func drawHub(on canvas: Canvas, selected: MenuItem, pressed: Bool, resources: ScreenResources) {
        let theme = resources.theme
        let layout = controller.layout
        let c = layout.center
        let hub = geometry.hubRadius
        guard hub > 4 else { return }
        // The pointer: a triangle from the hub's rim towards the item at the pointer.
        let dir = layout.pointer
        let across = dir + Angle(radians: .pi / 2)
        let halfBase = hub * 0.17
        let baseRadius = hub - theme.highlightWidth
        let tipRadius = hub + (layout.radius - layout.itemRadius * 0.62 - hub) * 0.85
        func at(_ r: Double, _ side: Double) -> Point {
            Point(x: c.x + r * dir.cos + side * across.cos, y: c.y + r * dir.sin + side * across.sin)
        }
        let colors = theme.plateColors(pressed ? .pressed : .selected)
        canvas.fill(.circle(center: c, radius: hub), color: colors.fill, opacity: colors.opacity)
        canvas.stroke(.circle(center: c, radius: hub - theme.highlightWidth / 2), width: theme.highlightWidth, color: theme.highlight)
        // Drawn over the rim, so that the rim itself seems to grow the pointer.
        canvas.fill(.polygon([at(baseRadius, -halfBase), at(tipRadius, 0), at(baseRadius, halfBase)]), color: theme.highlight)
        // The selected label in full, as large as the hub allows and never smaller than the items'
        // labels (shortened, at their size, when the hub is too small for it).
        let room = hub * 1.7
        let hubLabel = FittedLabel(selected.label, font: resources.font, size: Swift.max(labelSize, Swift.min(hub * 0.34, labelSize * 1.4)),
                                   maxWidth: room, floor: labelSize)
        let size = hubLabel.size
        let metrics = resources.font.lineMetrics(size: size)
        var baseline = c.y + (metrics.ascent - metrics.descent) / 2
        if controller.count > controller.layout.effectiveSlots(count: controller.count) {
            // A window onto a longer list: say where in it the dial stands.
            baseline -= size * 0.45
            let position = "\(selectedPosition) / \(controller.count)"
            canvas.drawText(position, font: resources.font, size: size * 0.7, at: Point(x: c.x, y: baseline + size * 1.2),
                            color: colors.text, opacity: 0.8, alignment: .center, cache: resources.labels)
        }
        canvas.drawText(hubLabel.text, font: resources.font, size: size, at: Point(x: c.x, y: baseline),
                        color: colors.text, alignment: .center, cache: resources.labels)
    }

    /// 1-based position of the item at the pointer, for the hub.
    private var selectedPosition: Int {
        (controller.scroller.domain.contentIndex(controller.scroller.position.nearestItem) ?? 0) + 1
    }
}
