import Text

/// A label fitted into a width: at the size the theme asks for when it fits; else shrunk, down to
/// `minimumScale` of that size; only then shortened with an ellipsis. A reader takes a slightly
/// smaller word over a cut one, but text much smaller than its neighbours reads as a mistake.
public struct FittedLabel: Equatable, Sendable {
    /// The text as drawn: the label, or the label shortened.
    public var text: String
    /// The size it is drawn at, in pixels.
    public var size: Double
    /// Its drawn width, in pixels.
    public var width: Double
    public var shortened: Bool

    /// The smallest size a label shrinks to, as a fraction of the theme's size.
    public static let minimumScale = 0.75

    public init(_ label: String, font: Font, size wanted: Double, maxWidth: Double, minimumScale: Double = Self.minimumScale) {
        let room = maxWidth.isFinite ? Swift.max(0, maxWidth) : 0
        let natural = font.measure(label, size: wanted)
        if natural <= room {
            self.init(text: label, size: wanted, width: natural, shortened: false)
            return
        }
        // Widths grow about linearly with the size; hinting makes the last pixel uncertain, so a
        // size is confirmed by measuring it, and stepped down a little when it misses.
        let smallest = wanted * Swift.min(1, Swift.max(0, minimumScale))
        var size = Swift.max(smallest, wanted * room / Swift.max(natural, 1))
        for _ in 0..<4 {
            let width = font.measure(label, size: size)
            if width <= room {
                self.init(text: label, size: size, width: width, shortened: false)
                return
            }
            guard size > smallest else { break }
            size = Swift.max(smallest, size * 0.97)
        }
        let text = font.truncated(label, size: smallest, maxWidth: room)
        self.init(text: text, size: smallest, width: font.measure(text, size: smallest), shortened: text != label)
    }

    init(text: String, size: Double, width: Double, shortened: Bool) {
        self.text = text
        self.size = size
        self.width = width
        self.shortened = shortened
    }
}
