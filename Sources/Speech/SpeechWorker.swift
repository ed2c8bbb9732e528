import Glibc
import KioskSystem
import Synchronization

/// What the worker speaks with: the ALSA device, the default voice, the rate.
public struct SpeechSettings: Sendable, Equatable {
    public var device: String
    public var voice: String
    public var rate: Int

    public init(device: String, voice: String, rate: Int) {
        self.device = device
        self.voice = voice
        self.rate = rate
    }
}

/// How speaking goes, for the status file and the metrics.
public struct SpeechHealth: Sendable, Equatable {
    /// "starting", "ready" (espeak-ng loaded, the device open), "off" (released: the device
    /// closed, espeak-ng kept), or "failed" (`problem` says why).
    public var state: String = "starting"
    public var problem: String?
    /// Utterances played to their end, and cut off by the next movement.
    public var spoken = 0
    public var cut = 0
    /// Voices a label's script asked for that espeak-ng did not have (the default voice read them).
    public var missingVoices: [String] = []

    public init() {}
}

/// Speaks on a thread of its own, so that loading espeak-ng's data, synthesizing and playing
/// never hold up the event loop: `say` hands over a text and returns; `cut` silences what is being
/// said within one synthesis chunk and the device's short buffer (`snd_pcm_drop`). The thread owns
/// the one `EspeakSynth` and the `AlsaPlayback`; the device is opened at the first utterance and
/// again after a failure, so a device that was busy or absent is tried again at the next.
/// `release` closes the device (a config that stops speaking) until the next `configure`.
public final class SpeechWorker: Sendable {
    private let shared: Shared

    /// Starts the thread; `dataPath`: espeak-ng's data (nil: the library's own).
    public init(settings: SpeechSettings, dataPath: String? = nil) throws(SystemError) {
        shared = Shared(settings: settings)
        let wake = try WakeSource(blocking: true)
        let changed = try WakeSource()
        shared.wake = wake
        shared.changed = changed
        let thread = WorkerThread(shared: shared, dataPath: dataPath)
        try startDetachedThread { thread.run() }
    }

    /// The thread ends after what it is saying (cut now) without being waited for.
    deinit {
        shared.state.withLock {
            $0.stopping = true
            $0.generation &+= 1
        }
        shared.wake?.signal()
    }

    /// Readable when the health changed (`health` clears it).
    public var healthChanged: Int32 { shared.changed!.descriptor.rawValue }

    public var health: SpeechHealth {
        shared.changed?.acknowledge()
        return shared.state.withLock { $0.health }
    }

    /// Speaks with `settings` from now on; after `release`, opens the device again.
    public func configure(_ settings: SpeechSettings) {
        shared.state.withLock {
            $0.settings = settings
            $0.released = false
        }
        shared.wake?.signal()
    }

    /// Silences what is being said and closes the device, so that another program can have it;
    /// espeak-ng stays loaded (it is one engine per process). The health says "off" once closed.
    public func release() {
        shared.state.withLock {
            $0.generation &+= 1
            $0.next = nil
            $0.released = true
        }
        shared.wake?.signal()
    }

    /// Says `text`, cutting off whatever is being said.
    public func say(_ text: String) {
        shared.state.withLock {
            $0.generation &+= 1
            $0.next = (text, $0.generation)
        }
        shared.wake?.signal()
    }

    /// Silences what is being said, and drops what was waiting.
    public func cut() {
        shared.state.withLock {
            $0.generation &+= 1
            $0.next = nil
        }
    }
}

/// The requests and the health behind one lock; the worker's eventfd and the loop's.
private final class Shared: @unchecked Sendable {
    struct State {
        var settings: SpeechSettings
        var next: (text: String, generation: UInt64)?
        var generation: UInt64 = 0
        var stopping = false
        /// `release` asked for the device to be closed; `configure` clears it.
        var released = false
        var health = SpeechHealth()
    }

    let state: Mutex<State>
    // Set once in `SpeechWorker.init`, before the thread starts; never changed after.
    var wake: WakeSource?
    var changed: WakeSource?

    init(settings: SpeechSettings) { state = Mutex(State(settings: settings)) }

    func isCurrent(_ generation: UInt64) -> Bool { state.withLock { !$0.stopping && $0.generation == generation } }

    func update(_ change: (inout SpeechHealth) -> Void) {
        let changed = state.withLock { s -> Bool in
            let before = s.health
            change(&s.health)
            return s.health != before
        }
        if changed { self.changed?.signal() }
    }
}

