import Geometry
import KioskConfiguration
import LayoutCore
import Raster
import Text

/// One screen of the kiosk (arc, dial or list): its state between input and frames, and its
/// drawing. Time is passed in; nothing here touches a device, so the whole screen can be
/// driven and rendered in tests. Input and `update` change state; `draw` only draws, so the
/// owner acts on the events of `update` before anything is drawn.
public protocol MenuScreen: AnyObject {
    var config: ScreenConfig { get }
    /// The selected item, as an index into `config.items` (sections flattened in order).
    var selectedIndex: Int { get }
    /// True while an animation runs (frames are needed without further input).
    var isMoving: Bool { get }
    /// Something changed that is not on screen yet.
    var needsFrame: Bool { get }
    /// The scroller position as drawn: items for an arc or a dial, pixels for a list.
    var position: ScrollOffset { get }
    /// Puts the selection on `index` at once (restoring it after a reload or on return).
    func select(_ index: Int)
    /// Puts the scroller exactly at `position`, without animation and without a `.selected`
    /// report (restoring a position; a demo that moves the menu itself every frame).
    func jump(to position: ScrollOffset)
    /// A finger is down on the menu and holds it (a drag or a press in progress).
    var isHeld: Bool { get }
    /// A finger that held the screen this one replaces (a config applied, a new panel size)
    /// goes on holding this one: its moves drag it, its release settles it.
    func takeHold(now: Double)
    func handle(_ input: MenuInput, now: Double)
    /// Advances motion to `now`; returns what happened since the last call. Never draws.
    func update(now: Double) -> [MenuEvent]
    /// Draws the screen as it stands after the last `update`. Never changes state. Returns the
    /// damage: the whole screen when `full` (first frame, display regained), else the part that
    /// moves. `canvas` is the long-lived canvas over the frame buffer, its clip the whole buffer.
    func draw(on canvas: Canvas, full: Bool) -> PixelRect
}

/// How a plate is drawn: the selection filled (an outline alone is lost across a room), the plate
/// under a finger pressed.
public enum PlateState: Sendable, Equatable {
    case normal, selected, pressed
}

extension ThemeConfig {
    /// The fill, its opacity and the label colour of a plate in `state`.
    public func plateColors(_ state: PlateState) -> (fill: Color, opacity: Double, text: Color) {
        switch state {
        case .normal: return (palette.row, palette.rowOpacity, palette.text)
        case .selected: return (palette.selectedRow, 1, palette.selectedText)
        case .pressed: return (palette.pressedRow, 1, palette.text)
        }
    }
}

/// What every screen shares: the theme, its font and decoded icons (loaded before the screens are
/// built, see `LoadedAssets`), and the drawing of the parts common to all styles (background,
/// title, back button).
public final class ScreenResources {
    public let theme: ThemeConfig
    public let width: Int
    public let height: Int
    /// The font and every image the config names, already decoded: drawing never reads a file.
    public let assets: LoadedAssets
    /// Set while a screen is made and drawn for `kiosk render --layout` or `check-config --size`:
    /// the drawing code reports into it what it laid out.
    public var layoutReport: LayoutReport?
    /// Plates and labels recorded once and replayed on later frames (nil: drawn plainly, the
    /// reference the tests compare with). Bounded (`PlateCache.defaultByteLimit` and
    /// `LabelCache.defaultByteLimit`, 2 MiB each); a reload or a new panel size makes new
    /// resources, which drops them.
    public var plates: PlateCache? = PlateCache()
    public var labels: LabelCache?
    /// Icons that barely show on a plate, with the outline that makes them show.
    let outlines = IconOutlineCache()

    public init(theme: ThemeConfig, assets: LoadedAssets, width: Int, height: Int) {
        self.theme = theme
        self.assets = assets
        self.width = width
        self.height = height
        labels = LabelCache(font: assets.font)
    }

