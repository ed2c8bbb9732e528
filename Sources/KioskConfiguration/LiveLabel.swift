/// How a label carries its live value: in place of `{value}`, or after it when the label has none.
/// The value goes in as a directional isolate (U+2068 … U+2069, which draw nothing): Unicode's way
/// to insert text of unknown direction (a number into an Arabic label, a word into a Hebrew one),
/// and the mark that tells label fitting which part must not be cut.
public enum LiveLabel {
    public static let placeholder = "{value}"
    /// Marks a value that failed or is out of date: a symbol, so that it is seen without colour.
    public static let staleMark = "⚠"
    /// Shown for a value never read.
    public static let missing = "—"
    /// FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE around an inserted value.
    public static let isolateStart: Character = "\u{2068}"
    public static let isolateEnd: Character = "\u{2069}"

    /// What a layout keeps room for where a value stands: a stale mark and a four-digit negative
    /// number as its `format` writes it (six digits and a decimal when it has none), and the
    /// unit. A longer reading is fitted into that room (the words before it shortened first),
    /// never given more.
    public static func reservedValue(format: ValueFormat?, unit: String?) -> String {
        staleMark + " " + (format?.format(-8888.8888) ?? "000000.0") + (unit.map { " " + $0 } ?? "")
    }

    public static func compose(_ label: String, value: String) -> String {
        let isolated = String(isolateStart) + plain(value) + String(isolateEnd)
        if label.contains(placeholder) { return label.replacing(placeholder, with: isolated) }
        return label + "  " + isolated
    }

    /// `label` without the isolate marks: for readers outside the drawing (logs, status, speech).
    public static func plain(_ label: String) -> String {
        guard label.contains(where: { $0 == isolateStart || $0 == isolateEnd }) else { return label }
        return String(label.filter { $0 != isolateStart && $0 != isolateEnd })
    }

    /// `label` split around its last inserted value: the text before it (without the spaces that
    /// lead to it), and the value with those spaces and whatever follows; nil without a value.
    public static func splitAtValue(_ label: String) -> (before: Substring, value: Substring)? {
        guard let start = label.lastIndex(of: isolateStart), label[start...].contains(isolateEnd) else { return nil }
        var cut = start
        while cut > label.startIndex, label[label.index(before: cut)] == " " { cut = label.index(before: cut) }
        return (label[..<cut], label[cut...])
    }
}
