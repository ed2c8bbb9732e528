import Raster

/// What the kiosk and its SVG worker (`kiosk svg-worker`, which decodes the config's PNG images
/// too) say to each other over a socket pair: one
/// request, then its reply, each a frame of a fixed header and a payload whose length the header
/// gives. Little-endian numbers; pixels in the machine's own order (both ends are the same binary).
enum SVGWorkerMessage {
    /// Longest payload either side accepts: a render or a decoded PNG at the largest size
    /// (`SVGDocument.maximumDimension` = `PNGCodec.maximumDimension` squared, 4 bytes a pixel), an
    /// SVG file, or a PNG file (`PNGCodec.maximumFileBytes`) and its name. A header announcing
    /// more is a broken peer.
    static let maximumPayload = max(SVGDocument.maximumDimension * SVGDocument.maximumDimension * 4, PNGCodec.maximumFileBytes + 1024)

    enum Request: Equatable {
        /// Parse `data` as document `id` (`name` for its messages).
        case load(id: UInt32, name: String, data: [UInt8])
        /// Render document `id` fitted into `side` x `side`.
        case render(id: UInt32, side: UInt32)
        /// Decode `data` as a PNG image (`name` for its messages).
        case decodePNG(name: String, data: [UInt8])
    }

    enum Reply: Equatable {
        /// A document parsed: its intrinsic size when it gives one.
        case loaded(width: Double?, height: Double?, cpuSeconds: Double)
        /// A render: `side` x `side` premultiplied ARGB pixels, row after row.
        case rendered(side: UInt32, pixels: [UInt8], cpuSeconds: Double)
        /// A decoded PNG: `width` x `height` premultiplied ARGB pixels, row after row.
        case decoded(width: UInt32, height: UInt32, pixels: [UInt8], cpuSeconds: Double)
        /// librsvg (or libpng) refused: its message.
        case refused(String, cpuSeconds: Double)
    }

    /// A header: kind (1 byte), three 32-bit numbers and one 64-bit float, then the payload's length.
    static let headerSize = 1 + 4 * 3 + 8 + 4

    struct Header: Equatable {
        var kind: UInt8
        var a: UInt32, b: UInt32, c: UInt32
        var seconds: Double
        var length: UInt32
    }

    static func encode(_ header: Header, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [header.kind]
        bytes.reserveCapacity(headerSize + payload.count)
        for value in [header.a, header.b, header.c] { append(value, to: &bytes) }
        let bits = header.seconds.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        append(header.length, to: &bytes)
        return bytes + payload
    }

