import CEspeak
import Glibc
import Synchronization

/// libespeak-ng, opened when the first synthesizer is made (a config that speaks), never before.
public enum EspeakLibrary {
    public static let soname = "libespeak-ng.so.1"
    /// Nil when it cannot be opened; `problem` says why.
    static let functions: KioskEspeakFunctions? = kiosk_espeak_functions()?.pointee
    static var problem: String { String(cString: kiosk_espeak_problem()) }

    /// Why `soname` cannot serve as libespeak-ng; nil when it can (tests: a library not there).
    public static func problem(opening soname: String) -> String? {
        var why = [CChar](repeating: 0, count: 512)
        return why.withUnsafeMutableBufferPointer { kiosk_espeak_problem_opening(soname, $0.baseAddress!, $0.count).map { String(cString: $0) } }
    }
}

/// libespeak-ng in the process: its data loaded once, text turned into 16-bit mono samples handed
/// to the caller as they are made. espeak-ng is one global engine per process, so there is at
/// most one `EspeakSynth` at a time (a second `init` throws); its deinit terminates the engine.
/// Used from one thread only (the speech worker's).
public final class EspeakSynth {
    public let sampleRate: Int
    /// libespeak-ng's functions (`EspeakLibrary`).
    private let lib: KioskEspeakFunctions
    private var voice: String?
    private static let exists = Atomic<Bool>(false)
    /// Whether an `EspeakSynth` exists now (a new one would be refused).
    public static var inUse: Bool { exists.load(ordering: .acquiring) }

    /// Loads espeak-ng's data (`dataPath`, nil: the library's own, /usr/lib/…/espeak-ng-data).
    /// `chunkMilliseconds`: how much audio each callback hands over.
    public init(dataPath: String? = nil, chunkMilliseconds: Int32 = 40) throws(SpeechError) {
        guard let lib = EspeakLibrary.functions else {
            throw SpeechError("dlopen(\(EspeakLibrary.soname))", "speech needs libespeak-ng (Debian: apt install libespeak-ng1): \(EspeakLibrary.problem)")
        }
        guard Self.exists.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw SpeechError("espeak_ng_Initialize", "espeak-ng is already in use in this process")
        }
        self.lib = lib
        lib.espeak_ng_InitializePath(dataPath)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = lib.espeak_ng_Initialize(&context)
        lib.espeak_ng_ClearErrorContext(&context)
        guard status == ENS_OK else {
            Self.exists.store(false, ordering: .releasing)
            throw Self.error(lib, "espeak_ng_Initialize", status)
        }
        let output = lib.espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, chunkMilliseconds, nil)
        guard output == ENS_OK else {
            lib.espeak_Terminate()
            Self.exists.store(false, ordering: .releasing)
            throw Self.error(lib, "espeak_ng_InitializeOutput", output)
        }
        sampleRate = Int(lib.espeak_ng_GetSampleRate())
        lib.espeak_SetSynthCallback { samples, count, events in
            guard let events, let context = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<SampleSink>.fromOpaque(context).takeUnretainedValue()
            guard let samples, count > 0 else { return sink.wantsMore() ? 0 : 1 }
            return sink.hand(UnsafeBufferPointer(start: samples, count: Int(count))) ? 0 : 1
        }
    }

    deinit {
        lib.espeak_Terminate()
        Self.exists.store(false, ordering: .releasing)
    }

    /// Chooses the voice by espeak-ng's name ("en", "ar", "cmn"); throws when it has none by that name.
    public func setVoice(_ name: String) throws(SpeechError) {
        guard name != voice else { return }
        let status = lib.espeak_ng_SetVoiceByName(name)
        guard status == ENS_OK else { throw Self.error(lib, "espeak_ng_SetVoiceByName(\(name))", status) }
        voice = name
    }

    /// Words per minute.
    public func setRate(_ wordsPerMinute: Int) throws(SpeechError) {
        let status = lib.espeak_ng_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
        guard status == ENS_OK else { throw Self.error(lib, "espeak_ng_SetParameter(rate)", status) }
    }

    /// Synthesizes `text` (UTF-8) in the voice set, handing the samples to `take` as they are made;
    /// `take` returns false to stop the synthesis there. Returns whether it ran to the end.
    @discardableResult
    public func synthesize(_ text: String, _ take: @escaping (UnsafeBufferPointer<Int16>) -> Bool) throws(SpeechError) -> Bool {
        let sink = SampleSink(take)
        let status = withExtendedLifetime(sink) {
            text.withCString { chars in
                lib.espeak_ng_Synthesize(chars, strlen(chars) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8),
                                     nil, Unmanaged.passUnretained(sink).toOpaque())
            }
        }
        // A stop asked for by the callback ends the synthesis early, which is no error.
        guard status == ENS_OK || status == ENS_SPEECH_STOPPED || sink.stopped else { throw Self.error(lib, "espeak_ng_Synthesize", status) }
        return !sink.stopped
    }

    private static func error(_ lib: KioskEspeakFunctions, _ call: String, _ status: espeak_ng_STATUS) -> SpeechError {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { lib.espeak_ng_GetStatusCodeMessage(status, $0.baseAddress, $0.count) }
        return SpeechError(call, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// The callback's way back to the caller of `synthesize`: the closure taking samples, and
/// whether it asked to stop.
private final class SampleSink {
    private let take: (UnsafeBufferPointer<Int16>) -> Bool
    private(set) var stopped = false

    init(_ take: @escaping (UnsafeBufferPointer<Int16>) -> Bool) { self.take = take }

    /// Hands `samples` over; false once the taker asked to stop.
    func hand(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        if !stopped, !take(samples) { stopped = true }
        return !stopped
    }

    /// An empty callback (events only): go on unless asked to stop.
    func wantsMore() -> Bool { !stopped }
}
