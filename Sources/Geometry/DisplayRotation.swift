/// How the logical screen is turned on the physical panel (portrait panels and upside-down mounts).
/// The same transform maps drawing onto the panel and panel touches back into the layout.
public enum DisplayRotation: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// Parses 0, 90, 180 or 270 (degrees, clockwise).
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }
    public var description: String { "\(rawValue)°" }

    /// The logical (layout) size for a panel of the given physical size.
    public func logicalSize(forPanel panel: Size) -> Size {
        self == .none || self == .half ? panel : panel.transposed
    }

    /// Maps logical coordinates onto the panel, rotating clockwise by `degrees`.
    /// Works on continuous coordinates: pixel *areas* map onto pixel areas, so pixel (x, y)'s
    /// centre lands on a panel pixel centre.
    public func logicalToPanel(panel: Size) -> AffineTransform {
        switch self {
        case .none:
            return .identity
        case .quarter:  // logical (x, y) -> panel (W - y, x)
            return AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: panel.width, ty: 0)
        case .half:  // -> (W - x, H - y)
            return AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: panel.width, ty: panel.height)
        case .threeQuarters:  // -> (y, H - x)
            return AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: panel.height)
        }
    }

    /// Maps a panel point (for example a touch) to logical coordinates.
    public func panelToLogical(panel: Size) -> AffineTransform {
        // Rotations are always invertible.
        logicalToPanel(panel: panel).inverted!
    }
}
