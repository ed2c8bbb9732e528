import Geometry
import KioskConfiguration
import LayoutCore
import Raster
import Text

/// A grouped list screen (DESIGN.md §1, seed 004): section titles, then each section's rows in
/// `style.columns` waterfall columns, corners rounded by each row's place in its column run.
///
/// The layout is computed once, when the screen is made for its size. The content scrolls under
/// the header bar; a frame restores the content area from the chrome cache and draws only the
/// rows and section titles that intersect it.
public typealias ListScreen = Screen<ListShape>

/// The list's part of a screen: its controller, and the rows and section titles drawn in the
/// content area below the header.
public struct ListShape: MenuShape {
    public var controller: ListMenuController
    private let sectionTitles: [String?]
    private let rowHeight: Double
    /// The labels' size before any shrinking, and the section titles'.
    private let textSize: Double
    private var headerSize: Double
    private let reading: ReadingDirection
    private let iconColumn: Bool
    /// Columns the config asks for that no column width could hold (for the layout report).
    private let columnsNote: LayoutReport.Columns?

    public init(config: ScreenConfig, style: ListStyle, resources: ScreenResources, showsBack: Bool) {
        sectionTitles = config.sections.map(\.title)
        reading = config.reading
        let h = Double(resources.height), w = Double(resources.width)
        let top = min(resources.headerHeight, h)
        iconColumn = config.items.contains { $0.icon != nil }
        let fit = Self.fit(config: config, style: style, resources: resources, textScale: resources.textScale)
        rowHeight = fit.rowHeight
        var size = fit.textSize, header = fit.headerSize
        if resources.textScale > 1 {
            // Larger text never makes any text smaller: at worst the sizes `text_scale = 1` gives,
            // in rows as tall as the larger scale made them.
            let plain = Self.fit(config: config, style: style, resources: resources, textScale: 1)
            size = max(size, plain.textSize)
            header = max(header, plain.headerSize)
        }
        textSize = size
        headerSize = max(size, header)
        controller = ListMenuController(layout: fit.layout, viewport: Rect(x: 0, y: top, width: w, height: h - top))
        if style.columns > fit.layout.metrics.columns {
            columnsNote = LayoutReport.Columns(wanted: style.columns, kept: fit.layout.metrics.columns, widthNeeded: fit.needs)
        } else {
            columnsNote = nil
        }
    }

    /// A list's rows for one `text_scale`: their height, the columns that hold every label at the
    /// legible floor, and the one size all labels are drawn at.
    struct Fit {
        var rowHeight: Double
        var layout: ListLayout
        var textSize: Double
        /// Section headers: one size, at least the items' (a header heads its rows), as large as
        /// the theme asks while the longest fits; longer ones are shortened (and warned about).
        var headerSize: Double
        /// The width a column needs for the longest label at the floor.
        var needs: Double
    }

    static func fit(config: ScreenConfig, style: ListStyle, resources: ScreenResources, textScale: Double) -> Fit {
        let h = Double(resources.height), w = Double(resources.width)
        let rowFraction = style.rowHeight.isFinite && style.rowHeight > 0 ? min(style.rowHeight, 1) : 0.1
        // A large text_scale makes the rows taller rather than overfill them.
        let wanted = resources.theme.textSize * textScale
        let fraction = min(wanted, ScreenResources.fullestText)
        let grow = fraction > 0 && wanted > fraction ? wanted / fraction : 1
        let rowHeight = max(1, (rowFraction * h * grow).rounded())
        let wantedText = fraction * rowHeight
        let items = config.items
        let iconColumn = items.contains { $0.icon != nil }
        // Columns are the author's structure: kept while each still holds the longest label at
        // the legible floor (for large text, the floor times text_scale: its reader needs it).
        let needs = resources.widestAtFloor(of: items, size: wantedText, rowHeight: rowHeight,
                                            floor: FittedLabel.legibleFloor * max(1, textScale))
        let layout = Self.layout(config: config, style: style, width: w, height: h, rowHeight: rowHeight, needs: needs)
        let column = layout.columnWidth
        let room = column - resources.rowInsets(height: rowHeight, width: column, iconColumn: iconColumn)
        let size = resources.sharedSize(of: items, wanted: wantedText) { _ in room }
        let band = layout.headers.first?.frame.width ?? w
        let titles = config.sections.compactMap { $0.title.flatMap { $0.isEmpty ? nil : MenuItem(label: $0, action: .back) } }
        // A header heads its rows: never smaller than they are, nor so much larger that it reads as a title.
        let wantedHeader = max(size, min(rowFraction * h * 0.36 * textScale, size * 1.5))
        let header = max(size, resources.sharedSize(of: titles, wanted: wantedHeader) { _ in band - rowHeight * 0.4 })
        return Fit(rowHeight: rowHeight, layout: layout, textSize: size, headerSize: header, needs: needs)
    }

    /// The list's layout for a screen of this size: spacing in pixels at 1080 lines, scaled.
    /// `columns` is the most there are: fewer when a column would be narrower than `needs`.
    static func layout(config: ScreenConfig, style: ListStyle, width: Double, height: Double, rowHeight: Double,
                       needs: Double = 0) -> ListLayout {
        let scale = height / 1080
        let spacing = (32 * scale).rounded(), insets = (32 * scale).rounded()
        var columns = max(1, style.columns)
        while columns > 1, (width - 2 * insets - Double(columns - 1) * spacing) / Double(columns) < needs { columns -= 1 }
        let metrics = ListMetrics(columns: columns, columnSpacing: spacing, rowSpacing: 0,
                                  sectionSpacing: (24 * scale).rounded(), insets: insets,
                                  reading: config.reading)
        let sections = config.sections.map { section in
            ListSection(headerHeight: section.title.map { $0.isEmpty ? 0 : (rowHeight * 0.75).rounded() } ?? 0,
                        rowHeights: Array(repeating: rowHeight, count: section.items.count))
        }
        return ListLayout(width: width, sections: sections, metrics: metrics)
    }

