/// `[speech]`: the menu spoken aloud (libespeak-ng in the process, to an ALSA device). Off by
/// default: a kiosk that talks surprises whoever did not ask for it.
public struct SpeechConfig: Sendable, Equatable {
    public var enabled: Bool
    /// The ALSA PCM to play on (`aplay -L` lists them): "default", "plughw:1,0", "hw:Loopback,0".
    public var device: String
    /// The espeak-ng voice for text whose script names no voice of its own (Latin, digits): "en",
    /// "de", "fr"... A label in Arabic, Greek, Hebrew, Cyrillic, CJK... gets its script's voice.
    public var voice: String
    /// Words per minute (espeak-ng's own range: 80 to 450).
    public var rate: Int
    /// Seconds the selection must rest before it is spoken: turning faster speaks only where it stops.
    public var settle: Double

    public init(enabled: Bool = false, device: String = "default", voice: String = "en", rate: Int = 175, settle: Double = 0.3) {
        self.enabled = enabled
        self.device = device
        self.voice = voice
        self.rate = rate
        self.settle = settle
    }
}

extension SpeechConfig {
    /// A voice's name as espeak-ng spells them: letters, digits, `-`, `_`, `+` (a variant), `/`
    /// (a directory under its voices); never a path out of them.
    public static func isVoiceName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && !name.contains("..") && !name.hasPrefix("/")
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_+/".unicodeScalars.contains($0)) }
    }
}
