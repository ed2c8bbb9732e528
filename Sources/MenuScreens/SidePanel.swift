import Geometry
import KioskConfiguration
import LayoutCore
import Raster
import Text

/// The free side of a left or right arc on a landscape panel: the selected item large, its icon
/// above its label and the item's `description` below, aligned to the screen's reading start
/// (mirrored on a right-to-left screen). Laid out once for the screen's size; drawn only when
/// the selection has settled, so a scroll frame costs what it did without it.
struct SidePanel {
    /// Where the panel draws: the area between the screen's edge and the arc, below the header.
    let frame: Rect
    /// The label's size before fitting, and the description's.
    let labelSize: Double
    /// The rows' size: the panel's label is never smaller.
    let rowTextSize: Double
    let descriptionSize: Double
    /// The icon's side.
    let iconSide: Double

    /// The most lines a description wraps to; a longer one is shortened on its last line.
    static let maximumLines = 4

    /// Nil when the arc is on the top or bottom edge, when the panel is portrait, or when the arc
    /// leaves less than a quarter of the width (or 160 px) free: there is no half left to fill.
    init?(layout: ArcLayout, width: Double, height: Double, top: Double, rowTextSize: Double) {
        guard width > height, let apex = layout.row(item: 0, at: .zero, domain: .wrapping(period: 1))?.frame else { return nil }
        let margin = (0.04 * height).rounded()
        let area: Rect
        switch layout.edge {
        case .right: area = Rect(x: margin, y: top + margin, width: apex.minX - 2 * margin, height: height - top - 2 * margin)
        case .left: area = Rect(x: apex.maxX + margin, y: top + margin, width: width - apex.maxX - 2 * margin, height: height - top - 2 * margin)
        case .top, .bottom: return nil
        }
        guard area.width >= Self.neededWidth(width: width), area.height >= 120 else { return nil }
        frame = area
        labelSize = Swift.min(1.6 * rowTextSize, area.height * 0.14)
        self.rowTextSize = rowTextSize
        descriptionSize = Swift.max(FittedLabel.legibleFloor, Swift.min(0.9 * rowTextSize, area.height * 0.075))
        iconSide = Swift.min(area.height * 0.3, area.width * 0.4)
    }

    /// The least width the panel takes: a quarter of a landscape screen, at least 160 px.
    static func neededWidth(width: Double) -> Double { Swift.max(width / 4, 160) }

    /// The width a landscape left or right arc leaves beside it (nil: no side to fill).
    static func freeWidth(layout: ArcLayout, width: Double, height: Double) -> Double? {
        guard width > height, let apex = layout.row(item: 0, at: .zero, domain: .wrapping(period: 1))?.frame else { return nil }
        switch layout.edge {
        case .right: return Swift.max(0, apex.minX - 2 * (0.04 * height).rounded())
        case .left: return Swift.max(0, width - apex.maxX - 2 * (0.04 * height).rounded())
        case .top, .bottom: return nil
        }
    }

    /// Draws `item` into the panel.
    func draw(_ item: MenuItem, on canvas: Canvas, resources: ScreenResources, reading: ReadingDirection) {
        let font = resources.font
        let rtl = reading == .rightToLeft
        let icon = item.icon.flatMap { resources.hasIcon($0) ? $0 : nil }
        // The selection shown large: never smaller than its row; too long for one line at that,
        // it takes two.
        let label = FittedLabel(item.label, font: font, size: labelSize, maxWidth: frame.width, floor: Swift.min(labelSize, rowTextSize))
        let labelLines = label.shortened ? Self.wrap(item.label, font: font, size: label.size, width: frame.width, maxLines: 2) : [label.text]
        let labelMetrics = font.lineMetrics(size: label.size)
        let labelHeight = Double(labelLines.count) * (labelMetrics.ascent + labelMetrics.descent)
        let descriptionMetrics = font.lineMetrics(size: descriptionSize)
        let lineHeight = (descriptionMetrics.ascent + descriptionMetrics.descent) * 1.25
        var lines: [String] = []
        if let text = item.description {
            // What the label and icon leave of the panel's height decides how many lines fit.
            let used = (icon == nil ? 0 : iconSide + labelSize * 0.5) + labelHeight + labelSize * 0.5
            let fit = Int(Swift.max(0, frame.height - used) / Swift.max(lineHeight, 1))
            lines = Self.wrap(text, font: font, size: descriptionSize, width: frame.width, maxLines: Swift.min(fit, Self.maximumLines))
        }
        // A live value (another issue) goes between the label and the description.
        let height = (icon == nil ? 0 : iconSide + labelSize * 0.5) + labelHeight
            + (lines.isEmpty ? 0 : labelSize * 0.5 + Double(lines.count) * lineHeight)
        var y = frame.minY + Swift.max(0, (frame.height - height) / 2)
        if let icon {
            resources.drawIcon(icon, in: Rect(x: rtl ? frame.maxX - iconSide : frame.minX, y: y, width: iconSide, height: iconSide),
                               textColor: resources.theme.title, on: canvas)
            y += iconSide + labelSize * 0.5
        }
        let labelDirection = TextDirection(reading)
        let top = y
        var widest = 0.0
        for line in labelLines {
            let width = font.measure(line, size: label.size)
            widest = Swift.max(widest, width)
            canvas.drawText(line, font: font, size: label.size, at: Point(x: rtl ? frame.maxX - width : frame.minX, y: y + labelMetrics.ascent),
                            color: resources.theme.title, direction: labelDirection)
            y += labelMetrics.ascent + labelMetrics.descent
        }
        let whole = labelLines.joined(separator: " ") == item.label.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        resources.layoutReport?.panel = .init(label: item.label, rect: frame,
                                              textRect: Rect(x: rtl ? frame.maxX - widest : frame.minX, y: top, width: widest, height: labelHeight),
                                              fontSize: label.size, shortened: !whole, lines: lines.count)
        y += labelSize * 0.5
        for line in lines {
            y += descriptionMetrics.ascent
            canvas.drawText(line, font: font, size: descriptionSize, at: Point(x: rtl ? frame.maxX : frame.minX, y: y),
                            color: resources.theme.title, opacity: 0.85, alignment: rtl ? .right : .left, direction: labelDirection)
            y += lineHeight - descriptionMetrics.ascent
        }
    }

    /// `text` broken at spaces into lines no wider than `width`; at most `maxLines`, the last
    /// shortened with an ellipsis when the text goes on. A word wider than a line is shortened.
    static func wrap(_ text: String, font: Font, size: Double, width: Double, maxLines: Int) -> [String] {
        guard maxLines > 0 else { return [] }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var lines: [String] = []
        var current = ""
        var index = 0
        while index < words.count {
            let candidate = current.isEmpty ? words[index] : current + " " + words[index]
            if font.measure(candidate, size: size) <= width {
                current = candidate
                index += 1
                continue
            }
            if current.isEmpty {
                // One word wider than the line: shortened on a line of its own.
                current = font.truncated(words[index], size: size, maxWidth: width)
                index += 1
            }
            if lines.count == maxLines - 1 { break }
            lines.append(current)
            current = ""
        }
        if !current.isEmpty {
            if index < words.count {
                // The text goes on past the last line: end it with an ellipsis.
                current = font.truncated(current + " " + words[index...].joined(separator: " "), size: size, maxWidth: width)
            }
            lines.append(current)
        }
        return lines
    }
}
