import Geometry
import Glibc
import KioskConfiguration
import KioskSystem

/// The programs the kiosk started: the one that has the display (`exec`), those running
/// in the background (`spawn`, and systemctl for the power items), and the short ones that read
/// a live value or switch a toggle (`probes`, whose ends `ValueProbes` takes), until they are reaped.
final class ChildProcesses {
    /// The program that has the display, if any.
    private(set) var displayOwner: (pid: pid_t, effect: ActionRequest)?
    private var background: [pid_t: ActionRequest] = [:]
    private var probes: Set<pid_t> = []
    /// Probes reaped and not yet taken: how each ended (the exit status; nil: killed).
    private var probesEnded: [pid_t: (result: String, code: Int32?)] = [:]

    /// Starts a probe, its standard output to `output` (nil: the kiosk's).
    func startProbe(_ command: Command, output: Int32?) throws(SystemError) -> pid_t {
        let pid = try ProcessLauncher.start(command, output: output)
        probes.insert(pid)
        return pid
    }

    /// A probe that ran too long: SIGKILL (it is reaped like any other).
    func kill(probe pid: pid_t) {
        guard probes.contains(pid) else { return }
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// The probes reaped since the last call.
    func takeProbeEnds() -> [pid_t: (result: String, code: Int32?)] {
        defer { probesEnded.removeAll() }
        return probesEnded
    }

    var hasDisplayOwner: Bool { displayOwner != nil }

    /// Starts the program an effect names. An `exec` program becomes the display owner.
    func start(_ effect: ActionRequest) throws(SystemError) -> pid_t {
        guard let command = Self.command(for: effect) else { throw SystemError("start \(effect.kind)", errno: EINVAL) }
        let pid = try ProcessLauncher.start(command)
        if case .exec = effect { displayOwner = (pid, effect) } else { background[pid] = effect }
        return pid
    }

    /// The children that ended since the last call: what they were started for, and how they ended.
    func reap() -> [(effect: ActionRequest, pid: pid_t, result: String, failed: Bool)] {
        var ended: [(ActionRequest, pid_t, String, Bool)] = []
        let mine = Array(probes) + Array(background.keys) + [displayOwner?.pid].compactMap { $0 }
        for (pid, result, failed, code) in ProcessLauncher.reap(mine) {
            if probes.remove(pid) != nil {
                probesEnded[pid] = (result, code)
            } else if let owner = displayOwner, owner.pid == pid {
                displayOwner = nil
                ended.append((owner.effect, pid, result, failed))
            } else if let effect = background.removeValue(forKey: pid) {
                ended.append((effect, pid, result, failed))
            }
        }
        return ended
    }

    /// The argv an effect runs (nil: it runs no program). The power items ask systemd (through logind and polkit).
    static func command(for effect: ActionRequest) -> Command? {
        switch effect {
        case .exec(let command, _), .spawn(let command, _):
            return command
        case .poweroff, .reboot:
            // --no-ask-password: systemctl would otherwise start a polkit agent (pkttyagent) on its
            // stdin, the kiosk's tty1, which is in graphics mode: a password prompt there nobody can
            // see or answer would keep the request hanging instead of refused.
            return Command(argv: ["systemctl", "--no-ask-password", effect.kind.rawValue])
        case .reload:
            return nil
        }
    }
}
