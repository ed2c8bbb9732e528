import Geometry
import Raster
import Testing
import TestSupport

@Suite struct BlendTests {
    @Test func div255IsExactForEveryProductOfTwoBytes() {
        for x in UInt32(0)...65025 {
            let rounded = UInt32((Double(x) / 255).rounded())
            if div255(x) != rounded { Issue.record("div255(\(x)) = \(div255(x)), expected \(rounded)"); return }
        }
    }

    @Test func swarScaleMatchesScalarForAllChannelValuesAndAlphas() {
        for v in UInt32(0)...255 {
            let p = (v << 24) | ((255 - v) << 16) | (v << 8) | (v ^ 0x5A)
            for a in UInt32(0)...255 where scalePixel(p, by: a) != ScalarBlend.scale(p, by: a) {
                Issue.record("scalePixel(\(p), \(a))"); return
            }
        }
    }

    @Test func swarSourceOverMatchesScalarOnPremultipliedPixels() {
        var rng = SeededGenerator.fromEnvironment(defaultSeed: 1)
        for _ in 0..<200_000 {
            let sa = UInt32.random(in: 0...255, using: &rng), da = UInt32.random(in: 0...255, using: &rng)
            let src = (sa << 24) | (UInt32.random(in: 0...sa, using: &rng) << 16) | (UInt32.random(in: 0...sa, using: &rng) << 8) | UInt32.random(in: 0...sa, using: &rng)
            let dst = (da << 24) | (UInt32.random(in: 0...da, using: &rng) << 16) | (UInt32.random(in: 0...da, using: &rng) << 8) | UInt32.random(in: 0...da, using: &rng)
            let fast = sourceOver(src, dst), slow = ScalarBlend.sourceOver(src, dst)
            if fast != slow { Issue.record("sourceOver(\(src), \(dst)) = \(fast), scalar \(slow); \(rng.replay)"); return }
            // Never overflows a channel past alpha.
            #expect(fast >> 24 >= (fast >> 16) & 0xFF, "sourceOver(\(src), \(dst)) = \(fast); \(rng.replay)")
        }
    }

    @Test func opacityComposesExactly() throws {
        // #202833 at 0.85 over white: each channel = c*a/255 + 255*(255-a)/255, a = round(0.85*255) = 217.
        let buf = try PixelBuffer(width: 4, height: 1)
        let canvas = Canvas(buf)
        canvas.clear(.white)
        canvas.fill(Rect(x: 0, y: 0, width: 4, height: 1), color: Color(rgb: 0x202833), opacity: 0.85)
        let a: UInt32 = 217
        func ch(_ c: UInt32) -> UInt32 { div255(c * a) + div255(255 * (255 - a)) }
        #expect(buf[2, 0]! == (ch(0x20) << 16) | (ch(0x28) << 8) | ch(0x33))
    }

    @Test func colorPremultipliesAndClampsOpacity() {
        #expect(Color(rgb: 0xFF8000).premultiplied(opacity: 0.5) == 0x8080_4000)
        #expect(Color(rgb: 0xFFFFFF).premultiplied(opacity: .nan) == 0)
        #expect(Color(rgb: 0xFFFFFF).premultiplied(opacity: 7) == 0xFFFF_FFFF)
    }
}

/// A premultiplied pixel with the given alpha and random colour channels no larger than it.
func randomPremultiplied(alpha a: UInt32, using rng: inout SeededGenerator) -> UInt32 {
    (a << 24) | (UInt32.random(in: 0...a, using: &rng) << 16) | (UInt32.random(in: 0...a, using: &rng) << 8) | UInt32.random(in: 0...a, using: &rng)
}

/// A destination pixel: premultiplied with random alpha for ARGB, opaque colour with X = 0 for XRGB.
func randomDestination(outputMask: UInt32, using rng: inout SeededGenerator) -> UInt32 {
    if outputMask == 0xFFFF_FFFF { return randomPremultiplied(alpha: UInt32.random(in: 0...255, using: &rng), using: &rng) }
    return randomPremultiplied(alpha: 255, using: &rng) & 0x00FF_FFFF
}

@Suite struct SIMDTwinTests {
    /// The vector span blend and its scalar twin give identical pixels, for XRGB and ARGB targets,
    /// every span length 0...40 (so the vector body and the tail both run), random sources and backgrounds.
    @Test(arguments: [UInt32(0x00FF_FFFF), 0xFFFF_FFFF])
    func spanBlendMatchesScalar(outputMask: UInt32) {
        var rng = SeededGenerator.fromEnvironment(defaultSeed: 2)
        for length in 0...40 {
            for _ in 0..<200 {
                let source = randomPremultiplied(alpha: UInt32.random(in: 0...255, using: &rng), using: &rng)
                var fast = (0..<length).map { _ in randomDestination(outputMask: outputMask, using: &rng) }
                var slow = fast
                fast.withUnsafeMutableBufferPointer { sourceOverSpan($0.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!, count: length, source: source, outputMask: outputMask) }
                slow.withUnsafeMutableBufferPointer { sourceOverSpanScalar($0.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!, count: length, source: source, outputMask: outputMask) }
                if fast != slow { Issue.record("length \(length) source \(source): \(fast) vs \(slow); \(rng.replay)"); return }
            }
        }
    }

    /// The vector coverage blend gives, for every span length 0...40 and random coverage (with
    /// runs of 0 and 255 mixed in), exactly the pixels of the per-channel reference `ScalarBlend`.
    @Test(arguments: [UInt32(0x00FF_FFFF), 0xFFFF_FFFF])
    func coverageBlendMatchesScalarReference(outputMask: UInt32) {
        var rng = SeededGenerator.fromEnvironment(defaultSeed: 3)
        for length in 0...40 {
            for _ in 0..<200 {
                let source = randomPremultiplied(alpha: UInt32.random(in: 0...255, using: &rng), using: &rng)
                let coverage = (0..<length).map { _ -> UInt8 in
                    switch UInt8.random(in: 0...3, using: &rng) {
                    case 0: 0
                    case 1: 255
                    default: UInt8.random(in: 0...255, using: &rng)
                    }
                }
                var fast = (0..<length).map { _ in randomDestination(outputMask: outputMask, using: &rng) }
                let opaqueDst: UInt32 = outputMask == 0xFFFF_FFFF ? 0 : 0xFF00_0000
                let expected = fast.indices.map { i in
                    ScalarBlend.sourceOver(ScalarBlend.scale(source, by: UInt32(coverage[i])), fast[i] | opaqueDst) & outputMask
                }
                coverage.withUnsafeBufferPointer { cov in
                    fast.withUnsafeMutableBufferPointer {
                        coverageOverSpan($0.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!, coverage: cov.baseAddress ?? UnsafePointer(bitPattern: 16)!,
                                         count: length, source: source, outputMask: outputMask)
                    }
                }
                if fast != expected { Issue.record("length \(length) source \(source) coverage \(coverage): \(fast) vs \(expected); \(rng.replay)"); return }
            }
        }
    }
}
