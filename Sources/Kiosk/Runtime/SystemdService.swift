import KioskSystem

/// The kiosk as systemd sees it: notifications (READY, STATUS, RELOADING, STOPPING) and, when
/// the unit has `WatchdogSec=`, a ping at half the interval from a timer on the loop, so that a
/// loop that hangs stops pinging and gets the kiosk restarted.
final class SystemdService {
    private let notifier = SystemdNotifier()
    private let watchdogTimer: TimerSource

    init() throws {
        watchdogTimer = try TimerSource()
    }

    func attach(to loop: EventLoop) throws {
        try loop.watch(watchdogTimer.descriptor.rawValue) { [unowned self] in
            self.watchdogTimer.acknowledge()
            self.notifier.notify("WATCHDOG=1")
        }
        if let interval = notifier.watchdogInterval { watchdogTimer.arm(after: interval, interval: interval) }
    }

    func notify(_ message: String) { notifier.notify(message) }

    func reloading() { notifier.reloading() }
}
