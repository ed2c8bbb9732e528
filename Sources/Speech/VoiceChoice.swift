/// Which espeak-ng voice reads a text: the voice of the script most of its letters are written in
/// (an Arabic label in the Arabic voice, a Greek one in the Greek voice), or the config's default
/// voice for Latin letters, digits and symbols (their language cannot be told from the script).
/// Han with kana is Japanese; Han alone is Mandarin.
public enum VoiceChoice {
    /// Scripts by Unicode block, with the espeak-ng voice that reads them.
    static let scripts: [(range: ClosedRange<UInt32>, voice: String)] = [
        (0x0370...0x03FF, "el"), (0x1F00...0x1FFF, "el"),
        (0x0400...0x052F, "ru"),
        (0x0530...0x058F, "hy"),
        (0x0590...0x05FF, "he"), (0xFB1D...0xFB4F, "he"),
        (0x0600...0x06FF, "ar"), (0x0750...0x077F, "ar"), (0xFB50...0xFDFF, "ar"), (0xFE70...0xFEFF, "ar"),
        (0x0900...0x097F, "hi"), (0x0980...0x09FF, "bn"), (0x0A00...0x0A7F, "pa"), (0x0A80...0x0AFF, "gu"),
        (0x0B00...0x0B7F, "or"), (0x0B80...0x0BFF, "ta"), (0x0C00...0x0C7F, "te"), (0x0C80...0x0CFF, "kn"),
        (0x0D00...0x0D7F, "ml"), (0x0D80...0x0DFF, "si"), (0x0E00...0x0E7F, "th"),
        (0x1000...0x109F, "my"), (0x10A0...0x10FF, "ka"), (0x1200...0x137F, "am"),
        (0x1100...0x11FF, "ko"), (0x3130...0x318F, "ko"), (0xAC00...0xD7AF, "ko"),
        (0x3040...0x30FF, "ja"), (0x31F0...0x31FF, "ja"),
        (0x3400...0x4DBF, "cmn"), (0x4E00...0x9FFF, "cmn"), (0xF900...0xFAFF, "cmn"),
    ]

    /// The voice for `text`; `fallback` (the config's voice) when no script with a voice of its
    /// own has the most letters.
    public static func voice(for text: String, fallback: String) -> String {
        var counts: [String: Int] = [:]
        var other = 0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            if let entry = scripts.first(where: { $0.range.contains(scalar.value) }) {
                counts[entry.voice, default: 0] += 1
            } else {
                other += 1
            }
        }
        // Kanji beside kana are Japanese.
        if let han = counts["cmn"], counts["ja"] != nil {
            counts["cmn"] = nil
            counts["ja", default: 0] += han
        }
        guard let best = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), best.value > other else { return fallback }
        return best.key
    }
}
