import Raster

/// The WCAG 2.x contrast of every label a theme draws against what it is drawn on, over one
/// background: what `kiosk check-config` warns about below `minimum` (WCAG AA for normal text).
///
/// A translucent plate (or colour) is composited over the background the way the rasterizer blends,
/// and the text over that plate. A pattern is judged over each of its colours and the worst counts
/// (anti-aliased edges between them are ignored). An image tile is judged over its ground colour
/// only: its own pixels could be anything, and warning about every image would say nothing.
public struct ThemeContrast: Sendable, Equatable {
    /// WCAG 2.x level AA for normal-size text.
    public static let minimum = 4.5

    /// One label colour on one ground, by the theme keys that set them (`theme.text`, `theme.row`).
    public struct Pair: Sendable, Equatable {
        public var text: String
        public var ground: String
        /// The lowest contrast over the background's colours.
        public var ratio: Double
    }

    public var pairs: [Pair]

    public init(theme: ThemeConfig, background: BackgroundConfig) {
        let backdrops = Self.backdrops(of: background)
        func worst(_ text: Color, on ground: Color, opacity: Double = 1) -> Double {
            backdrops.map { backdrop in
                let plate = ground.composited(over: backdrop, opacity: opacity)
                return Color.contrastRatio(text.composited(over: plate), plate)
            }.min() ?? 1
        }
        pairs = [
            Pair(text: "theme.text", ground: "theme.row", ratio: worst(theme.text, on: theme.row, opacity: theme.rowOpacity)),
            Pair(text: "theme.selected_text", ground: "theme.selected_row", ratio: worst(theme.selectedText, on: theme.selectedRow)),
            Pair(text: "theme.text", ground: "theme.pressed_row", ratio: worst(theme.text, on: theme.pressedRow)),
            Pair(text: "theme.title", ground: "background", ratio: worst(theme.title, on: .transparent)),
            Pair(text: "theme.banner_text", ground: "theme.banner", ratio: worst(theme.bannerText, on: theme.banner)),
        ]
    }

    /// The pairs below `minimum`.
    public var failing: [Pair] { pairs.filter { $0.ratio < Self.minimum } }

    /// The opaque colours text can end up over on `background` (a colour with alpha is taken over
    /// black, what an empty frame shows).
    static func backdrops(of background: BackgroundConfig) -> [Color] {
        var colors = [background.background]
        switch background.pattern {
        case .solid, .image: break
        case .checker, .circles: colors.append(background.foreground)
        case .cross: colors += [background.foreground, background.line]
        }
        return colors.map { $0.composited(over: .black) }
    }

    /// `3.21:1`, rounded down so that a ratio just below the minimum never reads as reaching it.
    public static func describe(_ ratio: Double) -> String {
        let hundredths = Int((ratio * 100).rounded(.down))
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction):1"
    }
}