    public var font: Font { assets.font }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The decoded image at `path` (a background tile or a PNG icon), or nil when it could not be
    /// decoded (logged when it was loaded).
    public func icon(_ path: String) -> PixelBuffer? { assets.image(path) }

    /// The theme's `text_scale` (1 when it is not a usable number): every text size is multiplied by it.
    public var textScale: Double { theme.textScale.isFinite && theme.textScale > 0 ? theme.textScale : 1 }

    /// The title's size in pixels.
    var titleTextSize: Double { theme.titleSize * textScale * Double(height) }

    /// True when the item icon `icon` (as the config writes it: a file or an icon name) loaded.
    public func hasIcon(_ icon: String) -> Bool { assets.image(icon) != nil || assets.vector(icon) != nil }

    /// Draws the item icon `icon` into `rect`: a PNG scaled (bilinear); an SVG rendered by librsvg
    /// at the rect's whole-pixel size (once per size and colour, then copied) and placed on whole
    /// pixels, so it stays crisp, in the colour `theme.icon_color` gives beside text of `textColor`.
    /// On a `plate` it barely shows on (`IconOutline`), an icon is outlined in `textColor`.
    public func drawIcon(_ icon: String, in rect: Rect, textColor: Color, plate: Color? = nil, on canvas: Canvas) {
        if let image = assets.image(icon) {
            // Outlined, a PNG is scaled once to its whole-pixel size and placed like an SVG.
            let side = Int(min(rect.width, rect.height).rounded())
            guard let plate, side > 0, side <= 1024, let scaled = outlines.scaledIfOutlined(image, side: side, on: plate),
                  let outline = outlines.outline(for: scaled, on: plate) else {
                canvas.draw(image, in: rect)
                return
            }
            composite(scaled, centeredIn: rect, outline: outline, color: textColor, icon: icon, on: canvas)
            return
        }
        guard let vector = assets.vector(icon) else { return }
        let side = Int(min(rect.width, rect.height).rounded())
        guard side > 0, side <= 1024 else { return }
        let tint: VectorIcon.Tint
        switch theme.iconColor {
        case .text: tint = vector.symbolic ? .color(textColor) : .original
        case .original: tint = .original
        case .fixed(let color): tint = .color(color)
        }
        guard let image = vector.image(side: side, tint: tint) else { return }
        composite(image, centeredIn: rect, outline: plate.flatMap { outlines.outline(for: image, on: $0) }, color: textColor, icon: icon, on: canvas)
    }

    /// `image` placed on whole pixels at the middle of `rect`, over its `outline` in `color` if it has one.
    private func composite(_ image: PixelBuffer, centeredIn rect: Rect, outline: (coverage: [UInt8], radius: Int)?, color: Color,
                           icon: String, on canvas: Canvas) {
        let x = Int((rect.midX - Double(image.width) / 2).rounded()), y = Int((rect.midY - Double(image.height) / 2).rounded())
        if let outline {
            canvas.blend(coverage: outline.coverage, width: image.width + 2 * outline.radius, height: image.height + 2 * outline.radius,
                         x: x - outline.radius, y: y - outline.radius, color: color)
            layoutReport?.outlinedIcons.insert(icon)
        }
        canvas.composite(image, x: x, y: y)
    }

    /// Title bar height: the title text plus a margin, at least the back button.
    public var headerHeight: Double { headerHeight(textScale: textScale) }

    /// The title bar's height at `scale` instead of the theme's `text_scale` (a layout compares
    /// itself with the one text at scale 1 would have).
    public func headerHeight(textScale scale: Double) -> Double { (theme.titleSize * scale * Double(height) * 1.6).rounded() }

    /// The back button, shown on screens below the home screen: top left, or top right on a
    /// right-to-left screen. A control like the items: its word is drawn at their size
    /// (`itemSize`; never larger than the title's), so it never outweighs the title beside it.
    public func backButton(reading: ReadingDirection, itemSize: Double = .infinity) -> Rect {
        backButton(reading: reading, textScale: textScale, itemSize: itemSize)
    }

