import Geometry
import CFriBidi

/// Which way a paragraph runs: from its first strong character (`auto`), or forced.
public enum TextDirection: String, Sendable, Hashable {
    case auto, leftToRight = "ltr", rightToLeft = "rtl"

    /// A screen's reading direction as the direction of its text.
    public init(_ reading: ReadingDirection) {
        self = reading == .rightToLeft ? .rightToLeft : .leftToRight
    }
}

/// The Unicode bidirectional algorithm (UAX #9) through FriBidi, for one line of text.
enum Bidi {
    /// The resolved embedding level of every code point of `text` (even: left to right, odd:
    /// right to left), and whether the paragraph itself runs right to left. With `auto`, the
    /// direction comes from the first strong character, and is left to right when there is none.
    static func levels(_ text: [UInt32], direction: TextDirection) -> (levels: [UInt8], rightToLeft: Bool) {
        let n = text.count
        guard n > 0 else { return ([], direction == .rightToLeft) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        var base: FriBidiParType
        switch direction {
        case .auto: base = kiosk_fribidi_par_auto()
        case .leftToRight: base = kiosk_fribidi_par_ltr()
        case .rightToLeft: base = kiosk_fribidi_par_rtl()
        }
        let safe = withinFriBidisDepth(text)
        let ok = safe.withUnsafeBufferPointer { str -> Bool in
            fribidi_get_bidi_types(str.baseAddress, FriBidiStrIndex(n), &types)
            fribidi_get_bracket_types(str.baseAddress, FriBidiStrIndex(n), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels) != 0
        }
        let rtl = base == kiosk_fribidi_par_rtl()
        guard ok else { return ([UInt8](repeating: rtl ? 1 : 0, count: n), rtl) }
        var result = levels.map { UInt8(clamping: Int($0)) }
        // Rule L1: whitespace (and isolate/format marks) at the end of the line takes the paragraph's level.
        var i = n - 1
        while i >= 0, let s = Unicode.Scalar(text[i]), s.properties.isWhitespace || s.properties.isDefaultIgnorableCodePoint {
            result[i] = rtl ? 1 : 0
            i -= 1
        }
        return (result, rtl)
    }

    /// Explicit embeddings, overrides and isolates that open a level.
    static func isInitiator(_ c: UInt32) -> Bool { (0x202A...0x202E).contains(c) && c != 0x202C || (0x2066...0x2068).contains(c) }
    static func isExplicitControl(_ c: UInt32) -> Bool { (0x202A...0x202E).contains(c) || (0x2066...0x2069).contains(c) }
    /// More initiators than this and the text loses its explicit controls for the bidi algorithm.
    static let maximumInitiators = 60

    /// `text`, or, when it has more than `maximumInitiators` explicit initiators, `text` with every
    /// explicit control replaced by U+200B (class BN, which the algorithm skips), index for index.
    /// FriBidi 1.0.8 (Debian 12) writes outside its stack when initiators overflow its depth limit
    /// of 125 and unmatched PDIs follow (fixed upstream in 1.0.11); at least 62 initiators are needed
    /// to reach that limit, and no real label has a tenth of them, so such a text is a hostile one.
    static func withinFriBidisDepth(_ text: [UInt32]) -> [UInt32] {
        var initiators = 0
        for c in text where isInitiator(c) { initiators += 1 }
        guard initiators > maximumInitiators else { return text }
        return text.map { isExplicitControl($0) ? 0x200B : $0 }
    }

    /// The direction of `text`'s first strong character, or nil when it has none (digits,
    /// punctuation, emoji only).
    static func firstStrongDirection(_ text: [UInt32]) -> TextDirection? {
        switch text.withUnsafeBufferPointer({ kiosk_fribidi_first_strong($0.baseAddress, FriBidiStrIndex($0.count)) }) {
        case 1: return .rightToLeft
        case 0: return .leftToRight
        default: return nil
        }
    }

    /// The visual order of runs given their levels (rule L2): from the highest level down to the
    /// lowest odd one, every maximal sequence of runs at that level or higher is reversed.
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 & 1 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count, levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
