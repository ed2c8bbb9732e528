/// Which output to use: a connector name and a mode from the config, or the first connected
/// connector and its preferred mode.
public struct DisplayRequest: Hashable, Sendable {
    public var card: String?
    public var connector: String?
    public var mode: ModeRequest?

    public init(card: String? = nil, connector: String? = nil, mode: ModeRequest? = nil) {
        self.card = card
        self.connector = connector
        self.mode = mode
    }
}

/// `800x480` or `1920x1080@60`.
public struct ModeRequest: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refresh: Double?

    public init(width: Int, height: Int, refresh: Double? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    public init?(parsing text: String) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        let size = first.split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var hz: Double?
        if parts.count == 2 {
            guard let r = Double(parts[1]), r > 0 else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refresh: hz)
    }

    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0.formattedHz)" } ?? "") }
}

extension Double {
    package var formattedHz: String {
        let r = (self * 100).rounded() / 100
        return r == r.rounded() ? "\(Int(r))" : "\(r)"
    }
}
