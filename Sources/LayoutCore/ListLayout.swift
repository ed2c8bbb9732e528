import Geometry

/// Where a row sits in its section's run within its column, which says which corners to round.
public enum RowPosition: String, Hashable, Sendable {
    case single, top, middle, bottom

    public var roundedCorners: Corners {
        switch self {
        case .single: return .all
        case .top: return .top
        case .middle: return []
        case .bottom: return .bottom
        }
    }
}

/// Content of one section of a grouped list: a header and rows of given heights.
public struct ListSection: Hashable, Sendable {
    public var headerHeight: Double
    public var rowHeights: [Double]

    public init(headerHeight: Double, rowHeights: [Double]) {
        self.headerHeight = headerHeight
        self.rowHeights = rowHeights
    }
}

public struct ListRow: Hashable, Sendable {
    public var section: Int
    public var row: Int
    public var column: Int
    /// Position in content coordinates (before scrolling).
    public var frame: Rect
    public var position: RowPosition
}

public struct ListHeader: Hashable, Sendable {
    public var section: Int
    public var frame: Rect
}

/// What a point or a query found in a list.
public enum ListElement: Hashable, Sendable {
    case header(section: Int)
    case row(section: Int, row: Int)
}

/// Spacing of a grouped list, in pixels.
public struct ListMetrics: Hashable, Sendable {
    public var columns: Int
    public var columnSpacing: Double
    public var rowSpacing: Double
    public var sectionSpacing: Double
    public var insets: Double
    /// Columns counted from the right (right-to-left screens): the first column, which the
    /// waterfall fills first, is the rightmost.
    public var reading: ReadingDirection

    public init(columns: Int = 1, columnSpacing: Double = 16, rowSpacing: Double = 0, sectionSpacing: Double = 24, insets: Double = 16,
                reading: ReadingDirection = .leftToRight) {
        self.columns = columns
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.sectionSpacing = sectionSpacing
        self.insets = insets
        self.reading = reading
    }
}

/// The columnar grouped list of seed 004, computed once per content change.
///
/// Each section's header spans the width; its rows then fall into N columns, each next row
/// into the shortest column (leftmost on ties): a waterfall. Since a row always starts at the
/// lowest column bottom, which never decreases, rows and headers come out ordered by their
/// top edge; that order is the reading order and lets visibility queries binary-search.
public struct ListLayout: Sendable {
    public let width: Double
    public let metrics: ListMetrics
    public let rows: [ListRow]
    public let headers: [ListHeader]
    public let contentHeight: Double
    /// Each column's width.
    public let columnWidth: Double
    /// The tallest row: rows whose top is more than this above a line cannot reach it.
    public let tallestRow: Double

    public init(width: Double, sections: [ListSection], metrics: ListMetrics = ListMetrics()) {
        let safe = { (v: Double) in v.isFinite ? Swift.max(0, Swift.min(v, 1e7)) : 0 }
        let columns = Swift.max(1, Swift.min(metrics.columns, 64))
        let inset = safe(metrics.insets), gap = safe(metrics.columnSpacing)
        let rowGap = safe(metrics.rowSpacing), sectionGap = safe(metrics.sectionSpacing)
        let w = safe(width)
        let columnWidth = Swift.max(0, (w - 2 * inset - gap * Double(columns - 1)) / Double(columns))

        var rows: [ListRow] = []
        var headers: [ListHeader] = []
        var tallest = 0.0
        var y = inset
        for (s, section) in sections.enumerated() {
            if s > 0 { y += sectionGap }
            let headerHeight = safe(section.headerHeight)
            headers.append(ListHeader(section: s, frame: Rect(x: inset, y: y, width: Swift.max(0, w - 2 * inset), height: headerHeight)))
            y += headerHeight
            var bottoms = Array(repeating: y, count: columns)
            var runs = Array(repeating: [Int](), count: columns)  // indices into `rows`
            for (r, h) in section.rowHeights.enumerated() {
                let height = safe(h)
                tallest = Swift.max(tallest, height)
                var column = 0
                for c in 1..<columns where bottoms[c] < bottoms[column] { column = c }
                let top = runs[column].isEmpty ? bottoms[column] : bottoms[column] + rowGap
                let place = metrics.reading == .rightToLeft ? columns - 1 - column : column
                let x = inset + Double(place) * (columnWidth + gap)
                runs[column].append(rows.count)
                rows.append(ListRow(section: s, row: r, column: column,
                                    frame: Rect(x: x, y: top, width: columnWidth, height: height), position: .single))
                bottoms[column] = top + height
            }
            for run in runs where run.count > 1 {
                rows[run[0]].position = .top
                for i in run.dropFirst().dropLast() { rows[i].position = .middle }
                rows[run[run.count - 1]].position = .bottom
            }
            y = bottoms.max() ?? y
        }
        self.width = w
        self.columnWidth = columnWidth
        self.metrics = metrics
        self.rows = rows
        self.headers = headers
        self.tallestRow = tallest
        self.contentHeight = y + inset
    }

    /// Furthest a viewport of `height` can scroll, in pixels.
    public func maximumOffset(viewportHeight: Double) -> Double {
        Swift.max(0, contentHeight - (viewportHeight.isFinite ? viewportHeight : 0))
    }

    /// Indices into `rows` of the rows that intersect content lines [top, bottom): O(log n + visible).
    public func visibleRowIndices(top: Double, bottom: Double) -> LazyFilterSequence<Range<Int>> {
        // A row reaching below `top` starts at most `tallestRow` above it.
        let first = firstIndex(in: rows.lazy.map(\.frame.minY), atLeast: top - tallestRow)
        var end = first
        while end < rows.count, rows[end].frame.minY < bottom { end += 1 }
        return (first..<end).lazy.filter { self.rows[$0].frame.maxY > top }
    }

    /// Headers that intersect content lines [top, bottom).
    public func visibleHeaders(top: Double, bottom: Double) -> ArraySlice<ListHeader> {
        let first = firstIndex(in: headers.lazy.map(\.frame.minY), atLeast: top)
        var start = first
        if start > 0, headers[start - 1].frame.maxY > top { start -= 1 }
        var end = first
        while end < headers.count, headers[end].frame.minY < bottom { end += 1 }
        return headers[start..<end]
    }

    /// The row or header under a content point.
    public func hitTest(_ p: Point) -> ListElement? {
        let range = visibleRowIndices(top: p.y, bottom: p.y + 1)
        for i in range where rows[i].frame.contains(p) {
            return .row(section: rows[i].section, row: rows[i].row)
        }
        for h in visibleHeaders(top: p.y, bottom: p.y + 1) where h.frame.contains(p) {
            return .header(section: h.section)
        }
        return nil
    }

    /// The scroll offset (pixels) that brings row `index` fully into a viewport of `height`,
    /// moving as little as possible from `offset`.
    public func offset(revealing index: Int, from offset: Double, viewportHeight height: Double, margin: Double = 8) -> Double {
        guard rows.indices.contains(index) else { return offset }
        let frame = rows[index].frame
        var o = offset
        if frame.maxY + margin > o + height { o = frame.maxY + margin - height }
        if frame.minY - margin < o { o = frame.minY - margin }
        return Swift.max(0, Swift.min(o, maximumOffset(viewportHeight: height)))
    }

    private func firstIndex<C: RandomAccessCollection>(in keys: C, atLeast value: Double) -> Int
    where C.Element == Double, C.Index == Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
