import Geometry

/// A background pattern (seed 002, CGPattern): one cell drawn once by a callback into a small buffer,
/// then repeated. Tiling copies rows with `memcpy` from a pre-tiled strip (the cell repeated
/// across the widest target seen, one cell wider for the phase), so a full frame costs less than a copy.
///
/// Cells are opaque: the callback draws onto the cell's background colour.
public final class PatternTile {
    public let cellWidth: Int
    public let cellHeight: Int
    /// The cell as drawn, premultiplied ARGB (opaque).
    public let cell: PixelBuffer
    private var strip: PixelBuffer?
    /// For each cell row, the strip row holding its pixels: identical cell rows share one strip row,
    /// so a checker or cross reads its whole frame from a few cache-resident rows.
    private var stripRow: [Int] = []

    /// Draws a `cellWidth`x`cellHeight` cell: fills it with `background`, then runs `draw` on it.
    public init(cellWidth: Int, cellHeight: Int, background: Color = .white, draw: (Canvas) -> Void) throws(RasterError) {
        guard cellWidth > 0, cellHeight > 0, cellWidth <= 4096, cellHeight <= 4096 else {
            throw .invalidArgument(call: "PatternTile.init", message: "cell \(cellWidth)x\(cellHeight) must be 1...4096 pixels")
        }
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        cell = try PixelBuffer(width: cellWidth, height: cellHeight, format: .argb8888Premultiplied)
        let canvas = Canvas(cell)
        canvas.clear(Color(red: background.red, green: background.green, blue: background.blue))
        draw(canvas)
    }

    /// Repeats the cell over `rect` (clipped by `canvas`), with the cell origin at `phase`.
    public func fill(_ canvas: Canvas, rect: PixelRect? = nil, phaseX: Int = 0, phaseY: Int = 0) {
        let target = canvas.target
        let r = (rect ?? canvas.clip).intersection(canvas.clip)
        guard !r.isEmpty else { return }
        let strip = self.strip(minWidth: r.width + cellWidth, format: target.format)
        let sx = positiveModulo(r.x - phaseX, cellWidth)
        var sy = positiveModulo(r.y - phaseY, cellHeight)
        let bytes = r.width * 4
        let stripRow = self.stripRow
        // A wide row takes one period from the strip and then copies what it has written onto its
        // own continuation, doubling each time: the source stays in L1 however many different rows
        // the cell has (a row copied whole from the strip would read it from L2).
        let period = cellWidth * 4
        for y in r.minY..<r.maxY {
            let dst = UnsafeMutableRawPointer(target.row(y) + r.x)
            if bytes <= 4 * period {
                dst.copyMemory(from: strip.row(stripRow[sy]) + sx, byteCount: bytes)
            } else {
                dst.copyMemory(from: strip.row(stripRow[sy]) + sx, byteCount: period)
                var have = period
                while have < bytes {
                    let n = Swift.min(have, bytes - have)
                    (dst + have).copyMemory(from: dst, byteCount: n)
                    have += n
                }
            }
            sy += 1
            if sy == cellHeight { sy = 0 }
        }
    }

    /// The cell repeated across at least `minWidth` pixels, in the target's format; rebuilt only when
    /// a wider target or another format is asked for.
    private func strip(minWidth: Int, format: PixelFormat) -> PixelBuffer {
        if let s = strip, s.width >= minWidth, s.format == format { return s }
        let width = ((minWidth + cellWidth - 1) / cellWidth) * cellWidth
        var unique: [Int] = []          // cell rows that differ from every earlier one
        stripRow = (0..<cellHeight).map { y in
            let row = UnsafeBufferPointer(start: cell.row(y), count: cellWidth)
            if let k = unique.firstIndex(where: { UnsafeBufferPointer(start: cell.row($0), count: cellWidth).elementsEqual(row) }) { return k }
            unique.append(y)
            return unique.count - 1
        }
        // Cannot fail: both sizes are positive and bounded by the target's and the cell's.
        let s = try! PixelBuffer(width: width, height: unique.count, format: format)
        let mask: UInt32 = format == .xrgb8888 ? 0x00FF_FFFF : 0xFFFF_FFFF
        for (k, y) in unique.enumerated() {
            let src = cell.row(y), dst = s.row(k)
            for x in 0..<cellWidth { dst[x] = src[x] & mask }
            var filled = cellWidth
            while filled < width {
                let n = Swift.min(filled, width - filled)
                UnsafeMutableRawPointer(dst + filled).copyMemory(from: dst, byteCount: n * 4)
                filled += n
            }
        }
        strip = s
        return s
    }

    // MARK: Built-in cells (DESIGN.md §1)

    /// White cell with its top-left and bottom-right quarters in `foreground`.
    public static func checker(cell size: Int, foreground: Color = .black, background: Color = .white) throws(RasterError) -> PatternTile {
        try PatternTile(cellWidth: size, cellHeight: size, background: background) { c in
            let s = Double(size), h = s / 2
            c.fill(Rect(x: 0, y: 0, width: h, height: h), color: foreground)
            c.fill(Rect(x: h, y: h, width: h, height: h), color: foreground)
        }
    }

    /// Diagonals corner to corner in `lineColor`, and a square of side 2/8 of the cell at 3/8 in `foreground`.
    public static func cross(cell size: Int, foreground: Color = .black, lineColor: Color = .red, background: Color = .white,
                             lineWidth: Double = 1) throws(RasterError) -> PatternTile {
        try PatternTile(cellWidth: size, cellHeight: size, background: background) { c in
            let s = Double(size)
            c.stroke(Path.line(from: Point(x: 0, y: 0), to: Point(x: s, y: s)), width: lineWidth, color: lineColor, cap: .square)
            c.stroke(Path.line(from: Point(x: s, y: 0), to: Point(x: 0, y: s)), width: lineWidth, color: lineColor, cap: .square)
            let part = s / 8
            c.fill(Rect(x: 3 * part, y: 3 * part, width: 2 * part, height: 2 * part), color: foreground)
        }
    }

    /// A circle of the cell's diameter, and copies shifted by half a cell in all eight directions,
    /// clipped to the cell, so half and quarter circles meet at the edges.
    public static func circles(cell size: Int, foreground: Color = .black, background: Color = .white,
                               lineWidth: Double = 1) throws(RasterError) -> PatternTile {
        try PatternTile(cellWidth: size, cellHeight: size, background: background) { c in
            let s = Double(size), r = s / 2 - lineWidth / 2
            var path = Path()
            for dy in [-0.5, 0, 0.5] {
                for dx in [-0.5, 0, 0.5] {
                    path.append(.circle(center: Point(x: s / 2 + dx * s, y: s / 2 + dy * s), radius: r))
                }
            }
            c.stroke(path, width: lineWidth, color: foreground)
        }
    }

    /// A single colour: tiling it is a row copy like any other pattern.
    public static func solid(_ color: Color) throws(RasterError) -> PatternTile {
        try PatternTile(cellWidth: 8, cellHeight: 8, background: color) { _ in }
    }

    /// An image scaled (bilinear) to the cell size and composited over `background`.
    public static func image(_ image: PixelBuffer, cellWidth: Int? = nil, cellHeight: Int? = nil,
                             background: Color = .white) throws(RasterError) -> PatternTile {
        let w = cellWidth ?? image.width, h = cellHeight ?? image.height
        return try PatternTile(cellWidth: w, cellHeight: h, background: background) { c in
            c.draw(image, in: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        }
    }
}

@inlinable func positiveModulo(_ a: Int, _ m: Int) -> Int {
    let r = a % m
    return r < 0 ? r + m : r
}