    static func decodeHeader(_ bytes: [UInt8]) -> Header? {
        guard bytes.count == headerSize else { return nil }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) } }
        let bits = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[13 + $1]) << UInt64(8 * $1) }
        let header = Header(kind: bytes[0], a: u32(1), b: u32(5), c: u32(9), seconds: Double(bitPattern: bits), length: u32(21))
        guard Int(header.length) <= maximumPayload else { return nil }
        return header
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    // Kinds. Requests: 1 load (a = id, b = the name's length; payload: name then data), 2 render
    // (a = id, b = side), 3 decode a PNG (b = the name's length; payload: name then data).
    // Replies: 10 loaded (a = 1 when sized, b and c = width and height as Float32 bits), 11
    // rendered (a = side; payload: pixels), 12 refused (payload: message), 13 decoded (a = width,
    // b = height; payload: pixels).

    static func encode(_ request: Request) -> [UInt8] {
        switch request {
        case let .load(id, name, data):
            let nameBytes = Array(name.utf8.prefix(1024))
            return encode(Header(kind: 1, a: id, b: UInt32(nameBytes.count), c: 0, seconds: 0, length: UInt32(nameBytes.count + data.count)),
                          payload: nameBytes + data)
        case let .render(id, side):
            return encode(Header(kind: 2, a: id, b: side, c: 0, seconds: 0, length: 0), payload: [])
        case let .decodePNG(name, data):
            let nameBytes = Array(name.utf8.prefix(1024))
            return encode(Header(kind: 3, a: 0, b: UInt32(nameBytes.count), c: 0, seconds: 0, length: UInt32(nameBytes.count + data.count)),
                          payload: nameBytes + data)
        }
    }

    static func decodeRequest(_ header: Header, payload: [UInt8]) -> Request? {
        switch header.kind {
        case 1:
            guard Int(header.b) <= payload.count else { return nil }
            let name = String(decoding: payload[..<Int(header.b)], as: UTF8.self)
            return .load(id: header.a, name: name, data: Array(payload[Int(header.b)...]))
        case 2:
            return .render(id: header.a, side: header.b)
        case 3:
            guard Int(header.b) <= payload.count else { return nil }
            let name = String(decoding: payload[..<Int(header.b)], as: UTF8.self)
            return .decodePNG(name: name, data: Array(payload[Int(header.b)...]))
        default:
            return nil
        }
    }

    static func encode(_ reply: Reply) -> [UInt8] {
        switch reply {
        case let .loaded(width, height, cpu):
            let sized = width != nil && height != nil
            return encode(Header(kind: 10, a: sized ? 1 : 0, b: Float32(width ?? 0).bitPattern, c: Float32(height ?? 0).bitPattern,
                                 seconds: cpu, length: 0), payload: [])
        case let .rendered(side, pixels, cpu):
            return encode(Header(kind: 11, a: side, b: 0, c: 0, seconds: cpu, length: UInt32(pixels.count)), payload: pixels)
        case let .decoded(width, height, pixels, cpu):
            return encode(Header(kind: 13, a: width, b: height, c: 0, seconds: cpu, length: UInt32(pixels.count)), payload: pixels)
        case let .refused(message, cpu):
            let text = Array(message.utf8.prefix(4096))
            return encode(Header(kind: 12, a: 0, b: 0, c: 0, seconds: cpu, length: UInt32(text.count)), payload: text)
        }
    }

    static func decodeReply(_ header: Header, payload: [UInt8]) -> Reply? {
        switch header.kind {
        case 10:
            let sized = header.a == 1
            return .loaded(width: sized ? Double(Float32(bitPattern: header.b)) : nil,
                           height: sized ? Double(Float32(bitPattern: header.c)) : nil, cpuSeconds: header.seconds)
        case 11:
            guard payload.count == Int(header.a) * Int(header.a) * 4 else { return nil }
            return .rendered(side: header.a, pixels: payload, cpuSeconds: header.seconds)
        case 12:
            return .refused(String(decoding: payload, as: UTF8.self), cpuSeconds: header.seconds)
        case 13:
            guard payload.count == Int(header.a) * Int(header.b) * 4 else { return nil }
            return .decoded(width: header.a, height: header.b, pixels: payload, cpuSeconds: header.seconds)
        default:
            return nil
        }
    }

    /// A render's pixels as bytes, row after row.
    static func bytes(of image: PixelBuffer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(image.width * image.height * 4)
        _ = image.withRows { (_, row) -> Void? in
            bytes.append(contentsOf: UnsafeRawBufferPointer(row))
            return nil
        }
        return bytes
    }

    /// `bytes` (a `side` x `side` render) as a premultiplied ARGB buffer.
    static func image(side: Int, bytes: [UInt8]) -> PixelBuffer? { image(width: side, height: side, bytes: bytes) }

    /// `bytes` (`width` x `height` pixels, row after row) as a premultiplied ARGB buffer.
    static func image(width: Int, height: Int, bytes: [UInt8]) -> PixelBuffer? {
        guard width > 0, height > 0, bytes.count == width * height * 4,
              let image = try? PixelBuffer(width: width, height: height, format: .argb8888Premultiplied) else { return nil }
        let rowBytes = width * 4
        bytes.withUnsafeBytes { source in
            _ = image.withRows { (y, row) -> Void? in
                UnsafeMutableRawBufferPointer(row).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[(y * rowBytes)..<((y + 1) * rowBytes)]))
                return nil
            }
        }
        return image
    }
}
