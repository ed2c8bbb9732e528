import Glibc
import KioskSystem
import SystemBus

/// Keeps the control API on its bus: one `DBusControl` at a time, made again after the bus went
/// away (dbus-daemon restarted) or could not be reached, after a pause that doubles from
/// `firstPause` to `longestPause`. Connecting to a local socket never waits for the bus, so the
/// menu never does. Each loss is logged once; failed retries are logged again only when their
/// reason changes. Time comes in as `now` (the runtime's clock; tests move it by hand).
final class DBusLink {
    static let firstPause = 1.0
    static let longestPause = 30.0
    /// At boot the kiosk starts before the system bus (its unit waits for none of the boot's
    /// work, so the menu is not kept waiting): until the first connection, a bus whose socket is
    /// not there yet is looked for every `bootPause`, for `bootPatience` seconds from the first
    /// attempt, and said once as information, not as an error.
    static let bootPause = 0.25
    let bootPatience: Double
    private var firstAttempt: Double?

    private let control: KioskControl
    /// nil: the system bus.
    private let address: String?
    private let loop: EventLoop
    private var api: DBusControl?
    /// The state while there is no `api` to ask.
    private var idle: ControlAPIState = .off
    private var retryAt: Double?
    private var pause = firstPause
    private var logged: String?
    private var wasReady = false
    /// Connections whose name was granted (the first one and each one after a loss).
    private(set) var connects = 0
    /// Connection attempts, the failed ones included.
    private(set) var attempts = 0
    /// The state changed: the status follows at the end of the pass this asks for.
    var changed: (() -> Void)?
    /// A call changed something (its effect is due on screen): when the kiosk took it.
    var handled: ((Double) -> Void)?

    /// `bootPatience` defaults to a minute for the system bus, which boots after the kiosk, and
    /// nothing for a bus at an address.
    init(control: KioskControl, address: String?, loop: EventLoop, bootPatience: Double? = nil) {
        self.control = control
        self.address = address
        self.loop = loop
        self.bootPatience = bootPatience ?? (address == nil ? 60 : 0)
    }

    var state: ControlAPIState { api?.state ?? idle }

    /// Turns the API on (connecting now) or off (closing the connection); nothing when it is so already.
    func enable(_ on: Bool, now: Double) {
        if !on {
            guard api != nil || idle != .off else { return }
            api = nil
            retryAt = nil
            idle = .off
            wasReady = false
            Log.info("control API (D-Bus) off: [control] dbus = false")
            changed?()
        } else if api == nil, retryAt == nil {
            pause = Self.firstPause
            connect(now: now)
        }
    }

    /// Drops a connection that has ended and connects again when its pause is over. Called on
    /// every pass (never inside sd-bus's callbacks).
    func advance(now: Double) {
        if let api {
            switch api.state {
            case .retrying(let why):
                self.api = nil
                wasReady = false
                wait(why, now: now)
            case .unavailable(let why):
                self.api = nil
                wasReady = false
                idle = .unavailable(why)
                Log.error("control API (D-Bus) off: \(why); the menu goes on without it")
            default:
                break
            }
        }
        if let at = retryAt, at <= now {
            retryAt = nil
            connect(now: now)
        }
    }

    /// When the loop must turn for the API: sd-bus's own deadline or backlog, or the next retry.
    var nextDeadline: Double? { api?.nextDeadline ?? retryAt }

    private var busName: String { address.map { "the bus at \($0)" } ?? "the system bus" }

    private func connect(now: Double) {
        attempts += 1
        if firstAttempt == nil { firstAttempt = now }
        do {
            let made = try DBusControl(control: control, address: address)
            made.changed = { [unowned self] in
                self.granted()
                self.changed?()
            }
            made.handled = { [unowned self] in self.handled?(MonotonicClock.now()) }
            // Ours before it is attached: attaching processes what is there, the name's answer too.
            api = made
            try made.attach(to: loop)
            changed?()
        } catch {
            api = nil
            let why = "cannot connect to \(busName): \(error)"
            let code = (error as? BusError)?.errno ?? (error as? SystemError)?.errno
            if connects == 0, code == ENOENT || code == ECONNREFUSED, now - (firstAttempt ?? now) < bootPatience {
                idle = .retrying(why)
                retryAt = now + Self.bootPause
                if logged == nil {
                    logged = why
                    Log.info("control API waits for \(busName), which is not up yet (\(error))")
                }
                changed?()
                return
            }
            wait(why, now: now)
        }
    }

    /// Notes the name granted (from inside sd-bus's callback: nothing is released here).
    private func granted() {
        guard api?.state == .ready, !wasReady else { return }
        wasReady = true
        connects += 1
        pause = Self.firstPause
        logged = nil
        Log.info("control API on \(busName) as \(DBusNames.service)" + (connects > 1 ? " again (connection \(connects))" : ""))
    }

    /// No connection: says why (once per reason) and connects again after the pause, which doubles.
    private func wait(_ why: String, now: Double) {
        idle = .retrying(why)
        retryAt = now + pause
        if logged != why {
            logged = why
            Log.error("control API (D-Bus) down: \(why); connecting again in \(Int(pause)) s and then less often (at most every \(Int(Self.longestPause)) s); the menu goes on without it")
        }
        pause = min(pause * 2, Self.longestPause)
        changed?()
    }
}