    func backButton(reading: ReadingDirection, textScale scale: Double, itemSize: Double) -> Rect {
        let header = headerHeight(textScale: scale)
        let h = header * 0.7
        // As wide as its word needs ("Zurück", "Retour"), at least a thumb's width, at most a third of the screen.
        let word = font.measure(backButtonText, size: backButtonTextSize(textScale: scale, itemSize: itemSize))
        let w = Swift.max(h * 1.8, Swift.min(word + h * 0.9, Double(width) / 3))
        return Rect(x: reading == .rightToLeft ? Double(width) - h * 0.3 - w : h * 0.3, y: (header - h) / 2, width: w, height: h)
    }

    func backButtonTextSize(textScale scale: Double, itemSize: Double) -> Double {
        let titleLike = headerHeight(textScale: scale) / 1.6 * 0.8
        return itemSize.isFinite && itemSize > 0 ? Swift.min(titleLike, Swift.max(itemSize, FittedLabel.legibleFloor)) : titleLike
    }

    /// The title's free span at `scale`: from the margin (or the back button) to the other margin.
    func titleSpan(showsBack: Bool, reading: ReadingDirection, textScale scale: Double, itemSize: Double) -> (start: Double, end: Double) {
        let margin = headerHeight(textScale: scale) * 0.3
        var start = margin, end = Double(width) - margin
        if showsBack {
            let b = backButton(reading: reading, textScale: scale, itemSize: itemSize)
            if reading == .rightToLeft { end = b.minX - margin } else { start = b.maxX + margin }
        }
        return (start, end)
    }

    /// "‹" is a mirrored character: on a right-to-left screen it is drawn as "›".
    private var backButtonText: String { "‹ " + theme.backLabel }

