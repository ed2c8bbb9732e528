import Geometry
import Glibc
import KioskConfiguration
import KioskSystem

/// The programs the kiosk started: the one that has the display (`exec`), and those running
/// in the background (`spawn`, and systemctl for the power items), until they are reaped.
final class ChildProcesses {
    /// The program that has the display, if any.
    private(set) var displayOwner: (pid: pid_t, effect: ActionRequest)?
    private var background: [pid_t: ActionRequest] = [:]

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
        for (pid, result, failed) in ProcessLauncher.reap() {
            if let owner = displayOwner, owner.pid == pid {
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
