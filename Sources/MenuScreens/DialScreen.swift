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
        let geometry = Self.geometry(style: style, resources: resources, items: config.items)
        controller = DialMenuController(geometry: geometry, count: count, wraps: style.wrap)
        reading = config.reading
        let wanted = Swift.min(Swift.max(1, style.slots), Swift.max(1, count))
        if geometry.layout.slots < wanted {
            cut = "the dial shows \(geometry.layout.slots) of \(wanted) plates at once; shorten the longest labels"
        } else if !geometry.fits {
            cut = "the dial's plates shorten its longest labels (the hub shows them whole); shorten them"
        } else {
            cut = nil
        }
    }

    private let reading: ReadingDirection
    /// What the layout had to give up, for `check-config --size`.
    private let cut: String?

    /// The items' one size: the title is never drawn smaller.
    public var levelBelowTitle: Double { geometry.labelSize }

    /// The dial centred in the area below the header, radius `style.radius × min(width, height)`
    /// (shrunk if it would not fit there). A `text_scale` above 1 never draws labels smaller than
    /// 1 does: where the larger text fits no dial the area holds, the longest are shortened.
    static func geometry(style: DialStyle, resources: ScreenResources, items: [MenuItem]) -> DialGeometry {
        let w = Double(resources.width), h = Double(resources.height)
        func make(_ scale: Double, header: Double, minimum: Double) -> DialGeometry {
            let top = min(header, h)
            return DialGeometry(style: style, area: Rect(x: 0, y: top, width: w, height: h - top), screenMin: min(w, h), count: items.count,
                                highlightWidth: resources.theme.highlightWidth, textScale: scale, minimumLabelSize: minimum,
                                widestLabel: { resources.widestLabel(of: items, size: $0) })
        }
        guard resources.textScale > 1 else { return make(resources.textScale, header: resources.headerHeight, minimum: 0) }
        // The labels a dial at text_scale 1 would draw (below its own, lower title bar) are the least.
        let plain = make(1, header: resources.headerHeight(textScale: 1), minimum: 0)
        return make(resources.textScale, header: resources.headerHeight, minimum: plain.labelSize)
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
                      color: colors.text, plate: colors.fill, on: canvas, resources: resources)
        }
        drawHub(on: canvas, selected: items[controller.scroller.domain.contentIndex(selected) ?? 0], pressed: pressed == .hub,
                resources: resources)
        if let cut { resources.layoutReport?.cuts = [cut] }
        resources.layoutReport?.platesArePills = true
        if let report = resources.layoutReport, geometry.hubRadius > 4 {
            // Every item's label as the hub would show it once selected, not only the selection's.
            report.hub = items.enumerated().map { index, item in
                let text = hubText(item.label, font: resources.font, rim: resources.theme.highlightWidth)
                return .init(index: index, label: item.label, fontSize: text.size, lines: text.lines.count)
            }
        }
    }

    /// Icon (if any) and label centred as one group in `frame`, the icon leading in the label's
    /// reading direction. The label comes first: the icon is left out when the label would not
    /// fit beside it at full size, then the label shrinks, and only then is it shortened.
    private func drawLabel(_ item: MenuItem, index: Int, selected: Bool, in frame: Rect, size: Double, color: Color, plate: Color,
                           on canvas: Canvas, resources: ScreenResources) {
        let font = resources.font
        let padding = frame.height * DialGeometry.labelPadding
        let available = frame.width - 2 * padding
        let side = frame.height * 0.5
        var fitted = FittedLabel(item.label, font: font, size: size, maxWidth: available, floor: size)
        var icon: String?
        if let key = item.icon, resources.hasIcon(key) {
            let beside = FittedLabel(item.label, font: font, size: size, maxWidth: available - side - padding / 2, floor: size)
            if !beside.shortened {
                icon = key
                fitted = beside
            }
        }
        let metrics = font.lineMetrics(size: fitted.size)
        let lineHeight = metrics.ascent + metrics.descent
        if fitted.shortened, 2 * lineHeight <= frame.height * 0.8 {
            // Too long for one line at the dial's size, and the plate is tall enough: two lines, centred.
            let lines = SidePanel.wrap(item.label, font: font, size: size, width: available, maxLines: 2)
            if lines.count == 2 {
                let widths = lines.map { font.measure($0, size: size) }
                for (n, line) in lines.enumerated() {
                    let baseline = frame.midY - lineHeight + Double(n) * lineHeight + metrics.ascent
                    canvas.drawText(line, font: font, size: size, at: Point(x: frame.midX - widths[n] / 2, y: baseline), color: color,
                                    direction: TextDirection(reading), cache: resources.labels)
                }
                let widest = widths.max() ?? 0
                let whole = lines.joined(separator: " ") == item.label.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                resources.layoutReport?.items.append(.init(index: index, label: item.label, rect: frame,
                                                           textRect: Rect(x: frame.midX - widest / 2, y: frame.midY - lineHeight, width: widest, height: 2 * lineHeight),
                                                           fontSize: size, shortened: !whole, selected: selected, lines: 2))
                return
            }
        }
        let groupWidth = fitted.width + (icon == nil ? 0 : side + padding / 2)
        var x = frame.midX - groupWidth / 2
        if let icon {
            // The icon leads the label: on its left, or on its right on a right-to-left screen.
            if reading == .rightToLeft {
                resources.drawIcon(icon, in: Rect(x: x + fitted.width + padding / 2, y: frame.midY - side / 2, width: side, height: side),
                                   textColor: color, plate: plate, on: canvas)
            } else {
                resources.drawIcon(icon, in: Rect(x: x, y: frame.midY - side / 2, width: side, height: side), textColor: color,
                                   plate: plate, on: canvas)
                x += side + padding / 2
            }
        }
        let baseline = frame.midY + (metrics.ascent - metrics.descent) / 2
        canvas.drawText(fitted.text, font: font, size: fitted.size, at: Point(x: x, y: baseline), color: color,
                        direction: TextDirection(reading), cache: resources.labels)
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
        // The selected label in full: as large as the hub allows, never smaller than the items'
        // labels, on two lines when one is too narrow, or not at all.
        let text = hubText(selected.label, font: resources.font, rim: theme.highlightWidth)
        let size = text.size
        let metrics = resources.font.lineMetrics(size: size)
        if text.lines.count <= 1 {
            var baseline = c.y + (metrics.ascent - metrics.descent) / 2
            if showsPosition {
                baseline -= size * 0.45
                drawPosition(on: canvas, size: size, baseline: baseline + size * 1.2, color: colors.text, resources: resources)
            }
            if let line = text.lines.first {
                canvas.drawText(line, font: resources.font, size: size, at: Point(x: c.x, y: baseline),
                                color: colors.text, alignment: .center, direction: TextDirection(reading), cache: resources.labels)
            }
            return
        }
        let offsets = Self.lineOffsets(lines: text.lines.count, lineHeight: metrics.ascent + metrics.descent,
                                       positionHeight: showsPosition ? size * 0.84 : 0)
        for (line, offset) in zip(text.lines, offsets.lines) {
            canvas.drawText(line, font: resources.font, size: size, at: Point(x: c.x, y: c.y + offset + (metrics.ascent - metrics.descent) / 2),
                            color: colors.text, alignment: .center, direction: TextDirection(reading), cache: resources.labels)
        }
        if showsPosition {
            drawPosition(on: canvas, size: size, baseline: c.y + offsets.position + size * 0.25, color: colors.text, resources: resources)
        }
    }

    /// A window onto a longer list than the dial's slots: the hub says where in it the dial stands.
    private var showsPosition: Bool { controller.count > controller.layout.effectiveSlots(count: controller.count) }

    /// "3 / 12": where in a longer list than the dial's slots it stands.
    private func drawPosition(on canvas: Canvas, size: Double, baseline: Double, color: Color, resources: ScreenResources) {
        canvas.drawText("\(selectedPosition) / \(controller.count)", font: resources.font, size: size * 0.7, at: Point(x: controller.layout.center.x, y: baseline),
                        color: color, opacity: 0.8, alignment: .center, cache: resources.labels)
    }

    /// The hub's label: its lines (none when it cannot be whole) and size.
    struct HubText: Equatable {
        var lines: [String]
        var size: Double
    }

    /// Where lines of text sit as one block centred on the hub, as offsets of each line's middle
    /// from the centre (a 1.05 line pitch), and the middle of the position line under them.
    static func lineOffsets(lines: Int, lineHeight: Double, positionHeight: Double) -> (lines: [Double], position: Double) {
        let pitch = lineHeight * 1.05
        let top = -(Double(lines) * pitch + positionHeight) / 2
        return ((0..<lines).map { top + pitch * (Double($0) + 0.5) }, top + Double(lines) * pitch + positionHeight / 2)
    }

    /// `label` as the hub shows it when its item is selected: on one line as large as the hub allows
    /// and never smaller than the items' labels; a label too wide for that line breaks at a space
    /// into two at the items' size; one that two lines cannot hold is not shown there at all.
    /// Each line's room is the disc's chord at that line's far edge, inside the rim.
    func hubText(_ label: String, font: Font, rim: Double) -> HubText {
        let hub = geometry.hubRadius
        let m = font.lineMetrics(size: labelSize)
        let lineHeight = m.ascent + m.descent
        func room(at offset: Double) -> Double {
            let edge = abs(offset) + lineHeight / 2
            return 2 * (Swift.max(0, hub * hub - edge * edge)).squareRoot() - 2 * (rim + hub * 0.04)
        }
        let one = FittedLabel(label, font: font, size: Swift.max(labelSize, Swift.min(hub * 0.34, labelSize * 1.4)),
                              maxWidth: room(at: 0), floor: labelSize)
        guard one.shortened else { return HubText(lines: [one.text], size: one.size) }
        let words = label.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.count > 1 {
            let offsets = Self.lineOffsets(lines: 2, lineHeight: lineHeight, positionHeight: showsPosition ? labelSize * 0.84 : 0).lines
            // The narrower of the two rooms for both lines: the block need not be centred exactly.
            let width = offsets.map(room(at:)).min() ?? 0
            let lines = SidePanel.wrap(label, font: font, size: labelSize, width: width, maxLines: 2)
            if lines.count == 2, lines.joined(separator: " ") == words.joined(separator: " ") {
                return HubText(lines: lines, size: labelSize)
            }
        }
        // Never a cut word and never text below the items' size: the hub shows no label, and the
        // selected plate at the pointer shows it whole.
        return HubText(lines: [], size: labelSize)
    }

    /// 1-based position of the item at the pointer, for the hub.
    private var selectedPosition: Int {
        (controller.scroller.domain.contentIndex(controller.scroller.position.nearestItem) ?? 0) + 1
    }
}