    /// Draws the background, the title and, if `showsBack`, the back button: the static part of a
    /// screen, mirrored on a right-to-left screen.
    /// `levelBelow`: the size of the screen's next text level (section headers, else items): the
    /// title is never drawn smaller; a title that would have to be is shortened (and warned about).
    /// Returns the title's drawn size (nil: no title).
    @discardableResult
    public func drawChrome(into target: PixelBuffer, background: BackgroundConfig, title: String?, showsBack: Bool,
                           reading: ReadingDirection = .leftToRight, levelBelow: Double = 0) -> Double? {
        let canvas = Canvas(target)
        do {
            var image: PixelBuffer?
            if background.pattern == .image, let path = background.image { image = icon(path) }
            try background.makeTile(forHeight: height, image: image).fill(canvas)
        } catch {
            canvas.clear(background.background)
        }
        // The title heads the screen: at least the next level's size while the header bar holds it.
        let below = levelBelow.isFinite ? max(0, levelBelow) : 0
        let size = max(titleTextSize, min(below, headerHeight / 1.3))
        let screenDirection = TextDirection(reading)
        let (start, end) = titleSpan(showsBack: showsBack, reading: reading, textScale: textScale, itemSize: below)
        if showsBack {
            let b = backButton(reading: reading, itemSize: below)
            let plate = theme.plateColors(.normal)
            canvas.fill(b, radii: CornerRadii(all: b.height / 2), color: plate.fill, opacity: plate.opacity)
            // The word centred on the button by its own line (it is the rows' size, not the title's).
            let backSize = backButtonTextSize(textScale: textScale, itemSize: below)
            let word = font.lineMetrics(size: backSize)
            canvas.drawText(backButtonText, font: font, size: backSize, at: Point(x: b.midX, y: b.midY + (word.ascent - word.descent) / 2),
                            color: plate.text, alignment: .center, maxWidth: b.width - 8, direction: screenDirection)
            layoutReport?.back = .init(text: backButtonText, rect: b, fontSize: backSize,
                                       shortened: font.measure(backButtonText, size: backSize) > b.width - 8)
        }
        if let title, !title.isEmpty {
            // Larger text never makes the title smaller than text_scale 1 draws it, unless it would
            // be cut at that size (a whole word before a large one).
            let one = titleSpan(showsBack: showsBack, reading: reading, textScale: 1, itemSize: below)
            var atOne = textScale > 1 ? FittedLabel(title, font: font, size: theme.titleSize * Double(height), maxWidth: one.end - one.start).size : 0
            if atOne > 0, font.measure(title, size: atOne) > end - start { atOne = 0 }
            let fitted = FittedLabel(title, font: font, size: max(size, atOne), maxWidth: end - start,
                                     floor: max(FittedLabel.legibleFloor, min(below, size), atOne))
            // A title sits at the screen's reading start: the right on a right-to-left screen.
            let m = font.lineMetrics(size: fitted.size)
            let lineHeight = m.ascent + m.descent
            if fitted.shortened, 2 * lineHeight <= headerHeight * 0.95 {
                // Too long for one line at the level below's size: two lines, if the bar holds them.
                let lines = SidePanel.wrap(title, font: font, size: fitted.size, width: end - start, maxLines: 2)
                if lines.count == 2 {
                    let top = headerHeight / 2 - lineHeight
                    var widest = 0.0
                    for (n, line) in lines.enumerated() {
                        let width = font.measure(line, size: fitted.size)
                        widest = max(widest, width)
                        canvas.drawText(line, font: font, size: fitted.size,
                                        at: Point(x: reading == .rightToLeft ? end - width : start, y: top + Double(n) * lineHeight + m.ascent),
                                        color: theme.title, direction: screenDirection)
                    }
                    let whole = lines.joined(separator: " ") == title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    layoutReport?.title = .init(text: title, rect: Rect(x: reading == .rightToLeft ? end - widest : start, y: top, width: widest, height: 2 * lineHeight),
                                                fontSize: fitted.size, shortened: !whole)
                    return fitted.size
                }
            }
            let x = reading == .rightToLeft ? end - fitted.width : start
            let baseline = headerHeight / 2 + (m.ascent - m.descent) / 2
            canvas.drawText(fitted.text, font: font, size: fitted.size, at: Point(x: x, y: baseline), color: theme.title,
                            direction: screenDirection)
            layoutReport?.title = .init(text: title, rect: LayoutReport.textRect(of: fitted, at: Point(x: x, y: baseline), font: font),
                                        fontSize: fitted.size, shortened: fitted.shortened)
            return fitted.size
        }
        return nil
    }

    /// A row: rounded rectangle with `corners` rounded, optional icon, label, in the colours of its
    /// `state` (the selected one also outlined).
    /// A landscape row puts the icon left of the label; a `tile` (a horizontal arc's) stacks the
    /// icon over a label sized to fit the tile's width. `iconColumn`: the screen has icons, so
    /// every row keeps their column and labels start in line. `index` (nil: a row only partly
    /// shown), `selected` (default: the state says) and a list's `column` are for the layout report.
    public func drawRow(on canvas: Canvas, frame r: Rect, corners: Corners = .all, label: String, icon: String?,
                        state: PlateState, textSize: Double, transform: AffineTransform = .identity, reading: ReadingDirection = .leftToRight,
                        iconColumn: Bool = false, tile: Bool = false, index: Int? = nil, selected: Bool? = nil, column: Int? = nil) {
        let radius = theme.cornerRadius * min(r.height, r.width)
        let rounded = RoundedRect(rect: r, radius: radius, corners: corners)
        let colors = theme.plateColors(state)
        let outlined = state == .selected && theme.highlight != colors.fill
        if transform.isIdentity {
            canvas.fill(rounded, color: colors.fill, opacity: colors.opacity, cache: plates)
            if outlined { canvas.stroke(rounded, width: theme.highlightWidth, color: theme.highlight, cache: plates) }
        } else {
            // Turned plates are drawn plainly: a recording holds one orientation.
            let shape = Path.roundedRect(rounded)
            canvas.fill(shape, color: colors.fill, opacity: colors.opacity, transform: transform)
            if outlined { canvas.stroke(shape, width: theme.highlightWidth, color: theme.highlight, transform: transform) }
        }
        let text = drawRowContents(on: canvas, frame: r, label: label, icon: icon, color: colors.text, textSize: textSize,
                                   transform: transform, reading: reading, iconColumn: iconColumn, tile: tile, plate: colors.fill)
        if let report = layoutReport, let index {
            report.items.append(.init(index: index, label: label, rect: r, textRect: text.rect, fontSize: text.size,
                                      shortened: text.shortened, selected: selected ?? (state == .selected), column: column, lines: text.lines,
                                      value: valueRect(in: text, reading: reading)))
        }
    }

