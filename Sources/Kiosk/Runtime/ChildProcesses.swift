import Geometry
import Glibc
import KioskConfiguration
import KioskSystem

/// The programs the kiosk started: the one that has the display (`exec`), those running
/// in the background (`spawn`, and systemctl for the power items), and the short ones that read
/// a live value or switch a toggle (`probes`, whose ends `ValueProbes` takes), until they are reaped.
///
/// Probes and background programs lead process groups of their own: a probe's group is killed
/// at its timeout and when it ends (what it forked and left behind ends with it: a value read
/// every second must not leave a process each time), and every group when the kiosk stops. The
/// `exec` program stays in the kiosk's group: it has the display and the kiosk's terminal, which
/// a background process group could not use without SIGTTOU/SIGTTIN stopping it.
final class ChildProcesses {
    /// The program that has the display, if any.
    private(set) var displayOwner: (pid: pid_t, effect: ActionRequest)?
    private var background: [pid_t: ActionRequest] = [:]
    private var probes: Set<pid_t> = []
    /// Probes reaped and not yet taken: how each ended (the exit status; nil: killed).
    private var probesEnded: [pid_t: (result: String, code: Int32?)] = [:]
    /// Where every program is started from once `keepOut(of:)` named the kiosk's folders; nil:
    /// the caller's thread, unconfined.
    private var launcher: ConfinedLauncher?

    /// Programs started from now on cannot change anything beneath `folders` (the kiosk's state,
    /// config and status) nor read `secrets` (the config, credentials: `LaunchConfinement`).
    /// Called again when they change (a reload); the same paths change nothing. Says in the log
    /// when the kernel cannot confine.
    func keepOut(of folders: [String], hiding secrets: [String] = []) {
        let confinement = LaunchConfinement(keeping: folders, hiding: secrets)
        guard launcher?.confinement != confinement else { return }
        do {
            let made = try ConfinedLauncher(keeping: confinement)
            if case .failure(let error) = made.confined {
                Log.warning("launched programs can write the kiosk's own folders (\(confinement.keptFolders.joined(separator: ", "))) "
                            + "and read its config: this kernel cannot confine them (\(error); Landlock needs Linux 5.13 with landlock in its lsm= list)")
            }
            launcher = made
        } catch {
            Log.error("cannot start the launcher thread that keeps programs out of the kiosk's folders: \(error); they start unconfined")
            launcher = nil
        }
    }

    /// `ProcessLauncher.start` on the confined launcher's thread (or this one, without).
    private func launch(_ command: Command, output: Int32? = nil, errors: Int32? = nil, ownGroup: Bool) throws(SystemError) -> pid_t {
        guard let launcher else { return try ProcessLauncher.start(command, output: output, errors: errors, ownGroup: ownGroup) }
        return try launcher.run { () throws(SystemError) -> pid_t in
            try ProcessLauncher.start(command, output: output, errors: errors, ownGroup: ownGroup)
        }
    }

    /// Starts a probe, its standard output to `output` and its standard error to `errors` (nil: the kiosk's).
    func startProbe(_ command: Command, output: Int32?, errors: Int32? = nil) throws(SystemError) -> pid_t {
        let pid = try launch(command, output: output, errors: errors, ownGroup: true)
        probes.insert(pid)
        return pid
    }

    /// A probe that ran too long: SIGKILL to its group (it is reaped like any other).
    func kill(probe pid: pid_t) {
        guard probes.contains(pid) else { return }
        _ = Glibc.kill(-pid, SIGKILL)
    }

    /// Ends what the kiosk started, when it stops: probes at once (SIGKILL), background
    /// programs' groups and the display's program with SIGTERM (they may save their state).
    func endAll() {
        for pid in probes { _ = Glibc.kill(-pid, SIGKILL) }
        for pid in background.keys { _ = Glibc.kill(-pid, SIGTERM) }
        if let owner = displayOwner { _ = Glibc.kill(owner.pid, SIGTERM) }
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
        let isExec: Bool
        if case .exec = effect { isExec = true } else { isExec = false }
        let pid = try launch(command, ownGroup: !isExec)
        if isExec { displayOwner = (pid, effect) } else { background[pid] = effect }
        return pid
    }

    /// The children that ended since the last call: what they were started for, and how they ended.
    func reap() -> [(effect: ActionRequest, pid: pid_t, result: String, failed: Bool)] {
        var ended: [(ActionRequest, pid_t, String, Bool)] = []
        let mine = Array(probes) + Array(background.keys) + [displayOwner?.pid].compactMap { $0 }
        for (pid, result, failed, code) in ProcessLauncher.reap(mine) {
            if probes.remove(pid) != nil {
                // Its group outlives it while anything it forked runs (the number is not reused
                // until then): what it left behind ends now.
                _ = Glibc.kill(-pid, SIGKILL)
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
