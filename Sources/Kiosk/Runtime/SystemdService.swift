import KioskSystem

/// The kiosk as systemd sees it: notifications (READY, STATUS, RELOADING, STOPPING) and, when
/// the unit has `WatchdogSec=`, a ping at half the interval from a timer on the loop, so that a
/// loop that hangs stops pinging and gets the kiosk restarted.
///
/// Start-up (the config, the fonts, the display, the first frame) runs before the loop can ping,
/// and on a loaded or slow machine it can outlast `WatchdogSec=`: until the first frame the
/// watchdog is stretched to `startAllowanceUSec` (the unit's `TimeoutStartSec=`, which still
/// ends a start that hangs), then set back to the unit's interval with READY=1.
final class SystemdService {
    static let startAllowanceUSec = 30_000_000
    private let notifier: SystemdNotifier
    private let watchdogTimer: TimerSource
    private var started = false

    /// Made first thing at start-up, so that the stretch covers all of it.
    init(notifier: SystemdNotifier = SystemdNotifier()) throws {
        self.notifier = notifier
        watchdogTimer = try TimerSource()
        if let usec = notifier.watchdogUSec, usec < Self.startAllowanceUSec {
            notifier.notify("WATCHDOG_USEC=\(Self.startAllowanceUSec)")
        }
    }

    func attach(to loop: EventLoop) throws {
        try loop.watch(watchdogTimer.descriptor.rawValue) { [unowned self] in
            self.watchdogTimer.acknowledge()
            self.notifier.notify("WATCHDOG=1")
        }
        if let interval = notifier.watchdogInterval { watchdogTimer.arm(after: interval, interval: interval) }
    }

    /// READY=1 with a status line: the first frame is on screen, or a reload is done. The first
    /// one gives the watchdog back its own interval.
    func ready(status: String) {
        var message = "READY=1\nSTATUS=\(status)"
        if !started, let usec = notifier.watchdogUSec, usec < Self.startAllowanceUSec {
            message += "\nWATCHDOG_USEC=\(usec)"
        }
        started = true
        notifier.notify(message)
    }

    func notify(_ message: String) { notifier.notify(message) }

    func reloading() { notifier.reloading() }
}