    /// Where the live value lies in a one-line label as drawn (the text before it measured from
    /// the reading start).
    private func valueRect(in text: RowText, reading: ReadingDirection) -> LayoutReport.Value? {
        guard text.lines == 1, let (before, value) = LiveLabel.splitAtValue(text.text) else { return nil }
        let lead = font.measure(String(before), size: text.size), width = font.measure(String(value), size: text.size)
        let x = reading == .rightToLeft ? text.rect.maxX - lead - width : text.rect.minX + lead
        return .init(text: LiveLabel.plain(String(value)).trimmingWhitespace,
                     rect: Rect(x: x, y: text.rect.minY, width: width, height: text.rect.height))
    }

    /// The widest of `items`' labels at `size`, in pixels: what arc rows and list columns are
    /// sized from (each with room for its live value at its widest).
    func widestLabel(of items: [MenuItem], size: Double) -> Double {
        items.reduce(0) { max($0, font.measure($1.measuredLabel, size: size)) }
    }

    /// The most of a row's pitch a label fills (a list's row height, an arc's pitch): a larger
    /// `text_size × text_scale` makes the rows taller instead.
    public static let fullestText = 0.6

    /// The widest row `items` need so that no label is shortened: each label at the legible floor
    /// (or `size`, if smaller), its icon if it has one, and half the padding at each end.
    /// `floor`: the legible floor, or a higher one (large text's).
    func widestAtFloor(of items: [MenuItem], size: Double, rowHeight: Double, floor: Double = FittedLabel.legibleFloor) -> Double {
        let padding = Self.rowPadding(width: 4 * rowHeight, height: rowHeight) / 2
        return items.reduce(0) { widest, item in
            let icon = item.icon == nil ? 0 : rowHeight * Self.rowIconScale + padding
            return max(widest, font.measure(item.measuredLabel, size: min(size, floor)) + icon + 2 * padding)
        }
    }

    /// The one size all of `items`' labels are drawn at on a screen (a level of its type scale):
    /// `wanted`, or less so that the longest fits its `room` on one line, but never below the
    /// legible floor (a label that needs less is then broken or shortened, not shrunk alone).
    /// Rows of one screen then read as one list: no row smaller than its neighbours.
    public func sharedSize(of items: [MenuItem], wanted: Double, room: (MenuItem) -> Double) -> Double {
        guard wanted.isFinite, wanted > 0 else { return FittedLabel.legibleFloor }
        let floor = min(wanted, FittedLabel.legibleFloor)
        // Widths grow about linearly with the size: each label's ratio of room to width at `wanted`.
        var tightest: [(ratio: Double, label: String, room: Double)] = []
        for item in items {
            let label = item.measuredLabel
            let natural = font.measure(label, size: wanted)
            let r = room(item)
            guard natural > r else { continue }
            tightest.append((r / max(natural, 1), label, r))
        }
        guard !tightest.isEmpty else { return wanted }
        tightest.sort { $0.ratio < $1.ratio }
        var size = max(floor, wanted * tightest[0].ratio)
        // Hinting makes the last pixel uncertain: the tightest few are measured at the size, which
        // steps down a little until they fit (or the floor is reached).
        for (_, label, r) in tightest.prefix(8) {
            var tries = 0
            while size > floor, font.measure(label, size: size) > r, tries < 8 {
                size = max(floor, size * 0.98)
                tries += 1
            }
        }
        return size
    }

