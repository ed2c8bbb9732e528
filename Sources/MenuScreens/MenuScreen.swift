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
    public func drawIcon(_ icon: String, in rect: Rect, textColor: Color, on canvas: Canvas) {
        if let image = assets.image(icon) {
            canvas.draw(image, in: rect)
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
        canvas.composite(image, x: Int((rect.midX - Double(side) / 2).rounded()), y: Int((rect.midY - Double(side) / 2).rounded()))
    }

    /// Title bar height: the title text plus a margin, at least the back button.
    public var headerHeight: Double { (titleTextSize * 1.6).rounded() }

    /// The back button, shown on screens below the home screen: top left, or top right on a
    /// right-to-left screen.
    public func backButton(reading: ReadingDirection) -> Rect {
        let h = headerHeight * 0.7
        // As wide as its word needs ("Zurück", "Retour"), at least a thumb's width, at most a third of the screen.
        let word = font.measure(backButtonText, size: backButtonTextSize)
        let w = Swift.max(h * 2.6, Swift.min(word + h * 0.9, Double(width) / 3))
        return Rect(x: reading == .rightToLeft ? Double(width) - h * 0.3 - w : h * 0.3, y: (headerHeight - h) / 2, width: w, height: h)
    }

    /// "‹" is a mirrored character: on a right-to-left screen it is drawn as "›".
    private var backButtonText: String { "‹ " + theme.backLabel }
    private var backButtonTextSize: Double { titleTextSize * 0.8 }

    /// Draws the background, the title and, if `showsBack`, the back button: the static part of a
    /// screen, mirrored on a right-to-left screen.
    public func drawChrome(into target: PixelBuffer, background: BackgroundConfig, title: String?, showsBack: Bool,
                           reading: ReadingDirection = .leftToRight) {
        let canvas = Canvas(target)
        do {
            var image: PixelBuffer?
            if background.pattern == .image, let path = background.image { image = icon(path) }
            try background.makeTile(forHeight: height, image: image).fill(canvas)
        } catch {
            canvas.clear(background.background)
        }
        let size = titleTextSize
        let metrics = font.lineMetrics(size: size)
        let baseline = headerHeight / 2 + (metrics.ascent - metrics.descent) / 2
        let screenDirection = TextDirection(reading)
        // The title's free span: from the margin (or the back button) to the other margin.
        var start = headerHeight * 0.3, end = Double(width) - headerHeight * 0.3
        if showsBack {
            let b = backButton(reading: reading)
            let plate = theme.plateColors(.normal)
            canvas.fill(b, radii: CornerRadii(all: b.height / 2), color: plate.fill, opacity: plate.opacity)
            canvas.drawText(backButtonText, font: font, size: backButtonTextSize,
                            at: Point(x: b.midX, y: b.midY + (metrics.ascent - metrics.descent) * 0.4),
                            color: plate.text, alignment: .center, maxWidth: b.width - 8, direction: screenDirection)
            if reading == .rightToLeft { end = b.minX - headerHeight * 0.3 } else { start = b.maxX + headerHeight * 0.3 }
            layoutReport?.back = b
        }
        if let title, !title.isEmpty {
            let direction = font.direction(of: title, otherwise: screenDirection)
            let fitted = FittedLabel(title, font: font, size: size, maxWidth: end - start)
            // A title sits at the screen's reading start: the right on a right-to-left screen.
            let x = reading == .rightToLeft ? end - fitted.width : start
            canvas.drawText(fitted.text, font: font, size: fitted.size, at: Point(x: x, y: baseline), color: theme.title,
                            direction: direction)
            layoutReport?.title = .init(text: title, rect: LayoutReport.textRect(of: fitted, at: Point(x: x, y: baseline), font: font),
                                        fontSize: fitted.size, shortened: fitted.shortened)
        }
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
                                   transform: transform, reading: reading, iconColumn: iconColumn, tile: tile)
        if let report = layoutReport, let index {
            report.items.append(.init(index: index, label: label, rect: r,
                                      textRect: LayoutReport.textRect(of: text.fitted, at: text.origin, font: font),
                                      fontSize: text.fitted.size, shortened: text.fitted.shortened, selected: selected ?? (state == .selected),
                                      column: column))
        }
    }

    /// The widest of `items`' labels at `size`, in pixels: what arc rows and list columns are sized from.
    func widestLabel(of items: [MenuItem], size: Double) -> Double {
        items.reduce(0) { max($0, font.measure($1.label, size: size)) }
    }

    /// The most of a row's pitch a label fills (a list's row height, an arc's pitch): a larger
    /// `text_size × text_scale` makes the rows taller instead.
    public static let fullestText = 0.6

    /// The widest row `items` need so that no label is shortened: each label at the legible floor
    /// (or `size`, if smaller), its icon if it has one, and half the padding at each end.
    func widestAtFloor(of items: [MenuItem], size: Double, rowHeight: Double) -> Double {
        let padding = Self.rowPadding(width: 4 * rowHeight, height: rowHeight) / 2
        return items.reduce(0) { widest, item in
            let icon = item.icon == nil ? 0 : rowHeight * Self.rowIconScale + padding
            return max(widest, FittedLabel.widthAtFloor(item.label, font: font, size: size) + icon + 2 * padding)
        }
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

    /// A row's icon and label in `color`, without its plate: what `drawRow` puts on the plate, and
    /// what the list draws again over its gliding selection plate. A right-to-left label (or a
    /// neutral one on a right-to-left screen) is mirrored in its plate: icon at the right, text
    /// ending at the right padding. Returns the label as fitted and the left end of its baseline.
    @discardableResult
    public func drawRowContents(on canvas: Canvas, frame r: Rect, label: String, icon: String?, color: Color, textSize: Double,
                                transform: AffineTransform = .identity, reading: ReadingDirection = .leftToRight, iconColumn: Bool = false,
                                tile: Bool = false) -> (fitted: FittedLabel, origin: Point) {
        if tile, transform.isIdentity {
            return drawTileContents(on: canvas, frame: r, label: label, icon: icon, color: color, textSize: textSize)
        }
        let direction = font.direction(of: label, otherwise: TextDirection(reading))
        let rtl = direction == .rightToLeft
        let space = rowSpace(frame: r, label: label, icon: transform.isIdentity ? icon : nil, textSize: textSize,
                             iconColumn: transform.isIdentity && iconColumn)
        let padding = space.padding
        // The text's span, from its reading start (left, or right in RTL) to the far padding.
        var near = rtl ? r.maxX - padding : r.minX + padding
        let far = rtl ? r.minX + padding : r.maxX - padding
        let side = space.side
        if let key = space.icon {
            drawIcon(key, in: Rect(x: rtl ? near - side : near, y: r.midY - side / 2, width: side, height: side), textColor: color, on: canvas)
        }
        if space.gap { near += (side + padding / 2) * (rtl ? -1 : 1) }
        let fitted = FittedLabel(label, font: font, size: textSize, maxWidth: abs(far - near))
        let metrics = font.lineMetrics(size: fitted.size)
        let baseline = r.midY + (metrics.ascent - metrics.descent) / 2
        let start = Point(x: rtl ? near - fitted.width : near, y: baseline)
        canvas.drawText(fitted.text, font: font, size: fitted.size, at: transform.apply(start), color: color,
                        rotation: transform.isIdentity ? .zero : Angle(radians: .atan2(y: transform.b, x: transform.a)),
                        direction: direction, cache: labels)
        return (fitted, start)
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
                                  textSize: Double) -> (fitted: FittedLabel, origin: Point) {
        let padding = r.width * 0.08
        let room = r.width - 2 * padding
        // As large as the theme asks within a tile-sized cap, shrunk (then shortened) to the tile's width.
        let fitted = FittedLabel(label, font: font, size: min(textSize, r.height * 0.17 * textScale), maxWidth: room)
        let metrics = font.lineMetrics(size: fitted.size)
        var baseline = r.midY + (metrics.ascent - metrics.descent) / 2
        if let icon, hasIcon(icon) {
            let side = min(room, r.height * 0.4)
            let top = r.minY + (r.height - side - metrics.ascent - padding) / 2
            drawIcon(icon, in: Rect(x: r.midX - side / 2, y: top, width: side, height: side), textColor: color, on: canvas)
            baseline = top + side + padding + metrics.ascent
        }
        let start = Point(x: r.midX - fitted.width / 2, y: baseline)
        canvas.drawText(fitted.text, font: font, size: fitted.size, at: start, color: color, cache: labels)
        return (fitted, start)
    }
}
