import Raster

/// Every failure the text layer reports: which call failed and why.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A FreeType call failed (missing or corrupt font, unsupported size...); `code` is FreeType's.
    case freeType(call: String, code: Int32, message: String)
    /// A HarfBuzz call failed (a file it cannot read, a face without glyphs).
    case harfBuzz(call: String, message: String)
    /// A font named by family that fontconfig cannot provide.
    case fontNotFound(name: String, message: String)
    /// A glyph image could not be made (a colour glyph's buffer or its scaling).
    case raster(RasterError)

    public var description: String {
        switch self {
        case let .freeType(call, code, message): return "\(call) failed (FreeType error \(code)): \(message)"
        case let .harfBuzz(call, message): return "\(call) failed: \(message)"
        case let .fontNotFound(name, message): return "font \"\(name)\": \(message)"
        case let .raster(error): return error.description
        }
    }
}
