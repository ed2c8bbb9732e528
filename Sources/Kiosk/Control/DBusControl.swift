import CLinux
import Glibc
import KioskSystem
import SystemBus

/// The control API on the system bus: `org.kiosk.Kiosk1` at `/org/kiosk/Kiosk1`, a transport of
/// `KioskControl` (decoding calls into requests, answering with replies or errors, sending the
/// events as signals). Processed from the kiosk's event loop, a bounded batch per turn, never
/// waiting: a caller sending a thousand calls a second is answered in turn while the menu goes on.
final class DBusControl {
    private let connection: BusConnection
    private let control: KioskControl
    private let descriptor: Int32
    private var object: BusSlot?
    private var nameRequest: BusSlot?
    private var subscription: Int?
    private weak var loop: EventLoop?
    /// Messages handled per turn of the loop before it goes on to input and frames.
    static let batch = 64
    /// More is pending than the last batch handled: a turn is due at once.
    private var backlog = false
    private(set) var state: ControlAPIState = .starting
    /// The state changed (the name was granted or refused, the bus went away): the status follows.
    var changed: (() -> Void)?
    /// A call was carried out (its effect is due on screen).
    var handled: (() -> Void)?

    /// Connects to the bus (or `address`), serves the object and asks for the name; the answer
    /// comes back through the loop.
    init(control: KioskControl, address: String? = nil) throws(BusError) {
        connection = try BusConnection(address: address)
        self.control = control
        descriptor = try connection.descriptor
        object = try connection.addObject(path: DBusNames.path) { [unowned self] (message) throws(BusMethodError) -> Bool in
            try self.handle(message)
        }
        nameRequest = try connection.requestName(DBusNames.service) { [unowned self] result in self.named(result) }
        subscription = control.subscribe { [unowned self] event in self.emit(event) }
    }

    deinit {
        // The registrations before the connection they are on.
        object = nil
        nameRequest = nil
        if let subscription { control.unsubscribe(subscription) }
        loop?.unwatch(descriptor)
    }

    func attach(to loop: EventLoop) throws(SystemError) {
        self.loop = loop
        try loop.watch(descriptor, events: UInt32(EPOLLIN.rawValue)) { [unowned self] in self.process() }
        process()
    }

    /// When the loop must turn for the bus without I/O: a backlog, or sd-bus's own timeout.
    var nextDeadline: Double? {
        guard !state.isDown else { return nil }
        return backlog ? MonotonicClock.now() : connection.deadline
    }

    /// Handles up to `batch` pending messages, then waits for output room if there is output queued.
    func process() {
        guard !state.isDown else { return }
        do {
            var handled = 0
            backlog = false
            while try connection.process() {
                handled += 1
                if handled >= Self.batch {
                    backlog = true
                    break
                }
            }
            try watchForOutput()
        } catch {
            down(.retrying("the bus connection ended: \(error)"))
        }
    }

    /// Waits for the socket to be writable only while sd-bus has output queued (a level-triggered
    /// EPOLLOUT on a writable socket would wake the loop on every turn).
    private func watchForOutput() throws {
        var wanted = UInt32(EPOLLIN.rawValue)
        if try connection.events & Int32(POLLOUT) != 0 { wanted |= UInt32(EPOLLOUT.rawValue) }
        try loop?.modify(descriptor, events: wanted)
    }

    /// This connection serves no more (`new` says why): it is no longer processed. Nothing is
    /// released here: this may run inside one of sd-bus's own callbacks (the name's answer); the
    /// slots and the connection go with this object, which `DBusLink` drops at its next turn.
    private func down(_ new: ControlAPIState) {
        guard !state.isDown else { return }
        state = new
        loop?.unwatch(descriptor)
        changed?()
    }

    private func named(_ result: Result<UInt32, BusError>) {
        switch result {
        case .success(1), .success(4):
            state = .ready
            changed?()
        case .success(let code):
            down(.unavailable("the name \(DBusNames.service) is taken by another process (RequestName answered \(code))"))
        case .failure(let error):
            down(.unavailable("the bus refused the name \(DBusNames.service): \(error.message ?? error.description)"))
        }
    }

