/// Source-over compositing of premultiplied ARGB onto a row of pixels, with the exact `div255`.
///
/// Two implementations: `SpanBlender` works on two channels at once inside a `UInt32`
/// (the pixman/tiny-skia "SWAR" trick, lanes 0x00FF00FF); `ScalarBlend` does one channel at a time
/// and is the reference the tests compare the fast path against.

/// Multiplies the four channels of `p` by `a`/255, rounded exactly, two lanes at a time.
@inlinable @inline(__always)
public func scalePixel(_ p: UInt32, by a: UInt32) -> UInt32 {
    var rb = (p & 0x00FF_00FF) &* a &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((p >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// `src over dst` for premultiplied pixels: `src + dst * (255 - src.alpha) / 255`.
@inlinable @inline(__always)
public func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
    src &+ scalePixel(dst, by: 255 &- (src >> 24))
}

/// The same operations one channel at a time: the independent reference for `scalePixel`/`sourceOver`.
public enum ScalarBlend {
    public static func scale(_ p: UInt32, by a: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            out |= div255(((p >> UInt32(shift)) & 0xFF) * a) << UInt32(shift)
        }
        return out
    }

    public static func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let inv = 255 - (src >> 24)
        var out: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            let s = (src >> UInt32(shift)) & 0xFF, d = (dst >> UInt32(shift)) & 0xFF
            out |= (s + div255(d * inv)) << UInt32(shift)
        }
        return out
    }
}

/// Writes spans of one premultiplied colour into rows of a given format. Each call handles a whole
/// span, so the format and opacity branches are taken once per span, never per pixel.
@usableFromInline
struct SpanBlender {
    @usableFromInline let color: UInt32
    @usableFromInline let opaque: Bool
    /// Stored value for a fully covered pixel of an opaque colour in this format.
    @usableFromInline let solidValue: UInt32
    /// XRGB keeps the top byte 0; ARGB keeps all four.
    @usableFromInline let outputMask: UInt32

    @inlinable init(color: UInt32, format: PixelFormat) {
        self.color = color
        self.opaque = color >> 24 == 255
        self.outputMask = format == .xrgb8888 ? 0x00FF_FFFF : 0xFFFF_FFFF
        self.solidValue = color & outputMask
    }

    @inlinable var isInvisible: Bool { color >> 24 == 0 }

    /// Fully covered pixels.
    @inlinable @inline(__always)
    func fill(_ dst: UnsafeMutablePointer<UInt32>, count: Int) {
        if opaque {
            dst.update(repeating: solidValue, count: count)
        } else {
            sourceOverSpan(dst, count: count, source: color, outputMask: outputMask)
        }
    }

    /// Pixels all covered by the same fraction `coverage`/255.
    @inlinable @inline(__always)
    func fill(_ dst: UnsafeMutablePointer<UInt32>, count: Int, coverage: UInt32) {
        if coverage >= 255 { fill(dst, count: count); return }
        if coverage == 0 { return }
        sourceOverSpan(dst, count: count, source: scalePixel(color, by: coverage), outputMask: outputMask)
    }

    /// Pixels with their own coverage bytes.
    @inlinable @inline(__always)
    func blend(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int) {
        if outputMask == 0x00FF_FFFF {
            for i in 0..<count {
                dst[i] = sourceOver(scalePixel(color, by: UInt32(coverage[i])), dst[i] | 0xFF00_0000) & 0x00FF_FFFF
            }
        } else {
            for i in 0..<count { dst[i] = sourceOver(scalePixel(color, by: UInt32(coverage[i])), dst[i]) }
        }
    }

    /// Blends a coverage row, finding runs of empty, full and partial pixels and handling each run at once.
    @inlinable
    func blendRow(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int) {
        var x = 0
        while x < count {
            let c = coverage[x]
            var end = x + 1
            if c == 0 {
                while end < count && coverage[end] == 0 { end += 1 }
            } else if c == 255 {
                while end < count && coverage[end] == 255 { end += 1 }
                fill(dst + x, count: end - x)
            } else {
                while end < count && coverage[end] != 0 && coverage[end] != 255 { end += 1 }
                blend(dst + x, coverage: coverage + x, count: end - x)
            }
            x = end
        }
    }
}

/// `source` over each of `count` pixels, eight at a time with SIMD vectors, then one at a time.
/// With `outputMask` 0x00FFFFFF the destination is XRGB: read as opaque, written with X = 0.
/// `sourceOverSpanScalar` is its plain twin; a test checks they give identical pixels.
@inlinable
public func sourceOverSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, outputMask: UInt32) {
    let opaqueDst: UInt32 = outputMask == 0xFFFF_FFFF ? 0 : 0xFF00_0000
    let inv = SIMD8<UInt32>(repeating: 255 &- (source >> 24))
    let src = SIMD8<UInt32>(repeating: source)
    let lanes = SIMD8<UInt32>(repeating: 0x00FF_00FF)
    let half = SIMD8<UInt32>(repeating: 0x0080_0080)
    let high = SIMD8<UInt32>(repeating: 0xFF00_FF00)
    let orMask = SIMD8<UInt32>(repeating: opaqueDst), andMask = SIMD8<UInt32>(repeating: outputMask)
    var i = 0
    let raw = UnsafeMutableRawPointer(dst)
    while i &+ 8 <= count {
        let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt32>.self) | orMask
        var rb = (d & lanes) &* inv &+ half
        rb = ((rb &+ ((rb &>> 8) & lanes)) &>> 8) & lanes
        var ag = ((d &>> 8) & lanes) &* inv &+ half
        ag = (ag &+ ((ag &>> 8) & lanes)) & high
        raw.storeBytes(of: (src &+ (rb | ag)) & andMask, toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
        i &+= 8
    }
    while i < count {
        dst[i] = sourceOver(source, dst[i] | opaqueDst) & outputMask
        i &+= 1
    }
}

/// The scalar twin of `sourceOverSpan`, one pixel at a time.
public func sourceOverSpanScalar(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, outputMask: UInt32) {
    let opaqueDst: UInt32 = outputMask == 0xFFFF_FFFF ? 0 : 0xFF00_0000
    for i in 0..<count { dst[i] = ScalarBlend.sourceOver(source, dst[i] | opaqueDst) & outputMask }
}
