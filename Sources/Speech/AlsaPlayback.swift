import CAlsa
import Glibc

/// One ALSA PCM open for playback of 16-bit mono samples; its deinit closes it. Opened without
/// waiting (a device another program holds is refused at once, not waited for) and then written
/// to blocking, with a short buffer so that `drop()` silences it within `latencyMicroseconds`.
/// Used from one thread only (the speech worker's).
public final class AlsaPlayback {
    private let pcm: OpaquePointer
    public let device: String

    public init(device: String, sampleRate: Int, latencyMicroseconds: UInt32 = 80_000) throws(SpeechError) {
        var handle: OpaquePointer?
        try Self.check("snd_pcm_open(\(device))", snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK))
        guard let handle else { throw SpeechError("snd_pcm_open(\(device))", "no handle") }
        pcm = handle
        self.device = device
        do {
            try Self.check("snd_pcm_nonblock", snd_pcm_nonblock(pcm, 0))
            try Self.check("snd_pcm_set_params", snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                                                  1, UInt32(sampleRate), 1, latencyMicroseconds))
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
    }

    deinit { snd_pcm_close(pcm) }

    /// Plays `samples`, blocking while the device's buffer is full; recovers from an underrun.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(SpeechError) {
        var offset = 0
        while offset < samples.count {
            let written = snd_pcm_writei(pcm, samples.baseAddress! + offset, snd_pcm_uframes_t(samples.count - offset))
            if written < 0 {
                try Self.check("snd_pcm_writei", snd_pcm_recover(pcm, Int32(written), 1))
                continue
            }
            offset += Int(written)
        }
    }

    /// Waits until what was written has been played.
    public func drain() throws(SpeechError) {
        try Self.check("snd_pcm_drain", snd_pcm_drain(pcm))
        try Self.check("snd_pcm_prepare", snd_pcm_prepare(pcm))
    }

    /// Silences the device at once, throwing away what was written and not yet played.
    public func drop() throws(SpeechError) {
        try Self.check("snd_pcm_drop", snd_pcm_drop(pcm))
        try Self.check("snd_pcm_prepare", snd_pcm_prepare(pcm))
    }

    private static func check(_ call: String, _ result: Int32) throws(SpeechError) {
        guard result < 0 else { return }
        throw SpeechError(call, String(cString: snd_strerror(result)))
    }
}