    /// What a landscape row keeps free beside its label: the padding at both ends and, with
    /// `iconColumn`, the icon and its gap (the arc sizes its rows from it).
    public func rowInsets(height: Double, width: Double, iconColumn: Bool) -> Double {
        let padding = Self.rowPadding(width: width, height: height)
        return 2 * padding + (iconColumn ? height * Self.rowIconScale + padding / 2 : 0)
    }

    static func rowPadding(width: Double, height: Double) -> Double { 0.1 * min(width, height * 4) }
    /// A row's icon side, as a fraction of its height.
    static let rowIconScale = 0.6

    /// A row's label as drawn: where its text lies (every line), its size, whether it was shortened.
    public struct RowText {
        /// The text as drawn on one line (the first line of two).
        public var text: String
        public var rect: Rect
        public var size: Double
        public var shortened: Bool
        public var lines: Int
    }

    /// A row's icon and label in `color`, without its plate: what `drawRow` puts on the plate, and
    /// what the list draws again over its gliding selection plate. The label is drawn at
    /// `textSize` (the screen's one size for its items), never shrunk alone: one too long for the
    /// row breaks onto two lines where the row is tall enough, and only then is shortened. The
    /// screen's direction is every label's base direction: on a right-to-left screen the icon is
    /// at the right and the text ends at the right padding, whatever script the label starts with.
    @discardableResult
    public func drawRowContents(on canvas: Canvas, frame r: Rect, label: String, icon: String?, color: Color, textSize: Double,
                                transform: AffineTransform = .identity, reading: ReadingDirection = .leftToRight, iconColumn: Bool = false,
                                tile: Bool = false, plate: Color? = nil) -> RowText {
        if tile, transform.isIdentity {
            return drawTileContents(on: canvas, frame: r, label: label, icon: icon, color: color, textSize: textSize, plate: plate)
        }
        let direction = TextDirection(reading)
        let rtl = reading == .rightToLeft
        let space = rowSpace(frame: r, label: label, icon: transform.isIdentity ? icon : nil, textSize: textSize,
                             iconColumn: transform.isIdentity && iconColumn)
        let padding = space.padding
        // The text's span, from its reading start (left, or right in RTL) to the far padding.
        var near = rtl ? r.maxX - padding : r.minX + padding
        let far = rtl ? r.minX + padding : r.maxX - padding
        let side = space.side
        if let key = space.icon {
            drawIcon(key, in: Rect(x: rtl ? near - side : near, y: r.midY - side / 2, width: side, height: side), textColor: color,
                     plate: plate, on: canvas)
        }
        if space.gap { near += (side + padding / 2) * (rtl ? -1 : 1) }
        let room = abs(far - near)
        let metrics = font.lineMetrics(size: textSize)
        let lineHeight = metrics.ascent + metrics.descent
        let fitted = FittedLabel(label, font: font, size: textSize, maxWidth: room, floor: textSize)
        if fitted.shortened, transform.isIdentity, 2 * lineHeight <= r.height * 0.94 {
            let lines = SidePanel.wrap(label, font: font, size: textSize, width: room, maxLines: 2)
            if lines.count == 2 {
                let top = r.midY - lineHeight
                var widest = 0.0
                for (n, line) in lines.enumerated() {
                    let width = font.measure(line, size: textSize)
                    widest = max(widest, width)
                    let baseline = top + Double(n) * lineHeight + metrics.ascent
                    canvas.drawText(line, font: font, size: textSize, at: Point(x: rtl ? near - width : near, y: baseline), color: color,
                                    direction: direction, cache: labels)
                }
                let whole = lines.joined(separator: " ") == label.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                // (`lines.first`, not `lines[0]`: Swift 6.3.1's optimiser leaked the subscript's String here
                // when the result was discarded, and crashed.)
                return RowText(text: lines.first ?? label, rect: Rect(x: rtl ? near - widest : near, y: top, width: widest, height: 2 * lineHeight),
                               size: textSize, shortened: !whole, lines: 2)
            }
        }
        let baseline = r.midY + (metrics.ascent - metrics.descent) / 2
        let start = Point(x: rtl ? near - fitted.width : near, y: baseline)
        canvas.drawText(fitted.text, font: font, size: fitted.size, at: transform.apply(start), color: color,
                        rotation: transform.isIdentity ? .zero : Angle(radians: .atan2(y: transform.b, x: transform.a)),
                        direction: direction, cache: labels)
        return RowText(text: fitted.text, rect: LayoutReport.textRect(of: fitted, at: start, font: font), size: fitted.size, shortened: fitted.shortened, lines: 1)
    }