    // MARK: Calls

    private func handle(_ m: BusMessage) throws(BusMethodError) -> Bool {
        if m.isMethodCall(interface: "org.freedesktop.DBus.Introspectable", member: "Introspect") {
            return reply(to: m) { r throws(BusError) in try r.append(DBusNames.introspection) }
        }
        guard m.interface == nil || m.interface == DBusNames.interface, let member = m.member else { return false }
        let request: ControlRequest
        do {
            guard let decoded = try Self.decode(member, m) else { return false }
            request = decoded
        } catch let e as BusMethodError {
            throw e
        } catch {
            throw .invalidArguments("\(member): \(error)")
        }
        switch control.handle(request, from: .bus) {
        case .success(.done):
            handled?()
            return reply(to: m) { _ throws(BusError) in }
        case .success(.state(let s)):
            return reply(to: m) { r throws(BusError) in try Self.append(s, to: r) }
        case .success(.image(let image)):
            return reply(to: m) { r throws(BusError) in try Self.append(image, to: r) }
        case .failure(let error):
            throw BusMethodError(name: DBusNames.errorPrefix + error.name, message: error.description)
        }
    }

    /// The longest string argument copied out of a call: above every limit `KioskControl` has.
    static let maximumArgumentBytes = 64 * 1024

    /// The request a call asks for; nil for a member the interface does not have.
    static func decode(_ member: String, _ m: BusMessage) throws -> ControlRequest? {
        func expect(_ signature: String, _ names: String) throws {
            guard m.signature == signature else {
                throw BusMethodError.invalidArguments("\(member) takes (\(names)), signature \"\(signature)\"; got \"\(m.signature)\"")
            }
        }
        // The limits per argument are `KioskControl`'s, for every transport; this bound only
        // keeps a caller's megabytes from being copied (and counted) on the loop first.
        func string(_ what: String) throws -> String {
            switch try m.readString(maximumBytes: maximumArgumentBytes) {
            case .text(let text): return text
            case .tooLong(let bytes):
                throw BusMethodError.invalidArguments("the \(what) has \(bytes) bytes; no argument of this API takes more than \(maximumArgumentBytes)")
            }
        }
        switch member {
        case "ShowScreen":
            try expect("s", "name")
            return .showScreen(try string("screen name"))
        case "Notify":
            try expect("sds", "text, seconds, level")
            let text = try string("notification text"), seconds = try m.readDouble(), word = try string("level")
            guard let level = NotifyLevel(rawValue: word) else {
                throw BusMethodError.invalidArguments("level must be info, warning or error; got \"\(word)\"")
            }
            return .notify(text: text, seconds: seconds, level: level)
        case "SetValue":
            try expect("ss", "id, text")
            return .setValue(id: try string("id"), text: try string("value"))
        case "SetToggle":
            try expect("sb", "id, on")
            return .setToggle(id: try string("id"), on: try m.readBool())
        case "Press":
            try expect("s", "id")
            return .press(id: try string("id"))
        case "GoHome":
            try expect("", "no arguments")
            return .goHome
        case "GetState":
            try expect("", "no arguments")
            return .state
        case "Update":
            try expect("sbb", "source, reboot, force")
            // An empty source: the config's `update_source`.
            let source = try string("source")
            return .update(source: source.isEmpty ? nil : source, reboot: try m.readBool(), force: try m.readBool())
        case "GetImage":
            try expect("", "no arguments")
            return .image
        default:
            return nil
        }
    }

    static func append(_ s: ControlState, to r: BusMessage) throws(BusError) {
        try r.append(s.screen)
        try r.append(Int32(clamping: s.selection ?? -1))
        try r.append(s.selectedLabel ?? "")
        try r.append(s.displayOn)
        try r.append(UInt32(clamping: s.generation))
        try r.open("a", "(sssb)")
        for v in s.values {
            try r.open("r", "sssb")
            try r.append(v.id)
            try r.append(v.text)
            try r.append(v.health.state.rawValue)
            try r.append(v.isToggle)
            try r.close()
        }
        try r.close()
    }

