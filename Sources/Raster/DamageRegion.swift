import Geometry

/// The parts of a frame that changed, kept as a few rectangles so that a frame copies only what moved.
///
/// Adding a rectangle merges it with any it overlaps or touches when the union wastes little area;
/// beyond `maximumCount` rectangles, the pair whose union adds the least area is merged.
public struct DamageRegion: Sendable {
    public private(set) var rects: [PixelRect] = []
    public let maximumCount: Int
    /// Rects are merged when their union is at most this much larger than the two together.
    public let mergeSlack: Double

    public init(maximumCount: Int = 4, mergeSlack: Double = 1.25) {
        self.maximumCount = Swift.max(1, maximumCount)
        self.mergeSlack = mergeSlack
    }

    public var isEmpty: Bool { rects.isEmpty }
    public var bounds: PixelRect { rects.reduce(PixelRect.zero) { $0.union($1) } }
    /// Pixels covered (rects never overlap after merging... except when forced; this counts each rect).
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    /// Adds `rect`, clipped to `bounds` when given (the screen): empty rects are ignored.
    public mutating func add(_ rect: PixelRect, within screen: PixelRect? = nil) {
        var r = screen.map { rect.intersection($0) } ?? rect
        guard !r.isEmpty else { return }
        // Absorb every rect that overlaps or touches and is cheap to merge, until none is left.
        var merged = true
        while merged {
            merged = false
            for (i, other) in rects.enumerated() {
                if other.contains(r) { return }
                let u = r.union(other)
                let touching = r.intersects(PixelRect(x: other.x - 1, y: other.y - 1, width: other.width + 2, height: other.height + 2))
                if r.contains(other) || (touching && Double(u.area) <= mergeSlack * Double(r.area + other.area)) {
                    r = u
                    rects.remove(at: i)
                    merged = true
                    break
                }
            }
        }
        rects.append(r)
        while rects.count > maximumCount { mergeCheapestPair() }
    }

    private mutating func mergeCheapestPair() {
        var best = (0, 1, Int.max)
        for i in 0..<rects.count {
            for j in (i + 1)..<rects.count {
                let cost = rects[i].union(rects[j]).area - rects[i].area - rects[j].area
                if cost < best.2 { best = (i, j, cost) }
            }
        }
        let u = rects[best.0].union(rects[best.1])
        rects.remove(at: best.1)
        rects.remove(at: best.0)
        add(u)
    }
}
