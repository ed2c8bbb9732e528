import Text
import KioskConfiguration

/// A label fitted into a width: at the size asked for when it fits; else shrunk, down to the
/// legible floor; only then shortened with an ellipsis. A reader takes a smaller word over a
/// cut one, and the floor is absolute (pixels, not a fraction of the theme's size): an author's
/// sizes are intentions, and a label is cut only where it could no longer be read whole.
public struct FittedLabel: Equatable, Sendable {
    /// The text as drawn: the label, or the label shortened.
    public var text: String
    /// The size it is drawn at, in pixels.
    public var size: Double
    /// Its drawn width, in pixels.
    public var width: Double
    public var shortened: Bool

    /// The smallest size a label shrinks to, in pixels (the em size): 14 px gives DejaVu Sans a
    /// lower case about 7 px high, the size of small print on a phone; on a 7-inch 800x480 panel
    /// (133 dpi) that is 2.7 mm per em, still read at arm's length. A label asked for at less is
    /// drawn at that size, never shrunk further.
    public static let legibleFloor = 14.0

    /// `floor`: the smallest size (default `legibleFloor`; the size asked for when it is smaller).
    public init(_ label: String, font: Font, size wanted: Double, maxWidth: Double, floor: Double = Self.legibleFloor) {
        let room = maxWidth.isFinite ? Swift.max(0, maxWidth) : 0
        let natural = font.measure(label, size: wanted)
        if natural <= room {
            self.init(text: label, size: wanted, width: natural, shortened: false)
            return
        }
        // Widths grow about linearly with the size; hinting makes the last pixel uncertain, so a
        // size is confirmed by measuring it, and stepped down a little when it misses.
        let smallest = Swift.min(wanted, floor.isFinite ? Swift.max(1, floor) : Self.legibleFloor)
        var size = Swift.max(smallest, wanted * room / Swift.max(natural, 1))
        for _ in 0..<6 {
            let width = font.measure(label, size: size)
            if width <= room {
                self.init(text: label, size: size, width: width, shortened: false)
                return
            }
            guard size > smallest else { break }
            size = Swift.max(smallest, size * 0.97)
        }
        let text = Self.shortened(label, font: font, size: smallest, maxWidth: room)
        self.init(text: text, size: smallest, width: font.measure(text, size: smallest), shortened: text != label)
    }

    /// `label` cut to `maxWidth`. A live value (`LiveLabel`) is what the reader looks for, so the
    /// words before it are cut first and the value stays whole while it fits on its own.
    static func shortened(_ label: String, font: Font, size: Double, maxWidth: Double) -> String {
        if let (before, value) = LiveLabel.splitAtValue(label), !before.isEmpty {
            let valueWidth = font.measure(String(value), size: size)
            if valueWidth < maxWidth {
                let head = font.truncated(String(before), size: size, maxWidth: maxWidth - valueWidth)
                if !head.isEmpty { return head + value }
            }
        }
        return font.truncated(label, size: size, maxWidth: maxWidth)
    }

    init(text: String, size: Double, width: Double, shortened: Bool) {
        self.text = text
        self.size = size
        self.width = width
        self.shortened = shortened
    }
}
