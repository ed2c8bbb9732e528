import KioskConfiguration
import KioskSystem

/// Config watching: notices the file being replaced (inotify on its folder, settled for 100 ms
/// since one replacement makes several events), its folder being swapped (a renamed `current ->
/// releases/N` symlink, `ConfigWatcher`) or asked for again (SIGHUP, a menu item), and
/// has it loaded — read, checked, its font and images decoded, its icons rasterized at the
/// output's size — on the `ConfigLoadWorker`'s thread, so the loop goes on drawing and answering
/// input meanwhile. A request made while a load runs supersedes it; only the newest file's
/// result reaches `apply`.
public final class ConfigService {
    public let path: String
    private let worker: ConfigLoadWorker
    private let settleTimer: TimerSource
    private let watcher: ConfigWatcher?
    /// Why the load under way was asked for, for the log line when it is applied.
    private var pendingReason: String?
    /// Told when a load starts (systemd hears RELOADING=1) and when its result is ready.
    var loading: () -> Void = {}
    var apply: (_ loaded: LoadedConfig, _ reason: String) -> Void = { _, _ in }
    /// The size the screens are drawn at now, where a load rasterizes the icons (`IconWarmUp`).
    var outputSize: () -> (width: Int, height: Int)? = { nil }

    /// The file is watched from here on, before `loadNow` reads it: a replacement made while the
    /// kiosk starts (the image's boot-config copies a new file beside its start) waits in the
    /// watch and is loaded once the loop runs, rather than falling between the read and the watch.
    public init(path: String) throws(SystemError) {
        self.path = path
        worker = try ConfigLoadWorker(path: path)
        settleTimer = try TimerSource()
        do {
            watcher = try ConfigWatcher(path: path)
        } catch {
            Log.warning("config changes will not be noticed (use SIGHUP): \(error)")
            watcher = nil
        }
    }

    /// Loads the file on this thread: start-up, when there is nothing on screen to keep answering.
    func loadNow() -> LoadedConfig { LoadedConfig.load(using: ConfigReader(path: path)) }

    func attach(to loop: EventLoop) throws(SystemError) {
        try worker.attach(to: loop) { [unowned self] loaded in
            let reason = self.pendingReason ?? "file changed"
            self.pendingReason = nil
            self.apply(loaded, reason)
        }
        try loop.watch(settleTimer.descriptor.rawValue) { [unowned self] in
            self.settleTimer.acknowledge()
            self.reload(reason: "file changed")
        }
        if let w = watcher {
            try loop.watch(w.fd) { [unowned self, unowned w] in
                if w.drain() { self.settleTimer.arm(after: 0.1) }
            }
        }
    }

    /// Starts loading the file; the result arrives through `apply` from the loop.
    func reload(reason: String) {
        Log.info("loading \(path) (\(reason))")
        pendingReason = reason
        loading()
        worker.request(outputSize: outputSize())
    }
}