    /// The items' one size: the title is never drawn smaller.
    public var levelBelowTitle: Double { textSize }

    /// Section headers sit between the title and the items: never larger than the title as drawn.
    public mutating func titleDrawn(at size: Double) { headerSize = max(textSize, min(headerSize, size)) }

    public var layout: ListLayout { controller.layout }

    /// The scrolled content area below the header.
    public func damage(within bounds: PixelRect) -> PixelRect { PixelRect(covering: controller.viewport).intersection(bounds) }

    public func draw(on canvas: Canvas, items: [MenuItem], resources: ScreenResources) {
        let offset = controller.offset
        let theme = resources.theme
        let viewport = controller.viewport
        let layout = controller.layout
        let dy = viewport.minY - offset
        let top = offset, bottom = offset + viewport.height
        // Section titles: in the title colour on the background, like the screen's title but smaller.
        // Drawn as written, not forced to capitals: uppercasing depends on the language (Greek drops
        // its accents, Turkish dots its I, German has ß), which a label does not say.
        for header in layout.visibleHeaders(top: top, bottom: bottom) where header.frame.height > 0 {
            guard let title = sectionTitles[header.section], !title.isEmpty else { continue }
            let frame = header.frame.offsetBy(dx: viewport.minX, dy: dy)
            let baseline = frame.maxY - frame.height * 0.3
            let rtl = reading == .rightToLeft
            let fitted = FittedLabel(title, font: resources.font, size: headerSize, maxWidth: frame.width - rowHeight * 0.4, floor: headerSize)
            let origin = Point(x: rtl ? frame.maxX - rowHeight * 0.2 - fitted.width : frame.minX + rowHeight * 0.2, y: baseline)
            canvas.drawText(fitted.text, font: resources.font, size: headerSize, at: origin, color: theme.title,
                            direction: TextDirection(reading), cache: resources.labels)
            if viewport.contains(frame) {
                resources.layoutReport?.headers.append(.init(section: header.section, text: title, rect: frame, fontSize: headerSize,
                                                             shortened: fitted.shortened))
            }
        }
        resources.layoutReport?.columns = columnsNote
        let separatorInset = rowHeight * 0.2
        let pressedRow: Int? = if case .item(let i)? = controller.motion.pressed { i } else { nil }
        let visible = layout.visibleRowIndices(top: top, bottom: bottom)
        for i in visible where i != pressedRow {
            let row = layout.rows[i]
            let frame = row.frame.offsetBy(dx: viewport.minX, dy: dy)
            let item = items[i]
            resources.drawRow(on: canvas, frame: frame, corners: row.position.roundedCorners, label: item.label, icon: item.icon,
                              state: .normal, textSize: textSize, reading: reading, iconColumn: iconColumn,
                              index: viewport.contains(frame) ? i : nil, selected: i == controller.focus, column: row.column)
            if row.position == .middle || row.position == .bottom {
                // A hairline between rows of one run, as grouped lists have.
                canvas.fill(Rect(x: frame.minX + separatorInset, y: frame.minY, width: frame.width - 2 * separatorInset, height: 1),
                            color: theme.text, opacity: 0.14)
            }
        }
        // The selection plate over the rows (it glides between them when the focus moves), the
        // labels it covers drawn again in the selected colour, clipped to it.
        if let plate = controller.selectionFrame?.offsetBy(dx: viewport.minX, dy: dy),
           plate.maxY > viewport.minY, plate.minY < viewport.maxY {
            let colors = theme.plateColors(.selected)
            let rounded = RoundedRect(rect: plate, radius: theme.cornerRadius * plate.height,
                                      corners: layout.rows[controller.focus].position.roundedCorners)
            canvas.fill(rounded, color: colors.fill, opacity: colors.opacity, cache: resources.plates)
            if theme.highlight != colors.fill {
                let inset = theme.highlightWidth / 2
                canvas.stroke(RoundedRect(rect: plate.insetBy(dx: inset, dy: inset), radius: rounded.radius - inset, corners: rounded.corners),
                              width: theme.highlightWidth, color: theme.highlight, cache: resources.plates)
            }
            canvas.withClip(PixelRect(covering: plate)) {
                for i in visible where i != pressedRow {
                    let frame = layout.rows[i].frame.offsetBy(dx: viewport.minX, dy: dy)
                    guard frame.intersects(plate) else { continue }
                    resources.drawRowContents(on: canvas, frame: frame, label: items[i].label, icon: items[i].icon, color: colors.text,
                                              textSize: textSize, reading: reading, iconColumn: iconColumn, plate: colors.fill)
                }
            }
        }
        // The pressed row last: a finger on the selected row must see it respond too.
        if let i = pressedRow, layout.rows.indices.contains(i) {
            let row = layout.rows[i]
            resources.drawRow(on: canvas, frame: row.frame.offsetBy(dx: viewport.minX, dy: dy), corners: row.position.roundedCorners,
                              label: items[i].label, icon: items[i].icon, state: .pressed, textSize: textSize, reading: reading,
                              iconColumn: iconColumn)
        }
    }
}
