/// The built-in background patterns by name, as `kiosk demo --pattern` and reference scene S1 choose them.
public enum ScenePattern: String, Sendable, CaseIterable {
    case checker, cross, circles
}

extension PatternTile {
    /// The built-in cell that `pattern` names, `cell` pixels square, in its default colours.
    public static func named(_ pattern: ScenePattern, cell: Int) throws(RasterError) -> PatternTile {
        switch pattern {
        case .checker: return try .checker(cell: cell)
        case .cross: return try .cross(cell: cell)
        case .circles: return try .circles(cell: cell)
        }
    }
}
