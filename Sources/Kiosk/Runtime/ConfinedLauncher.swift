import Glibc
import KioskSystem
import Synchronization

/// Starts the programs the menu launches from a thread of its own that Landlock keeps from
/// writing the kiosk's own folders and reading its secrets (`LaunchConfinement`): the
/// confinement is the thread's, and every process it starts inherits it, so a launched program
/// can neither rewrite the PIN lockout state, the config or the status nor read the config's PIN
/// hash or the broker's credentials, whatever user it runs as. The event loop hands each start to
/// the thread and waits for its pid (a `posix_spawn`: well under a millisecond).
///
/// Where the kernel has no Landlock (before 5.13, or not in its `lsm=` list) the thread starts
/// programs unconfined, and `confined` says so.
final class ConfinedLauncher {
    /// A start handed to the thread. `@unchecked Sendable`: the closure only captures values
    /// (argv, environment, descriptors), and runs on the thread while the caller waits.
    private struct Job: @unchecked Sendable {
        let start: () throws(SystemError) -> pid_t
    }

    private struct State: Sendable {
        var job: Job?
        var result: Result<pid_t, SystemError>?
        var stopping = false
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        let request: WakeSource
        let done: WakeSource
        init() throws(SystemError) {
            request = try WakeSource(blocking: true)
            done = try WakeSource(blocking: true)
        }
    }

    private let shared: Shared
    /// The folders kept from launched programs.
    let confinement: LaunchConfinement
    /// Whether the thread could confine itself; why not when it could not.
    let confined: Result<Void, SystemError>

    init(keeping confinement: LaunchConfinement) throws(SystemError) {
        let shared = try Shared()
        self.shared = shared
        self.confinement = confinement
        let outcome = Mutex<Result<Void, SystemError>?>(nil)
        try startDetachedThread {
            let result: Result<Void, SystemError>
            do throws(SystemError) {
                try confinement.restrictCallingThread()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            shared.done.signal()
            Self.serve(shared)
        }
        shared.done.acknowledge()
        confined = outcome.withLock { $0 } ?? .failure(SystemError("landlock", errno: EINVAL))
    }

    deinit {
        shared.state.withLock { $0.stopping = true }
        shared.request.signal()
    }

    /// Runs `start` (a `ProcessLauncher.start`) on the confined thread and returns what it did.
    func run(_ start: @escaping () throws(SystemError) -> pid_t) throws(SystemError) -> pid_t {
        shared.state.withLock { $0.job = Job(start: start) }
        shared.request.signal()
        shared.done.acknowledge()
        let result = shared.state.withLock { state -> Result<pid_t, SystemError> in
            defer { state.result = nil }
            return state.result ?? .failure(SystemError("confined launcher", errno: EIO))
        }
        return try result.get()
    }

    private static func serve(_ shared: Shared) {
        while true {
            shared.request.acknowledge()
            let job = shared.state.withLock { state -> Job?? in
                if state.stopping { return .none }
                defer { state.job = nil }
                return .some(state.job)
            }
            guard let job else { return }
            guard let job else { continue }
            let result: Result<pid_t, SystemError>
            do throws(SystemError) {
                result = .success(try job.start())
            } catch {
                result = .failure(error)
            }
            shared.state.withLock { $0.result = result }
            shared.done.signal()
        }
    }
}