    /// `GetImage`'s answer: (version, slot, trial, update state, update version, update message,
    /// rollback from, rollback reason, the update step's percentage); "" (-1) where there is none.
    static func append(_ i: ImageStatus, to r: BusMessage) throws(BusError) {
        try r.append(i.version)
        try r.append(i.slot ?? "")
        try r.append(i.trial)
        try r.append(i.update?.state.rawValue ?? "")
        try r.append(i.update?.version ?? "")
        try r.append(i.update?.message ?? "")
        try r.append(i.rollback?.from ?? "")
        try r.append(i.rollback?.reason ?? "")
        try r.append(Int32(i.update?.progress ?? -1))
    }

    /// Sends a reply built by `fill`; a reply that cannot be built or queued is logged (the caller times out).
    private func reply(to m: BusMessage, _ fill: (BusMessage) throws(BusError) -> Void) -> Bool {
        do {
            let r = try connection.reply(to: m)
            try fill(r)
            try connection.send(r)
        } catch {
            Log.error("control API: cannot answer \(m.member ?? "a call"): \(error)")
        }
        return true
    }

    // MARK: Signals

    private func emit(_ event: ControlEvent) {
        guard state == .ready else { return }
        do {
            switch event {
            case .screenChanged(let name):
                let s = try connection.signal(path: DBusNames.path, interface: DBusNames.interface, member: "ScreenChanged")
                try s.append(name)
                try connection.send(s)
            case .selectionChanged(let index, let label):
                let s = try connection.signal(path: DBusNames.path, interface: DBusNames.interface, member: "SelectionChanged")
                try s.append(Int32(clamping: index))
                try s.append(label)
                try connection.send(s)
            case .itemActivated(let id, let label):
                let s = try connection.signal(path: DBusNames.path, interface: DBusNames.interface, member: "ItemActivated")
                try s.append(id ?? "")
                try s.append(label)
                try connection.send(s)
            case .toggleRequested(let id, let on):
                let s = try connection.signal(path: DBusNames.path, interface: DBusNames.interface, member: "ToggleRequested")
                try s.append(id)
                try s.append(on)
                try connection.send(s)
            case .updateChanged(let update):
                let s = try connection.signal(path: DBusNames.path, interface: DBusNames.interface, member: "UpdateChanged")
                try s.append(update.state.rawValue)
                try s.append(update.version ?? "")
                try s.append(update.message ?? "")
                try s.append(Int32(update.progress ?? -1))
                try connection.send(s)
            }
            try watchForOutput()
        } catch {
            Log.error("control API: signal not sent: \(error)")
        }
    }
}

/// How the control API stands, for the status file, `kiosk status`, the metrics and the log.
public enum ControlAPIState: Equatable, Sendable {
    /// `[control] dbus = false`.
    case off
    /// Connected; the name asked for.
    case starting
    /// The name is ours: callers reach the kiosk.
    case ready
    /// No connection (the bus is not there, or it went away): `DBusLink` connects again after a
    /// pause; the kiosk runs on without the API meanwhile.
    case retrying(String)
    /// The name taken by another process or refused by the bus policy: tried again only at the
    /// next config reload (or restart).
    case unavailable(String)

    var isDown: Bool {
        switch self {
        case .retrying, .unavailable: true
        case .off, .starting, .ready: false
        }
    }

    public var word: String {
        switch self {
        case .off: "off"
        case .starting: "starting"
        case .ready: "ready"
        case .retrying: "retrying"
        case .unavailable: "unavailable"
        }
    }

    public var why: String? {
        switch self {
        case .retrying(let w), .unavailable(let w): w
        case .off, .starting, .ready: nil
        }
    }

    /// The state a status file's `control_api` and `control_api_problem` name; nil for a word not known.
    public init?(word: String, why: String?) {
        switch word {
        case "off": self = .off
        case "starting": self = .starting
        case "ready": self = .ready
        case "retrying": self = .retrying(why ?? "")
        case "unavailable": self = .unavailable(why ?? "")
        default: return nil
        }
    }
}
