/// How a label carries its live value: in place of `{value}`, or after it when the label has none.
public enum LiveLabel {
    public static let placeholder = "{value}"
    /// Marks a value that failed or is out of date: a symbol, so that it is seen without colour.
    public static let staleMark = "⚠"
    /// Shown for a value never read.
    public static let missing = "—"

    public static func compose(_ label: String, value: String) -> String {
        if label.contains(placeholder) { return label.replacing(placeholder, with: value) }
        return label + "  " + value
    }
}
