extension PixelBuffer {
    /// The first pixel and the row stride in bytes, for copies to device memory (DRM scanout).
    /// The pointer is valid only inside `body` and must not escape it.
    @inlinable
    public func withUnsafePixels<R>(_ body: (_ base: UnsafeMutableRawPointer, _ bytesPerRow: Int) throws -> R) rethrows -> R {
        try body(base, bytesPerRow)
    }
}
