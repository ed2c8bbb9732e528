import Geometry
import Text
import TOML
import KioskConfiguration

/// What a screen drew at rest, as the drawing code itself reports it: the title and each item's
/// plate, the text inside it, its size and whether it was shortened. `kiosk render --layout`
/// writes it; `check-config --size` warns from it. Recorded by the code that draws, so the report
/// cannot disagree with the pixels.
public final class LayoutReport {
    public struct Title: Equatable, Sendable {
        public var text: String
        /// Where the title's text is drawn.
        public var rect: Rect
        public var fontSize: Double
        public var shortened: Bool
    }

    /// A list's section header: its band across the list, the text's size, whether it was shortened.
    public struct Header: Equatable, Sendable {
        public var section: Int
        public var text: String
        public var rect: Rect
        public var fontSize: Double
        public var shortened: Bool
    }

    public struct Item: Equatable, Sendable {
        /// Index into the screen's items (sections flattened in order).
        public var index: Int
        public var label: String
        /// The plate.
        public var rect: Rect
        /// The text as drawn: its advance width by the line's ascent and descent.
        public var textRect: Rect
        public var fontSize: Double
        public var shortened: Bool
        public var selected: Bool
        /// A list's column (0 is the reading start's); nil on the other styles.
        public var column: Int? = nil
        /// 2 where a label too long for one line at the screen's size was broken onto two.
        public var lines: Int = 1
        /// The live value within the label as drawn (its text and where it lies), if it has one.
        public var value: Value? = nil
    }

    /// A live value inside a label.
    public struct Value: Equatable, Sendable {
        public var text: String
        public var rect: Rect
    }

    /// Room a screen's layout could not give its structure: a list's columns it had to drop.
    public struct Columns: Equatable, Sendable {
        public var wanted: Int
        public var kept: Int
        /// The width a column needs for the longest label at the legible floor.
        public var widthNeeded: Double
    }

    /// The free side of an arc (`SidePanel`): the selected item's label there and its description's lines.
    public struct Panel: Equatable, Sendable {
        public var label: String
        /// The panel's area.
        public var rect: Rect
        public var textRect: Rect
        public var fontSize: Double
        public var shortened: Bool
        public var lines: Int
    }

    /// A dial's hub: each item's label as the hub shows it when that item is selected.
    public struct HubLabel: Equatable, Sendable {
        public var index: Int
        public var label: String
        public var fontSize: Double
        /// 1; 2 where the label breaks at a space; 0 where it cannot be whole at the items'
        /// size and the hub shows none (never a shortened label there).
        public var lines: Int
    }

    public let screen: String
    public let width: Int
    public let height: Int
    public internal(set) var title: Title?
    /// The back button in the header (a screen opened from another), or nil: its plate and word.
    public internal(set) var back: Title?
    public internal(set) var headers: [Header] = []
    public internal(set) var items: [Item] = []
    public internal(set) var panel: Panel?
    public internal(set) var hub: [HubLabel] = []
    /// What the layout left out of the config's structure and what the author can change, as
    /// sentences (a side panel without room, plates a dial could not show).
    public internal(set) var cuts: [String] = []
    /// Icons (as the config names them) drawn outlined because they barely show on their plate.
    public internal(set) var outlinedIcons: Set<String> = []
    /// Set when a list keeps fewer columns than its config asks for.
    public internal(set) var columns: Columns?

    public init(screen: String, width: Int, height: Int) {
        self.screen = screen
        self.width = width
        self.height = height
    }

    /// Where `fitted` lies when drawn with the left end of its baseline at `origin`: its width
    /// by the line's ascent and descent.
    static func textRect(of fitted: FittedLabel, at origin: Point, font: Font) -> Rect {
        let m = font.lineMetrics(size: fitted.size)
        return Rect(x: origin.x, y: origin.y - m.ascent, width: fitted.width, height: m.ascent + m.descent)
    }

    // MARK: What is wrong with it

    /// Items drawn shortened, each once (a wrapping arc can show an item twice).
    public var shortenedItems: [Item] {
        var seen: Set<Int> = []
        return items.filter { $0.shortened && seen.insert($0.index).inserted }
    }

    /// A dial's plates are pills (rounded ends of half their height), not rectangles.
    public internal(set) var platesArePills = false

    /// Pairs of items whose plates overlap by more than a hairline.
    public var overlappingItems: [(Item, Item)] {
        var pairs: [(Item, Item)] = []
        for i in items.indices {
            for j in items.indices where j > i && (platesArePills ? Self.pillsOverlap(items[i].rect, items[j].rect) : Self.overlap(items[i].rect, items[j].rect)) {
                pairs.append((items[i], items[j]))
            }
        }
        return pairs
    }

    /// Two upright pills overlap where their core segments (the middle line less the round ends)
    /// come closer than the sum of their radii, less a hairline.
    static func pillsOverlap(_ a: Rect, _ b: Rect) -> Bool {
        guard overlap(a, b) else { return false }
        let ra = min(a.width, a.height) / 2, rb = min(b.width, b.height) / 2
        let gap = max(0, max(a.minX + ra, b.minX + rb) - min(a.maxX - ra, b.maxX - rb))
        let dy = a.midY - b.midY
        return (gap * gap + dy * dy).squareRoot() < ra + rb - 1
    }

