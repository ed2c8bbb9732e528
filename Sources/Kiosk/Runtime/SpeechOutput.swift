import KioskConfiguration
import KioskSystem
import Speech

/// `[speech]` for the runtime: the one `SpeechWorker` (espeak-ng is one engine per process, so
/// it is made at the first config that speaks and kept, its ALSA device closed, when a later
/// config does not), the app's `.speak` and `.silence` handed to it, and its health for the
/// status file and metrics.
final class SpeechOutput {
    private var worker: SpeechWorker?
    private var config = SpeechConfig()
    /// Runs on the loop when the worker's health changed (the status is written again).
    var changed: (() -> Void)?
    private weak var loop: EventLoop?

    func attach(to loop: EventLoop) { self.loop = loop }

    func configure(_ new: SpeechConfig) {
        config = new
        guard new.enabled else {
            worker?.release()
            return
        }
        let settings = SpeechSettings(device: new.device, voice: new.voice, rate: new.rate)
        if let worker {
            worker.configure(settings)
            return
        }
        do {
            let made = try SpeechWorker(settings: settings)
            try loop?.watch(made.healthChanged) { [unowned self] in self.changed?() }
            worker = made
        } catch {
            Log.error("speech: \(error); the menu goes on silently")
        }
    }

    func say(_ text: String) {
        guard config.enabled else { return }
        worker?.say(text)
    }

    func silence() { worker?.cut() }

    /// nil when the config does not speak.
    var status: SpeechStatus? {
        guard config.enabled else { return nil }
        guard let worker else { return SpeechStatus(device: config.device, health: SpeechHealth(state: "failed", problem: "no speech thread")) }
        return SpeechStatus(device: config.device, health: worker.health)
    }
}

/// The status file's `speech`: the device, whether it speaks (or why not), and its counts.
public struct SpeechStatus: Equatable, Sendable {
    public var device: String
    public var health: SpeechHealth

    public init(device: String, health: SpeechHealth) {
        self.device = device
        self.health = health
    }
}

extension SpeechHealth {
    init(state: String, problem: String) {
        self.init()
        self.state = state
        self.problem = problem
    }
}
