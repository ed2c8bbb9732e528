import Glibc
import KioskSystem
import Speech
import TestSupport
import Testing

/// espeak-ng and ALSA for real: the worker speaks into ALSA's `file` plugin (a raw file beside the
/// `null` device, no sound card needed), and the capture is compared with `espeak-ng -w` of the
/// same text and voice. espeak-ng is one engine per process, loaded once (loading it again after
/// `espeak_Terminate` in the same process gives other samples), so the tests share one worker,
/// as the kiosk does; its data is a copy of espeak-ng's without the Greek voice.
/// espeak-ng's own program makes the reference samples.
let hasEspeakProgram = access("/usr/bin/espeak-ng", X_OK) == 0

@Suite(.serialized, .enabled(if: hasEspeakProgram)) struct SpeechPlaybackTests {
    static let folder = try! TemporaryFolder()
    static let worker: SpeechWorker = {
        let data = folder.path + "/espeak-ng-data"
        _ = try! run(["/bin/cp", "-r", espeakData, data])
        _ = try! run(["/bin/rm", "-f", data + "/lang/grk/el"])
        return try! SpeechWorker(settings: SpeechSettings(device: "null", voice: "en", rate: 175), dataPath: data)
    }()

    /// Says `text` into a new raw file; its samples and the health once it was spoken or failed.
    func say(_ text: String, device: String? = nil) throws -> ([Int16], SpeechHealth) {
        let before = Self.worker.health
        let raw = Self.folder.path + "/said-\(before.spoken + before.cut).raw"
        Self.worker.configure(SpeechSettings(device: device ?? "file:FILE=\(raw),FORMAT=raw", voice: "en", rate: 175))
        Self.worker.say(text)
        let health = try Self.waitFor { $0.spoken > before.spoken || ($0.state == "failed" && $0.problem != before.problem) }
        return (device == nil ? try Self.samples(raw) : [], health)
    }

    @Test func spokenSamplesMatchEspeakNg() throws {
        let (said, health) = try say("Coffee")
        #expect(health.state == "ready", "\(health)")
        let same = AudioMatch.similarity(said, try Self.reference("Coffee", voice: "en"))
        #expect(same > AudioMatch.sameThreshold, "same word: \(same)")
        // The comparison tells another word, a near one, and the same word in another voice apart.
        for (text, voice) in [("Settings", "en"), ("Toffee", "en"), ("Coffee", "de")] {
            let other = AudioMatch.similarity(said, try Self.reference(text, voice: voice))
            #expect(other < AudioMatch.sameThreshold, "\(text) in \(voice): \(other)")
        }
    }

    @Test func anArabicLabelIsReadInTheArabicVoice() throws {
        let (said, _) = try say("قهوة")
        let reference = try Self.reference("قهوة", voice: "ar")
        let arabic = AudioMatch.similarity(said, reference)
        #expect(arabic > AudioMatch.sameThreshold, "\(arabic)")
        #expect(AudioMatch.similarity(said, try Self.reference("قهوة", voice: "en")) < AudioMatch.sameThreshold)
    }

    @Test func aMissingVoiceFallsBackToTheDefault() throws {
        // The worker's data has no Greek voice: a Greek label is read by the default voice, and
        // the health names the voice missing (logged once).
        let (said, health) = try say("Ρυθμίσεις")
        #expect(health.missingVoices == ["el"], "\(health)")
        #expect(!said.isEmpty)
    }

    @Test func aDeviceThatDoesNotExistIsReportedNotFatal() throws {
        let (_, health) = try say("Coffee", device: "hw:NoSuchCard,0")
        #expect(health.state == "failed" && health.problem?.contains("hw:NoSuchCard,0") == true, "\(health)")
        // The next utterance on a device that works plays again.
        let (said, after) = try say("Tea")
        #expect(after.state == "ready" && !said.isEmpty, "\(after)")
    }

    @Test func theNextUtteranceCutsTheOneSpeaking() throws {
        // A file takes samples as fast as they are made, so the cut is caught in the synthesis:
        // a text of some 40 s of speech, cut as soon as its first samples reached the file.
        let before = Self.worker.health
        let raw = Self.folder.path + "/cut.raw"
        Self.worker.configure(SpeechSettings(device: "file:FILE=\(raw),FORMAT=raw", voice: "en", rate: 175))
        let long = Array(repeating: "This sentence is said again and again until the next movement cuts it off.", count: 20).joined(separator: " ")
        Self.worker.say(long)
        let end = MonotonicClock.now() + Patience.seconds
        var size = stat()
        while MonotonicClock.now() < end, stat(raw, &size) != 0 || size.st_size == 0 { usleep(1000) }
        Self.worker.say("Tea")
        let health = try Self.waitFor { $0.cut > before.cut && $0.spoken > before.spoken }
        #expect(health.cut == before.cut + 1 && health.spoken == before.spoken + 1, "\(health)")
        // What reached the file before the cut is a small part of the whole (40 s, 880,000 samples).
        let said = try Self.samples(raw)
        #expect(said.count < 200_000, "\(said.count) samples before the cut")
    }

    @Test func releaseClosesTheDeviceUntilTheNextConfigure() throws {
        // ALSA's file plugin holds its file open as long as the PCM is: the process's descriptors tell.
        let raw = Self.folder.path + "/release.raw"
        let settings = SpeechSettings(device: "file:FILE=\(raw),FORMAT=raw", voice: "en", rate: 175)
        let before = Self.worker.health
        Self.worker.configure(settings)
        Self.worker.say("Coffee")
        let spoken = try Self.waitFor { $0.spoken > before.spoken }
        #expect(spoken.state == "ready", "\(spoken)")
        #expect(Self.descriptors(to: raw) == 1)
        // A config that turns speech off.
        Self.worker.release()
        let off = try Self.waitFor { $0.state == "off" }
        #expect(off.state == "off", "\(off)")
        #expect(Self.descriptors(to: raw) == 0)
        // One that turns it on again opens the device again.
        Self.worker.configure(settings)
        Self.worker.say("Tea")
        let again = try Self.waitFor { $0.spoken > off.spoken }
        #expect(again.state == "ready" && again.spoken == off.spoken + 1, "\(again)")
        #expect(Self.descriptors(to: raw) == 1)
    }

    // MARK: Helpers

    /// How many of this process's descriptors are open on `path` (/proc/self/fd).
    static func descriptors(to path: String) -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard name != ".", name != ".." else { continue }
            let n = readlink("/proc/self/fd/" + name, &target, target.count - 1)
            guard n > 0 else { continue }
            if String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == path { count += 1 }
        }
        return count
    }

    static let espeakData: String = {
        let candidates: [String] = ["/usr/lib/x86_64-linux-gnu/espeak-ng-data", "/usr/lib/aarch64-linux-gnu/espeak-ng-data"]
        return candidates.first { access($0, R_OK) == 0 } ?? "/usr/share/espeak-ng-data"
    }()

    static func waitFor(timeout: Double = Patience.seconds, _ done: (SpeechHealth) -> Bool) throws -> SpeechHealth {
        let end = MonotonicClock.now() + timeout
        while MonotonicClock.now() < end {
            let h = worker.health
            if done(h) { return h }
            usleep(10_000)
        }
        return worker.health
    }

    static func samples(_ path: String) throws -> [Int16] {
        guard let file = fopen(path, "rb") else { throw SystemError.last("fopen \(path)") }
        defer { fclose(file) }
        var out: [Int16] = []
        var chunk = [Int16](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBufferPointer { fread($0.baseAddress, 2, $0.count, file) }
            if n == 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// `espeak-ng -w` of `text` in `voice`, its 16-bit samples after the 44-byte WAV header.
    static func reference(_ text: String, voice: String) throws -> [Int16] {
        let wav = folder.path + "/reference-\(voice)-\(text.unicodeScalars.map { String($0.value) }.joined(separator: "-")).wav"
        let status = try run(["/usr/bin/espeak-ng", "-v", voice, "-s", "175", "-w", wav, text])
        #expect(status == 0)
        return Array(try samples(wav).dropFirst(22))
    }

    static func run(_ argv: [String]) throws -> Int32 {
        var pid = pid_t()
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        let err = posix_spawn(&pid, argv[0], nil, nil, &cArgs, environ)
        guard err == 0 else { throw SystemError("posix_spawn", errno: err) }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xff
    }
}

/// A folder under /tmp for the suite's files.
final class TemporaryFolder: Sendable {
    let path: String
    init() throws {
        var template = Array("/tmp/speech-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        guard let made else { throw SystemError.last("mkdtemp") }
        path = made
    }
}
