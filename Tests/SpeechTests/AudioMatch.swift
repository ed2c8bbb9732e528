import Foundation

/// How alike two recordings of speech are: the normalised cross-correlation of their log-magnitude
/// spectrograms (64 frequencies from 100 Hz to 5 kHz, 512-sample Hann frames every 256 samples),
/// at the best shift of up to `maxLag` frames. Spectrograms, not raw samples: espeak-ng carries its
/// voice source's phase from one utterance to the next, so the same word said twice in one process
/// has the same spectrogram but not the same samples (raw-sample correlation of "قهوة" said after
/// "Coffee" against `espeak-ng -w` of it: 0.38; spectrograms: 0.98). Measured with espeak-ng 1.51:
/// the same text and voice ≥ 0.97; another word ≤ 0.45; "Toffee" for "Coffee" 0.82; "Coffee" in
/// the German voice 0.83. Silence at either end is trimmed first.
enum AudioMatch {
    /// Above this the recordings say the same text in the same voice (see above).
    static let sameThreshold = 0.93

    static func similarity(_ a: [Int16], _ b: [Int16], rate: Double = 22050, maxLag: Int = 20) -> Double {
        let x = spectrogram(trimmed(a), rate: rate), y = spectrogram(trimmed(b), rate: rate)
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        let mx = mean(x), my = mean(y)
        let norm = (sumSquares(x, mx) * sumSquares(y, my)).squareRoot()
        guard norm > 0 else { return 0 }
        var best = -1.0
        for lag in -maxLag...maxLag {
            let xs = lag >= 0 ? lag : 0, ys = lag >= 0 ? 0 : -lag
            let count = min(x.count - xs, y.count - ys)
            guard count > 0 else { continue }
            var sum = 0.0
            for f in 0..<count {
                for (p, q) in zip(x[xs + f], y[ys + f]) { sum += (p - mx) * (q - my) }
            }
            best = max(best, sum / norm)
        }
        return best
    }

    static func spectrogram(_ s: ArraySlice<Int16>, rate: Double, size: Int = 512, hop: Int = 256) -> [[Double]] {
        let samples = s.map(Double.init)
        let frequencies = (0..<64).map { 100 + Double($0) * (4900 / 63) }
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size - 1)) }
        let basis = frequencies.map { f in (0..<size).map { t in (cos(2 * .pi * f * Double(t) / rate), sin(2 * .pi * f * Double(t) / rate)) } }
        var frames: [[Double]] = []
        var start = 0
        while start + size < samples.count {
            frames.append(basis.map { wave in
                var re = 0.0, im = 0.0
                for t in 0..<size {
                    let v = samples[start + t] * window[t]
                    re += v * wave[t].0
                    im += v * wave[t].1
                }
                return log1p((re * re + im * im).squareRoot())
            })
            start += hop
        }
        return frames
    }

    static func mean(_ m: [[Double]]) -> Double { m.reduce(0) { $0 + $1.reduce(0, +) } / Double(m.count * m[0].count) }

    static func sumSquares(_ m: [[Double]], _ mean: Double) -> Double {
        m.reduce(0) { $0 + $1.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } }
    }

    /// Without the samples quieter than `floor` at either end.
    static func trimmed(_ s: [Int16], floor: Int16 = 200) -> ArraySlice<Int16> {
        guard let first = s.firstIndex(where: { abs(Int($0)) > Int(floor) }),
              let last = s.lastIndex(where: { abs(Int($0)) > Int(floor) }) else { return [] }
        return s[first...last]
    }
}