/// The thread's side: the engine and the device, touched by this thread only.
private final class WorkerThread: @unchecked Sendable {
    let shared: Shared
    let dataPath: String?
    var synth: EspeakSynth?
    /// Why espeak-ng could not start: it is not tried again (its data does not come back by itself).
    var synthFailure: SpeechError?
    var playback: AlsaPlayback?
    var applied: SpeechSettings?
    /// The last problem logged, so a device that stays absent is logged once.
    var lastLogged: String?

    init(shared: Shared, dataPath: String?) {
        self.shared = shared
        self.dataPath = dataPath
    }

    func run() {
        while true {
            shared.wake?.acknowledge()
            guard let (settings, job, released) = take() else {
                Log.info("speech: worker stopping")
                playback = nil
                synth = nil
                return
            }
            if released {
                if playback != nil { Log.info("speech: off; ALSA device \(settings.device) closed") }
                playback = nil
                shared.update {
                    $0.state = "off"
                    $0.problem = nil
                }
                continue
            }
            prepare(settings)
            if let job { speak(job.text, generation: job.generation, settings: settings) }
        }
    }

    /// The settings, the text waiting if any, and whether the device is to be closed; nil when
    /// the owner is gone.
    private func take() -> (SpeechSettings, (text: String, generation: UInt64)?, Bool)? {
        shared.state.withLock { s in
            if s.stopping { return nil }
            defer { s.next = nil }
            return (s.settings, s.next, s.released)
        }
    }

    /// espeak-ng loaded and the device open for `settings`; a failure is logged and put in the health.
    private func prepare(_ settings: SpeechSettings) {
        if synth == nil, synthFailure == nil {
            do {
                synth = try EspeakSynth(dataPath: dataPath)
            } catch {
                synthFailure = error
                fail("espeak-ng: \(error)")
                return
            }
        }
        guard let synth else { return }
        if settings != applied {
            if settings.device != applied?.device { playback = nil }
            do {
                try synth.setRate(settings.rate)
            } catch {
                fail("\(error)")
            }
            applied = settings
        }
        if playback == nil {
            do {
                playback = try AlsaPlayback(device: settings.device, sampleRate: synth.sampleRate)
                lastLogged = nil
                Log.info("speech: playing on ALSA device \(settings.device) at \(synth.sampleRate) Hz")
                shared.update {
                    $0.state = "ready"
                    $0.problem = nil
                }
            } catch {
                fail("ALSA device \(settings.device): \(error)")
            }
        }
    }

    private func fail(_ problem: String) {
        if problem != lastLogged { Log.error("speech: \(problem); the menu goes on silently") }
        lastLogged = problem
        shared.update {
            $0.state = "failed"
            $0.problem = problem
        }
    }

    private func speak(_ text: String, generation: UInt64, settings: SpeechSettings) {
        guard let synth, let playback, shared.isCurrent(generation) else { return }
        let wanted = VoiceChoice.voice(for: text, fallback: settings.voice)
        var voice = wanted
        do {
            try synth.setVoice(wanted)
        } catch {
            if wanted != settings.voice {
                let missing = shared.state.withLock { !$0.health.missingVoices.contains(wanted) }
                if missing { Log.warning("speech: espeak-ng has no voice \"\(wanted)\" (\(error)); \(settings.voice) reads such labels") }
                shared.update { if !$0.missingVoices.contains(wanted) { $0.missingVoices.append(wanted) } }
            }
            do {
                try synth.setVoice(settings.voice)
                voice = settings.voice
            } catch {
                fail("\(error)")
                return
            }
        }
        // Not the text: the app logs what may be logged (never a key of the PIN keypad).
        Log.info("speech: synthesizing in voice \(voice)")
        var firstSound = true
        var playFailure: SpeechError?
        let completed: Bool
        do {
            completed = try synth.synthesize(text) { samples in
                guard self.shared.isCurrent(generation) else { return false }
                if firstSound, samples.contains(where: { $0 != 0 }) {
                    firstSound = false
                    Log.info("speech: first sound at \(Int(MonotonicClock.now() * 1000)) ms")
                }
                do throws(SpeechError) {
                    try playback.write(samples)
                } catch {
                    playFailure = error
                    return false
                }
                return true
            }
        } catch {
            fail("\(error)")
            return
        }
        if let playFailure {
            self.playback = nil
            fail("ALSA device \(settings.device): \(playFailure)")
            return
        }
        do {
            if completed, shared.isCurrent(generation) {
                try playback.drain()
                shared.update { $0.spoken += 1 }
            } else {
                try playback.drop()
                Log.info("speech: cut off")
                shared.update { $0.cut += 1 }
            }
        } catch {
            self.playback = nil
            fail("ALSA device \(settings.device): \(error)")
        }
    }
}