    /// How a landscape row shares its width. Text comes before decoration: a row without an icon
    /// keeps the screen's icon column (labels start in line) only while its label fits at full
    /// size beside it, the padding halves before a label is shrunk, and an icon beside a label
    /// that must shrink shrinks with it (`side`: its side), down to `iconToText` times the size
    /// the label is shrunk to, so that a tall row's icon does not take the room of a long label.
    func rowSpace(frame r: Rect, label: String, icon: String?, textSize: Double, iconColumn: Bool)
        -> (padding: Double, gap: Bool, icon: String?, side: Double) {
        let padding = Self.rowPadding(width: r.width, height: r.height)
        let image = icon.flatMap { hasIcon($0) ? $0 : nil }
        let side = r.height * Self.rowIconScale
        let natural = font.measure(label, size: textSize)
        var gap = iconColumn || icon != nil
        func room(_ padding: Double) -> Double { r.width - 2 * padding - (gap ? side + padding / 2 : 0) }
        if natural > room(padding), image == nil { gap = false }
        guard natural > room(padding) else { return (padding, gap, image, side) }
        let half = padding / 2
        guard image != nil, natural > room(half), natural > 0 else { return (half, gap, image, side) }
        // The label's size when it and an icon of `iconToText` times its size share the room.
        let shared = r.width - 2 * half - half / 2
        let size = Swift.max(FittedLabel.legibleFloor, shared * textSize / (natural + Self.iconToText * textSize))
        return (half, gap, image, Swift.min(side, Self.iconToText * size))
    }

    /// The largest icon beside a shrunk label, as a multiple of the label's size (a row at rest
    /// has an icon of 0.6 and a label of about 0.4 of its height).
    static let iconToText = 1.5

    private func drawTileContents(on canvas: Canvas, frame r: Rect, label: String, icon: String?, color: Color,
                                  textSize: Double, plate: Color?) -> RowText {
        let padding = r.width * Self.tilePadding
        let room = r.width - 2 * padding
        // At the screen's one tile size (the arc sizes it so the longest fits), shortened past it.
        let fitted = FittedLabel(label, font: font, size: textSize, maxWidth: room, floor: textSize)
        let metrics = font.lineMetrics(size: fitted.size)
        var baseline = r.midY + (metrics.ascent - metrics.descent) / 2
        if let icon, hasIcon(icon) {
            let side = min(room, r.height * 0.4)
            let top = r.minY + (r.height - side - metrics.ascent - padding) / 2
            drawIcon(icon, in: Rect(x: r.midX - side / 2, y: top, width: side, height: side), textColor: color, plate: plate, on: canvas)
            baseline = top + side + padding + metrics.ascent
        }
        let start = Point(x: r.midX - fitted.width / 2, y: baseline)
        canvas.drawText(fitted.text, font: font, size: fitted.size, at: start, color: color, cache: labels)
        return RowText(text: fitted.text, rect: LayoutReport.textRect(of: fitted, at: start, font: font), size: fitted.size, shortened: fitted.shortened, lines: 1)
    }

    /// A tile's padding at each side, as a fraction of its width.
    static let tilePadding = 0.08
}
