import CSIMDBuiltins

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

    /// Pixels with their own coverage bytes, eight at a time: runs of eight empty pixels are skipped and
    /// runs of eight full ones filled; everything else goes through the vector blend, which is exact
    /// for coverage 0 and 255 too, so a chunk never needs splitting.
    @inlinable
    func blendRow(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int) {
        var x = 0
        let raw = UnsafeRawPointer(coverage)
        while x &+ 8 <= count {
            let chunk = raw.loadUnaligned(fromByteOffset: x, as: UInt64.self)
            if chunk == ~0 {
                fill(dst + x, count: 8)
            } else if chunk != 0 {
                coverageOverSpan(dst + x, coverage: coverage + x, count: 8, source: color, outputMask: outputMask)
            }
            x &+= 8
        }
        if x < count {
            coverageOverSpanScalar(dst + x, coverage: coverage + x, count: count &- x, source: color, outputMask: outputMask)
        }
    }
}

/// `source` over each of `count` pixels, eight at a time with SIMD vectors, then one at a time.
/// With `outputMask` 0x00FFFFFF the destination is XRGB: read as opaque, written with X = 0.
/// The vector loop works in 16-bit lanes (one channel each, even and odd bytes apart) because a
/// 16-bit multiply is one instruction on every SIMD unit, while baseline x86-64 has no 32-bit one.
/// `sourceOverSpanScalar` is its plain twin; a test checks they give identical pixels.
@inlinable
public func sourceOverSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, outputMask: UInt32) {
    let opaqueDst: UInt32 = outputMask == 0xFFFF_FFFF ? 0 : 0xFF00_0000
    typealias Lanes = SIMD16<UInt16>
    let inv = Lanes(repeating: UInt16(truncatingIfNeeded: 255 &- (source >> 24)))
    let src = splatLanes(source)
    let low = Lanes(repeating: 0x00FF), half = Lanes(repeating: 0x0080)
    // The destination's alpha only reaches its own byte, which XRGB masks off: no need to set it.
    let andMask = splatLanes(outputMask)
    var i = 0
    let raw = UnsafeMutableRawPointer(dst)
    while i &+ 8 <= count {
        let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: Lanes.self)
        // Even bytes (blue, red) and odd bytes (green, alpha) times inv, each divided by 255 exactly.
        let rb = div255Lanes((d & low) &* inv &+ half)
        let ag = div255Lanes((d &>> 8) &* inv &+ half) &<< 8
        // No channel exceeds 255 (premultiplied), so the sum carries nothing between bytes.
        raw.storeBytes(of: (src &+ (rb | ag)) & andMask, toByteOffset: i &* 4, as: Lanes.self)
        i &+= 8
    }
    while i < count {
        dst[i] = sourceOver(source, dst[i] | opaqueDst) & outputMask
        i &+= 1
    }
}

/// `t / 255` rounded, in each lane, given `t + 128` (exact for every product of two bytes):
/// `(t · 257) >> 16`, one multiply-high instruction instead of two shifts and an add.
@inlinable @inline(__always)
func div255Lanes(_ t: SIMD16<UInt16>) -> SIMD16<UInt16> {
    kiosk_mulhi_u16x16(t, SIMD16<UInt16>(repeating: 257))
}

/// Eight copies of `pixel`, seen as the 16 channel lanes the blend loops work in.
@inlinable @inline(__always)
func splatLanes(_ pixel: UInt32) -> SIMD16<UInt16> {
    unsafeBitCast(SIMD8<UInt32>(repeating: pixel), to: SIMD16<UInt16>.self)
}

/// The scalar twin of `sourceOverSpan`, one pixel at a time.
public func sourceOverSpanScalar(_ dst: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32, outputMask: UInt32) {
    let opaqueDst: UInt32 = outputMask == 0xFFFF_FFFF ? 0 : 0xFF00_0000
    for i in 0..<count { dst[i] = ScalarBlend.sourceOver(source, dst[i] | opaqueDst) & outputMask }
}

/// `source` scaled by each pixel's coverage byte, then over the pixel: eight pixels at a time in
/// 16-bit lanes (as `sourceOverSpan`), then one at a time. `coverageOverSpanScalar` is its plain twin.
@inlinable
public func coverageOverSpan(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int,
                             source: UInt32, outputMask: UInt32) {
    typealias Lanes = SIMD16<UInt16>
    let low = Lanes(repeating: 0x00FF), half = Lanes(repeating: 0x0080), all = SIMD8<UInt32>(repeating: 255)
    let srcEven = splatLanes(source) & low, srcOdd = splatLanes(source) &>> 8
    // The destination's alpha only reaches its own byte, which XRGB masks off: no need to set it.
    let andMask = splatLanes(outputMask)
    var i = 0
    let raw = UnsafeMutableRawPointer(dst)
    while i &+ 8 <= count {
        // Each pixel's coverage in both of its 16-bit lanes.
        let c = coverage + i
        @inline(__always) func pair(_ k: Int) -> UInt32 { UInt32(c[k]) &* 0x0001_0001 }
        let cov = unsafeBitCast(SIMD8<UInt32>(pair(0), pair(1), pair(2), pair(3), pair(4), pair(5), pair(6), pair(7)), to: Lanes.self)
        let sEven = div255Lanes(srcEven &* cov &+ half)
        let sOdd = div255Lanes(srcOdd &* cov &+ half)
        // 255 minus the scaled source alpha (the high lane of each odd pair), in both lanes.
        let alpha = unsafeBitCast(sOdd, to: SIMD8<UInt32>.self) &>> 16
        let inv32 = all &- alpha
        let inv = unsafeBitCast(inv32 | (inv32 &<< 16), to: Lanes.self)
        let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: Lanes.self)
        let even = sEven &+ div255Lanes((d & low) &* inv &+ half)
        let odd = sOdd &+ div255Lanes((d &>> 8) &* inv &+ half)
        raw.storeBytes(of: (even | (odd &<< 8)) & andMask, toByteOffset: i &* 4, as: Lanes.self)
        i &+= 8
    }
    if i < count {
        coverageOverSpanScalar(dst + i, coverage: coverage + i, count: count &- i, source: source, outputMask: outputMask)
    }
}

/// The scalar twin of `coverageOverSpan`, one pixel at a time.
@inlinable
public func coverageOverSpanScalar(_ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int,
                                   source: UInt32, outputMask: UInt32) {
    let opaqueDst: UInt32 = outputMask == 0xFFFF_FFFF ? 0 : 0xFF00_0000
    for i in 0..<count {
        dst[i] = sourceOver(scalePixel(source, by: UInt32(coverage[i])), dst[i] | opaqueDst) & outputMask
    }
}
