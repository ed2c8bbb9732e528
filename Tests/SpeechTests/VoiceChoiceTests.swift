import Speech
import Testing

@Suite struct VoiceChoiceTests {
    @Test(arguments: [
        ("Einstellungen", "de", "de"),
        ("Settings 2", "en", "en"),
        ("الإعدادات", "en", "ar"),
        ("Ρυθμίσεις", "en", "el"),
        ("הגדרות", "en", "he"),
        ("Настройки", "en", "ru"),
        ("設定", "en", "cmn"),
        ("設定する", "en", "ja"),
        ("設定 セッティング", "en", "ja"),
        ("설정", "en", "ko"),
        ("सेटिंग्स", "en", "hi"),
        ("ตั้งค่า", "en", "th"),
        ("42", "fr", "fr"),
        ("", "fr", "fr"),
    ])
    func scriptChoosesTheVoice(text: String, fallback: String, voice: String) {
        #expect(VoiceChoice.voice(for: text, fallback: fallback) == voice)
    }

    @Test func mostLettersWin() {
        // An Arabic label with a Latin brand name is read in Arabic; a Latin one with one Greek
        // letter stays in the default voice.
        #expect(VoiceChoice.voice(for: "إعدادات Wi-Fi", fallback: "en") == "ar")
        #expect(VoiceChoice.voice(for: "Filter α", fallback: "en") == "en")
    }
}
