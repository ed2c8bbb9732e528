import Geometry

// calloc and free, for zeroed frame memory that the kernel hands out already cleared (see init).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a 32-bit pixel is laid out. Both are little-endian `UInt32`s, bytes B, G, R, A/X.
public enum PixelFormat: Sendable, Hashable {
    /// `0x00RRGGBB`: opaque, the top byte is ignored on read and written as 0.
    case xrgb8888
    /// `0xAARRGGBB` with colour channels premultiplied by alpha.
    case argb8888Premultiplied
}

/// A rectangle of 32-bit pixels with any row stride, owning its memory or viewing another buffer's.
///
/// A view (`view(of:)`) shares the parent's memory and keeps the parent alive; drawing into it draws
/// into the parent. The memory is zeroed on creation (black for XRGB, transparent for ARGB).
public final class PixelBuffer {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next; at least `width * 4` and a multiple of 4.
    public let bytesPerRow: Int
    public let format: PixelFormat
    @usableFromInline let base: UnsafeMutableRawPointer
    /// What calloc returned (`base` is it rounded up to 64 bytes); nil for a view.
    private let allocation: UnsafeMutableRawPointer?
    /// The buffer that owns the memory when this is a view, so that it outlives the view.
    private let parent: PixelBuffer?

    /// Largest width or height accepted: keeps every index computation far from overflow.
    public static let maximumDimension = 32768

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, bytesPerRow: Int? = nil) throws(RasterError) {
        guard width > 0, height > 0 else {
            throw .invalidArgument(call: "PixelBuffer.init", message: "size \(width)x\(height) must be positive")
        }
        guard width <= Self.maximumDimension, height <= Self.maximumDimension else {
            throw .invalidArgument(call: "PixelBuffer.init", message: "size \(width)x\(height) exceeds \(Self.maximumDimension)")
        }
        let stride = bytesPerRow ?? width * 4
        guard stride >= width * 4, stride % 4 == 0, stride <= Self.maximumDimension * 16 else {
            throw .invalidArgument(call: "PixelBuffer.init", message: "stride \(stride) invalid for width \(width)")
        }
        // calloc, not allocate + memset: a frame-sized block comes zeroed from the kernel, so start-up
        // does not write every new buffer twice (zeros, then the first frame). Failure is an error.
        // 63 spare bytes put the first row on a cache line.
        guard let memory = calloc(stride * height + 63, 1) else {
            throw .invalidArgument(call: "PixelBuffer.init", message: "cannot allocate \(stride * height) bytes for \(width)x\(height)")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.format = format
        self.allocation = memory
        self.base = memory + (64 - Int(bitPattern: memory) & 63) & 63
        self.parent = nil
    }

    private init(viewing parent: PixelBuffer, rect: PixelRect) {
        self.width = rect.width
        self.height = rect.height
        self.bytesPerRow = parent.bytesPerRow
        self.format = parent.format
        self.base = parent.base + rect.y * parent.bytesPerRow + rect.x * 4
        self.allocation = nil
        self.parent = parent
    }

    deinit {
        free(allocation)
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// A buffer that shows `rect` (clipped to this buffer) of this one, sharing its memory.
    public func view(of rect: PixelRect) throws(RasterError) -> PixelBuffer {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else {
            throw .invalidArgument(call: "PixelBuffer.view", message: "\(rect) does not overlap \(bounds)")
        }
        return PixelBuffer(viewing: self, rect: r)
    }

    /// The first pixel of row `y`; callers keep `y` in 0..<height.
    @inlinable @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y &* bytesPerRow).assumingMemoryBound(to: UInt32.self)
    }

    /// The pixel at (x, y), or nil outside the buffer.
    public subscript(x: Int, y: Int) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return row(y)[x]
    }

    /// Sets one pixel; ignored outside the buffer.
    public func setPixel(x: Int, y: Int, _ value: UInt32) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        row(y)[x] = value
    }

    /// Gives `body` one row of pixels at a time, for export (DRM copies, PNG writing, tests).
    public func withRows<R>(_ body: (_ y: Int, _ row: UnsafeMutableBufferPointer<UInt32>) throws -> R?) rethrows -> R? {
        for y in 0..<height {
            if let r = try body(y, UnsafeMutableBufferPointer(start: row(y), count: width)) { return r }
        }
        return nil
    }

    /// A new buffer with these pixels, for a reader on another thread (a screenshot's encoder).
    public func copy() throws(RasterError) -> PixelBuffer {
        let copy = try PixelBuffer(width: width, height: height, format: format)
        try copy.copyPixels(from: self)
        return copy
    }

    /// Copies every pixel of `other` (same size and format) into this buffer, row by row.
    public func copyPixels(from other: PixelBuffer) throws(RasterError) {
        guard other.width == width, other.height == height, other.format == format else {
            throw .invalidArgument(call: "PixelBuffer.copyPixels", message: "size or format differs")
        }
        copyRows(from: other, rect: bounds)
    }

    /// Copies the pixels of `rect` (clipped) from `other` to the same place in this buffer.
    public func copyRows(from other: PixelBuffer, rect: PixelRect) {
        let r = rect.intersection(bounds).intersection(other.bounds)
        guard !r.isEmpty else { return }
        if r.x == 0, r.width == width, bytesPerRow == other.bytesPerRow, bytesPerRow == width * 4 {
            (base + r.y * bytesPerRow).copyMemory(from: other.base + r.y * bytesPerRow, byteCount: r.height * bytesPerRow)
            return
        }
        for y in r.minY..<r.maxY {
            UnsafeMutableRawPointer(row(y) + r.x).copyMemory(from: other.row(y) + r.x, byteCount: r.width * 4)
        }
    }

    /// True when both buffers hold the same pixels (the ignored X byte of XRGB excluded).
    public func hasSamePixels(as other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height, format == other.format else { return false }
        let mask: UInt32 = format == .xrgb8888 ? 0x00FF_FFFF : 0xFFFF_FFFF
        for y in 0..<height {
            let a = row(y), b = other.row(y)
            for x in 0..<width where (a[x] ^ b[x]) & mask != 0 { return false }
        }
        return true
    }
}
