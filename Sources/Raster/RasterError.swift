/// Every failure the rasterizer reports: which call failed and why, never a crash.
public enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A size or argument the rasterizer cannot honour (zero, negative, NaN, too large).
    case invalidArgument(call: String, message: String)
    /// A libpng call failed (missing, corrupt or truncated file...).
    case png(call: String, message: String)
    /// An image whose header gives a size beyond what is decoded (`limit` on either side); refused
    /// before any pixel is decoded. `name` is the file's path.
    case imageTooLarge(name: String, width: Int, height: Int, limit: Int)
    /// A PNG file or its folder that cannot be written or created there, and why in words (a
    /// missing folder, permissions), for `path` as the caller gave it.
    case cannotWrite(path: String, reason: String)
    /// A librsvg or cairo call failed, or an SVG the kiosk refuses before rendering it (too large a
    /// file, an external reference, a render over its time budget), and why in words.
    case svg(call: String, message: String)
    /// An SVG refused in the kiosk's SVG worker: that process's description of the error, as is.
    case svgWorker(String)

    public var description: String {
        switch self {
        case let .invalidArgument(call, message): return "\(call): \(message)"
        case let .png(call, message): return "\(call) failed: \(message)"
        case let .imageTooLarge(name, width, height, limit):
            return "\(name): \(width)x\(height) is larger than the \(limit)x\(limit) the kiosk decodes; scale it down"
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason)"
        case let .svg(call, message): return "\(call) failed: \(message)"
        case let .svgWorker(description): return description
        }
    }
}
