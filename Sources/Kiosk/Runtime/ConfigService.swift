import Geometry
/// Config watching: notices the file being replaced (inotify on its folder, settled for 100 ms
/// since one replacement makes several events), checks it, and hands the result to `apply`.
public final class ConfigService {
    let path: String
    private let reader: ConfigReader
    private let settleTimer: TimerSource
    private var watcher: ConfigWatcher?
    /// Receives every check with the reason it was made for.
    var apply: (_ check: ConfigCheck, _ reason: String) -> Void = { _, _ in }

    public init(path: String) throws(SystemError) {
        self.path = path
        reader = ConfigReader(path: path)
        settleTimer = try TimerSource()
    }

    /// Checks the file now (start-up: nothing can be shown before it).
    func checkNow() -> ConfigCheck { reader.check() }

    func attach(to loop: EventLoop) throws(SystemError) {
        try loop.watch(settleTimer.descriptor.rawValue) { [unowned self] in
            self.settleTimer.acknowledge()
            self.reload(reason: "file changed")
        }
        do {
            let w = try ConfigWatcher(path: path)
            try loop.watch(w.fd) { [unowned self, unowned w] in
                if w.drain() { self.settleTimer.arm(after: 0.1) }
            }
            watcher = w
        } catch {
            Log.warning("config changes will not be noticed (use SIGHUP): \(error)")
        }
    }

    func reload(reason: String) {
        apply(reader.check(), reason)
    }
}
