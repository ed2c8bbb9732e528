import Geometry
import Raster

/// An icon that barely shows on its plate (an author's orange icon on an orange selection) gets
/// an outline: its silhouette, grown by a pixel or two, in the label's colour, which the theme's
/// contrast check already holds readable on that plate. Checked like text: the icon's mean colour
/// (weighted by coverage) against the plate, and outlined below `minimumContrast`.
enum IconOutline {
    /// WCAG asks 3:1 of graphics that carry meaning; an icon beside its label carries less, so
    /// only the icons that come close to vanishing are outlined.
    static let minimumContrast = 2.0

    /// The icon's mean colour, each pixel weighted by its coverage (nil: fully transparent).
    static func meanColor(of image: PixelBuffer) -> Color? {
        var r = 0, g = 0, b = 0, a = 0
        let premultiplied = image.format == .argb8888Premultiplied
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y] ?? 0
                let alpha = premultiplied ? Int(p >> 24) : 255
                guard alpha > 0 else { continue }
                // Premultiplied channels already carry their weight.
                r += Int((p >> 16) & 0xFF) * (premultiplied ? 1 : alpha) / (premultiplied ? 1 : 255)
                g += Int((p >> 8) & 0xFF) * (premultiplied ? 1 : alpha) / (premultiplied ? 1 : 255)
                b += Int(p & 0xFF) * (premultiplied ? 1 : alpha) / (premultiplied ? 1 : 255)
                a += alpha
            }
        }
        guard a > 0 else { return nil }
        func channel(_ sum: Int) -> UInt8 { UInt8(min(255, sum * 255 / a)) }
        return Color(red: channel(r), green: channel(g), blue: channel(b))
    }

    /// True when `image` drawn on `plate` falls below `minimumContrast`.
    static func needsOutline(_ image: PixelBuffer, on plate: Color) -> Bool {
        guard let mean = meanColor(of: image) else { return false }
        return Color.contrastRatio(mean, plate) < minimumContrast
    }

    /// The silhouette of `image` grown by `radius` pixels on every side (a separable max filter
    /// over its alpha): coverage of `(width + 2r) × (height + 2r)`.
    static func grownSilhouette(of image: PixelBuffer, radius: Int) -> [UInt8] {
        let w = image.width, h = image.height, r = max(0, radius)
        let ow = w + 2 * r, oh = h + 2 * r
        let premultiplied = image.format == .argb8888Premultiplied
        var alpha = [UInt8](repeating: 0, count: ow * oh)
        for y in 0..<h {
            for x in 0..<w { alpha[(y + r) * ow + x + r] = premultiplied ? UInt8((image[x, y] ?? 0) >> 24) : 255 }
        }
        guard r > 0 else { return alpha }
        return maximum(maximum(alpha, width: ow, height: oh, radius: r, step: (1, 0)), width: ow, height: oh, radius: r, step: (0, 1))
    }

    /// Each value the largest within `radius` of it along `step` (across or down): one pass of
    /// the separable max filter.
    private static func maximum(_ values: [UInt8], width: Int, height: Int, radius: Int, step: (x: Int, y: Int)) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                var m: UInt8 = 0
                for d in -radius...radius {
                    let sx = x + d * step.x, sy = y + d * step.y
                    guard sx >= 0, sx < width, sy >= 0, sy < height else { continue }
                    m = max(m, values[sy * width + sx])
                }
                out[y * width + x] = m
            }
        }
        return out
    }
}

/// Outlines worked out once per icon image and plate colour (the images are the icon renders'
/// own, or a PNG icon scaled to its drawn size, kept while the screens use them): small,
/// bounded, dropped with the resources.
final class IconOutlineCache {
    private struct Entry {
        let image: PixelBuffer
        let plate: Color
        /// Nil: the icon shows well enough on this plate.
        let silhouette: (coverage: [UInt8], radius: Int)?
    }
    private var entries: [Entry] = []
    private var scaledImages: [(image: PixelBuffer, side: Int, scaled: PixelBuffer)] = []
    private var decisions: [(image: PixelBuffer, plate: Color, needs: Bool)] = []
    static let limit = 64

    /// `image` (a PNG icon) scaled to `side` pixels square, when it needs an outline on `plate`;
    /// nil when it shows well enough (it is then drawn as always). Decided once per image and plate.
    func scaledIfOutlined(_ image: PixelBuffer, side: Int, on plate: Color) -> PixelBuffer? {
        let needs: Bool
        if let known = decisions.first(where: { $0.image === image && $0.plate == plate }) {
            needs = known.needs
        } else {
            needs = IconOutline.needsOutline(image, on: plate)
            if decisions.count >= Self.limit { decisions.removeFirst(decisions.count / 2) }
            decisions.append((image, plate, needs))
        }
        guard needs else { return nil }
        if let hit = scaledImages.first(where: { $0.image === image && $0.side == side }) { return hit.scaled }
        guard let scaled = try? PixelBuffer(width: side, height: side, format: .argb8888Premultiplied) else { return nil }
        Canvas(scaled).draw(image, in: Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
        if scaledImages.count >= Self.limit { scaledImages.removeFirst(scaledImages.count / 2) }
        scaledImages.append((image, side, scaled))
        return scaled
    }

    func outline(for image: PixelBuffer, on plate: Color) -> (coverage: [UInt8], radius: Int)? {
        if let hit = entries.first(where: { $0.image === image && $0.plate == plate }) { return hit.silhouette }
        var silhouette: (coverage: [UInt8], radius: Int)?
        if IconOutline.needsOutline(image, on: plate) {
            let radius = max(1, Int((Double(max(image.width, image.height)) / 24).rounded()))
            silhouette = (IconOutline.grownSilhouette(of: image, radius: radius), radius)
        }
        if entries.count >= Self.limit { entries.removeFirst(entries.count / 2) }
        entries.append(Entry(image: image, plate: plate, silhouette: silhouette))
        return silhouette
    }
}
