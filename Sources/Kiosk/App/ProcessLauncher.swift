import CLinux
import Glibc
import KioskConfiguration
import KioskSystem

/// Starts configured programs: argv arrays only (no shell), looked up in PATH when not absolute,
/// with the kiosk's environment (less systemd's notify variables) plus the item's, through
/// `Spawn` (descriptors 0, 1 and 2 only, default signals).
public enum ProcessLauncher {
    /// `output`: the descriptor the program's standard output goes to (and its standard input
    /// reads /dev/null); nil: both the kiosk's own. `errors`: the descriptor its standard error
    /// goes to; nil: the kiosk's (the journal). `ownGroup`: the program leads a process group
    /// of its own, so that what it forks can be ended with it (`kill(-pid, …)`).
    public static func start(_ command: Command, output: Int32? = nil, errors: Int32? = nil,
                             ownGroup: Bool = false) throws(SystemError) -> pid_t {
        let environment = childEnvironment(inherited: Spawn.currentEnvironment, for: command)
        return try Spawn.start(argv: command.argv, environment: environment, input: output == nil ? .inherited : .null,
                               output: output.map { .descriptor($0) } ?? .inherited,
                               errors: errors.map { .descriptor($0) } ?? .inherited, ownGroup: ownGroup)
    }

    /// The kiosk's `inherited` environment (KEY=value entries) without `serviceOnly`, with the
    /// command's own variables replacing or added to it.
    public static func childEnvironment(inherited: [String], for command: Command) -> [String] {
        var environment: [String] = []
        for text in inherited {
            let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if command.environment[key] == nil && !serviceOnly.contains(key) { environment.append(text) }
        }
        for (k, v) in command.environment.sorted(by: { $0.key < $1.key }) { environment.append("\(k)=\(v)") }
        return environment
    }

    /// What systemd hands the service's main process only: a child that inherited them would
    /// send its own READY/STOPPING/WATCHDOG to the kiosk's unit (which rejects and logs them).
    public static let serviceOnly: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC"]

    /// Which of `pids` (children of this process) have ended, without waiting: (pid, what
    /// happened, whether it failed, the exit status when it exited). Only those: a child another
    /// owner started (a second runtime in one process: the tests) is left to it.
    public static func reap(_ pids: some Sequence<pid_t>) -> [(pid: pid_t, result: String, failed: Bool, code: Int32?)] {
        var ended: [(pid_t, String, Bool, Int32?)] = []
        for child in pids {
            var status: Int32 = 0
            let pid = waitpid(child, &status, WNOHANG)
            if pid < 0, errno == ECHILD {
                // Not (or no longer) a child: it is over, whatever it did; never waited for again.
                ended.append((child, "ended (its exit status was taken elsewhere)", true, nil))
                continue
            }
            guard pid > 0 else { continue }
            let signal = status & 0x7f
            if signal == 0 {
                let code = (status >> 8) & 0xff
                ended.append((pid, "exited with status \(code)", code != 0, code))
            } else {
                let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
                ended.append((pid, "killed by \(name)", true, nil))
            }
        }
        return ended
    }
}
