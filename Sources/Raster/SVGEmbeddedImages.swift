/// The raster images an SVG carries inside itself (`href="data:image/png;base64,…"`), measured
/// from their headers without decoding their pixels. librsvg decodes each one whole, so a 23 KB
/// file can hold a 12000x12000 PNG (576 MB once decoded): an SVG is held to the limits a PNG
/// icon file is. Each embedded image must be PNG, JPEG or GIF (read by its bytes, not by the
/// type it claims) within `PNGCodec.maximumDimension` on a side, and all of one document's
/// together within `PNGCodec.maximumPixels`. A nested SVG is refused: its own images would
/// escape the count.
enum SVGEmbeddedImages {
    struct Measured: Equatable {
        var kind: String
        var width: Int
        var height: Int
    }

    /// Why `data` is refused, or nil when every embedded image is within the limits.
    static func problem(in data: [UInt8]) -> String? {
        var total = 0
        for (index, uri) in dataURIs(in: data).enumerated() {
            let which = "its embedded image \(index + 1)"
            guard let bytes = decode(uri) else { return "\(which) is not a readable data: URI" }
            guard let image = measure(bytes) else {
                return "\(which) is not a PNG, JPEG or GIF whose size its header gives (an icon may embed only those)"
            }
            guard image.width <= PNGCodec.maximumDimension, image.height <= PNGCodec.maximumDimension else {
                return "\(which) is a \(image.width)x\(image.height) \(image.kind), over the \(PNGCodec.maximumDimension) pixels "
                    + "a side an icon's image may have"
            }
            total += image.width * image.height
            guard total <= PNGCodec.maximumPixels else {
                return "its embedded images come to \(total) pixels (the \(image.width)x\(image.height) \(image.kind) the last), "
                    + "over the \(PNGCodec.maximumPixels) one icon may have"
            }
        }
        return nil
    }

    /// Every `href` value that is a `data:` URI (attribute names compared without ASCII case, as
    /// `SVGDocument.externalReference` does), as written.
    static func dataURIs(in data: [UInt8]) -> [ArraySlice<UInt8>] {
        let lower = data.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        let href = Array("href".utf8), scheme = Array("data:".utf8)
        var found: [ArraySlice<UInt8>] = []
        var i = 0
        while i + href.count <= lower.count {
            guard lower[i..<(i + href.count)].elementsEqual(href) else {
                i += 1
                continue
            }
            var j = i + href.count
            while j < lower.count, isSpace(lower[j]) { j += 1 }
            guard j < lower.count, lower[j] == UInt8(ascii: "=") else {
                i = j
                continue
            }
            j += 1
            while j < lower.count, isSpace(lower[j]) { j += 1 }
            guard j < lower.count, lower[j] == UInt8(ascii: "\"") || lower[j] == UInt8(ascii: "'") else {
                i = j
                continue
            }
            let quote = lower[j]
            var start = j + 1
            while start < lower.count, isSpace(lower[start]) { start += 1 }
            var end = start
            while end < lower.count, lower[end] != quote { end += 1 }
            if end - start >= scheme.count, lower[start..<(start + scheme.count)].elementsEqual(scheme) {
                found.append(data[start..<end])
            }
            i = end
        }
        return found
    }

    /// The bytes a `data:` URI carries: base64 (whitespace ignored) or percent-encoded; nil when
    /// it is malformed.
    static func decode(_ uri: ArraySlice<UInt8>) -> [UInt8]? {
        guard let comma = uri.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let header = String(decoding: uri[uri.startIndex..<comma], as: UTF8.self).lowercased()
        let body = uri[(comma + 1)...]
        return header.hasSuffix(";base64") ? base64(body) : percentDecoded(body)
    }

    /// PNG (IHDR), GIF (logical screen) or JPEG (the first start-of-frame marker); nil for anything else.
    static func measure(_ bytes: [UInt8]) -> Measured? {
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        if let size = PNGCodec.ihdrSize(bytes) {
            return Measured(kind: "PNG", width: size.width, height: size.height)
        }
        if bytes.count >= 10, bytes.starts(with: Array("GIF8".utf8)) {
            return Measured(kind: "GIF", width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            let length = be16(i + 2)
            let startOfFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if startOfFrame {
                guard i + 9 <= bytes.count else { return nil }
                return Measured(kind: "JPEG", width: be16(i + 7), height: be16(i + 5))
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// Standard base64 (padding optional, whitespace skipped); nil on any other character.
    static func base64(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0, bits = 0
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): return out
            default:
                if isSpace(c) { continue }
                return nil
            }
            accumulator = accumulator << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    /// `%XX` escapes decoded; nil on a broken one.
    static func percentDecoded(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == UInt8(ascii: "%") {
                guard i + 2 < text.endIndex, let hi = hex(text[i + 1]), let lo = hex(text[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return out
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
