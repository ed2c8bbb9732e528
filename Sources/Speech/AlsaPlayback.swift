import CAlsa
import Glibc

/// libasound, opened with the first playback (a config that speaks), never before.
enum AlsaLibrary {
    static let soname = "libasound.so.2"
    static let functions: KioskAlsaFunctions? = kiosk_alsa_functions()?.pointee
    static var problem: String { String(cString: kiosk_alsa_problem()) }
}

/// One ALSA PCM open for playback of 16-bit mono samples; its deinit closes it. Opened without
/// waiting (a device another program holds is refused at once, not waited for) and then written
/// to blocking, with a short buffer so that `drop()` silences it within `latencyMicroseconds`.
/// Used from one thread only (the speech worker's).
public final class AlsaPlayback {
    private let pcm: OpaquePointer
    public let device: String
    /// libasound's functions (`AlsaLibrary`).
    private let lib: KioskAlsaFunctions

    public init(device: String, sampleRate: Int, latencyMicroseconds: UInt32 = 80_000) throws(SpeechError) {
        guard let lib = AlsaLibrary.functions else {
            throw SpeechError("dlopen(\(AlsaLibrary.soname))", "speech needs libasound (Debian: apt install libasound2t64): \(AlsaLibrary.problem)")
        }
        self.lib = lib
        var handle: OpaquePointer?
        try Self.check(lib, "snd_pcm_open(\(device))", lib.snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK))
        guard let handle else { throw SpeechError("snd_pcm_open(\(device))", "no handle") }
        pcm = handle
        self.device = device
        do {
            try check("snd_pcm_nonblock", lib.snd_pcm_nonblock(pcm, 0))
            try check("snd_pcm_set_params", lib.snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                                                  1, UInt32(sampleRate), 1, latencyMicroseconds))
        } catch {
            lib.snd_pcm_close(pcm)
            throw error
        }
    }

    deinit { lib.snd_pcm_close(pcm) }

    /// Plays `samples`, blocking while the device's buffer is full; recovers from an underrun.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(SpeechError) {
        var offset = 0
        while offset < samples.count {
            let written = lib.snd_pcm_writei(pcm, samples.baseAddress! + offset, snd_pcm_uframes_t(samples.count - offset))
            if written < 0 {
                try check("snd_pcm_writei", lib.snd_pcm_recover(pcm, Int32(written), 1))
                continue
            }
            offset += Int(written)
        }
    }

    /// Waits until what was written has been played.
    public func drain() throws(SpeechError) {
        try check("snd_pcm_drain", lib.snd_pcm_drain(pcm))
        try check("snd_pcm_prepare", lib.snd_pcm_prepare(pcm))
    }

    /// Silences the device at once, throwing away what was written and not yet played.
    public func drop() throws(SpeechError) {
        try check("snd_pcm_drop", lib.snd_pcm_drop(pcm))
        try check("snd_pcm_prepare", lib.snd_pcm_prepare(pcm))
    }

    private func check(_ call: String, _ result: Int32) throws(SpeechError) {
        try Self.check(lib, call, result)
    }

    private static func check(_ lib: KioskAlsaFunctions, _ call: String, _ result: Int32) throws(SpeechError) {
        guard result < 0 else { return }
        throw SpeechError(call, lib.snd_strerror(result).map { String(cString: $0) } ?? "error \(result)")
    }
}
