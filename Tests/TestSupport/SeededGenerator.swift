import Glibc
import Testing

/// SplitMix64: a small deterministic generator, so that random test inputs are the same on every
/// run and a failure can be replayed from the seed its message prints.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// Seeded from KIOSK_TEST_SEED when it is set (decimal, or hexadecimal after `0x`), else with
    /// `defaultSeed`: the way to replay a failure, or to try other inputs.
    public static func fromEnvironment(defaultSeed: UInt64) -> SeededGenerator {
        guard let text = getenv("KIOSK_TEST_SEED").map({ String(cString: $0) }) else { return SeededGenerator(seed: defaultSeed) }
        let seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let seed else {
            Issue.record("KIOSK_TEST_SEED=\"\(text)\" is not a number (decimal or 0x hexadecimal); using seed \(defaultSeed)")
            return SeededGenerator(seed: defaultSeed)
        }
        return SeededGenerator(seed: seed)
    }

    /// For failure messages: the seed and how to run with it again.
    public var replay: String { "seed \(seed) (KIOSK_TEST_SEED=\(seed) replays it)" }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