    /// Items whose plate runs into the side panel.
    public var itemsOverPanel: [Item] {
        guard let panel else { return [] }
        return items.filter { Self.overlap($0.rect, panel.rect) }
    }

    /// Items whose plate runs into the title's text.
    public var itemsOverTitle: [Item] {
        guard let title else { return [] }
        return items.filter { Self.overlap($0.rect, title.rect) }
    }

    /// Items whose text is cut by the screen's edge.
    public var itemsOffScreen: [Item] {
        let bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height)).insetBy(dx: -0.5, dy: -0.5)
        return items.filter { !bounds.contains($0.textRect) }
    }

    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        let w = Swift.min(a.maxX, b.maxX) - Swift.max(a.minX, b.minX)
        let h = Swift.min(a.maxY, b.maxY) - Swift.max(a.minY, b.minY)
        return w > 1 && h > 1
    }

    // MARK: JSON

    /// `{"screen", "size", "title", "back", "headers", "side_panel", "hub", "cuts", "columns", "items"}`
    /// (headers, side panel, hub, cuts and columns when there are any; an item's `column` on a list,
    /// `lines` when it is broken onto two, `value` when it shows one), rectangles as [x, y, w, h] in the
    /// unrotated screen.
    /// Strings are written as TOML basic strings, whose escapes are all JSON's (as `StatusValue` does).
    public var json: String {
        func num(_ v: Double) -> String {
            let r = (v * 100).rounded() / 100
            return r == r.rounded() ? String(Int(r)) : String(r)
        }
        func rect(_ r: Rect) -> String { "[\(num(r.minX)), \(num(r.minY)), \(num(r.width)), \(num(r.height))]" }
        var out = "{\n  \"screen\": \(TOMLSyntax.quoted(screen)),\n  \"size\": [\(width), \(height)],\n  \"title\": "
        if let title {
            out += "{\"text\": \(TOMLSyntax.quoted(LiveLabel.plain(title.text))), \"rect\": \(rect(title.rect)), "
            out += "\"font_size\": \(num(title.fontSize)), \"shortened\": \(title.shortened)}"
        } else {
            out += "null"
        }
        if let back {
            out += ",\n  \"back\": {\"text\": \(TOMLSyntax.quoted(back.text)), \"rect\": \(rect(back.rect)), "
            out += "\"font_size\": \(num(back.fontSize)), \"shortened\": \(back.shortened)}"
        } else {
            out += ",\n  \"back\": null"
        }
        if !headers.isEmpty {
            out += ",\n  \"headers\": ["
            out += headers.map {
                "{\"section\": \($0.section), \"text\": \(TOMLSyntax.quoted(LiveLabel.plain($0.text))), \"rect\": \(rect($0.rect)), "
                    + "\"font_size\": \(num($0.fontSize)), \"shortened\": \($0.shortened)}"
            }.joined(separator: ", ")
            out += "]"
        }
        if let panel {
            out += ",\n  \"side_panel\": {\"label\": \(TOMLSyntax.quoted(LiveLabel.plain(panel.label))), \"rect\": \(rect(panel.rect)), "
            out += "\"text_rect\": \(rect(panel.textRect)), \"font_size\": \(num(panel.fontSize)), "
            out += "\"shortened\": \(panel.shortened), \"description_lines\": \(panel.lines)}"
        }
        if !hub.isEmpty {
            out += ",\n  \"hub\": ["
            out += hub.map {
                "{\"index\": \($0.index), \"label\": \(TOMLSyntax.quoted(LiveLabel.plain($0.label))), \"font_size\": \(num($0.fontSize)), \"lines\": \($0.lines)}"
            }.joined(separator: ", ")
            out += "]"
        }
        if !cuts.isEmpty { out += ",\n  \"cuts\": [" + cuts.map(TOMLSyntax.quoted).joined(separator: ", ") + "]" }
        if !outlinedIcons.isEmpty { out += ",\n  \"outlined_icons\": [" + outlinedIcons.sorted().map(TOMLSyntax.quoted).joined(separator: ", ") + "]" }
        if let columns {
            out += ",\n  \"columns\": {\"wanted\": \(columns.wanted), \"kept\": \(columns.kept), \"width_needed\": \(num(columns.widthNeeded))}"
        }
        out += ",\n  \"items\": ["
        for (n, item) in items.enumerated() {
            out += n == 0 ? "\n" : ",\n"
            out += "    {\"index\": \(item.index), \"label\": \(TOMLSyntax.quoted(LiveLabel.plain(item.label))), \"rect\": \(rect(item.rect)), "
            out += "\"text_rect\": \(rect(item.textRect)), \"font_size\": \(num(item.fontSize)), "
            out += "\"shortened\": \(item.shortened), \"selected\": \(item.selected)" + (item.column.map { ", \"column\": \($0)" } ?? "")
            if item.lines > 1 { out += ", \"lines\": \(item.lines)" }
            if let value = item.value { out += ", \"value\": {\"text\": \(TOMLSyntax.quoted(value.text)), \"rect\": \(rect(value.rect))}" }
            out += "}"
        }
        out += items.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }
}

extension Rect {
    func contains(_ r: Rect) -> Bool { r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY }
}
