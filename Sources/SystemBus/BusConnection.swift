import CSystemdBus
import Glibc

/// One connection to a D-Bus bus (sd_bus), its one Swift owner: closed and freed on deinit.
/// Not thread-safe: used from one thread (the kiosk's event loop, or `kiosk ctl`'s main thread).
public final class BusConnection {
    let pointer: OpaquePointer

    /// The system bus, or the bus at `address` (`unix:path=...`; tests run their own daemon).
    /// Connecting to a local socket does not wait for the bus daemon's answer.
    public init(address: String? = nil) throws(BusError) {
        var b: OpaquePointer?
        if let address {
            try bus("sd_bus_new") { sd_bus_new(&b) }
            guard let made = b else { throw BusError(call: "sd_bus_new", errno: ENOMEM) }
            do {
                try bus("sd_bus_set_address") { sd_bus_set_address(made, address) }
                try bus("sd_bus_set_bus_client") { sd_bus_set_bus_client(made, 1) }
                try bus("sd_bus_start") { sd_bus_start(made) }
            } catch {
                sd_bus_unref(made)
                throw error
            }
        } else {
            try bus("sd_bus_open_system") { sd_bus_open_system(&b) }
        }
        guard let b else { throw BusError(call: "sd_bus_open_system", errno: ENOMEM) }
        pointer = b
    }

    deinit { sd_bus_close_unref(pointer) }

    // MARK: Event loop

    public var descriptor: Int32 { get throws(BusError) { try bus("sd_bus_get_fd") { sd_bus_get_fd(pointer) } } }

    /// The poll(2) events the connection waits for now (POLLIN, and POLLOUT while it has output queued).
    public var events: Int32 { get throws(BusError) { try bus("sd_bus_get_events") { sd_bus_get_events(pointer) } } }

    /// When sd-bus must be processed even without I/O (a call's timeout), CLOCK_MONOTONIC seconds; nil: never.
    public var deadline: Double? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(pointer, &usec) >= 0, usec != UInt64.max else { return nil }
        return Double(usec) / 1e6
    }

    /// Handles one pending thing (a message in or out, a timeout); true when it did something and
    /// more may be pending.
    public func process() throws(BusError) -> Bool {
        try bus("sd_bus_process") { sd_bus_process(pointer, nil) } > 0
    }

    /// Writes out what is queued, waiting for it (`kiosk ctl` only; never on the kiosk's loop).
    public func flush() throws(BusError) {
        try bus("sd_bus_flush") { sd_bus_flush(pointer) }
    }

    // MARK: Messages

    public func methodCall(destination: String, path: String, interface: String, member: String) throws(BusError) -> BusMessage {
        var m: OpaquePointer?
        try bus("sd_bus_message_new_method_call") { sd_bus_message_new_method_call(pointer, &m, destination, path, interface, member) }
        return BusMessage(taking: m!)
    }

    public func signal(path: String, interface: String, member: String) throws(BusError) -> BusMessage {
        var m: OpaquePointer?
        try bus("sd_bus_message_new_signal") { sd_bus_message_new_signal(pointer, &m, path, interface, member) }
        return BusMessage(taking: m!)
    }

    public func reply(to call: BusMessage) throws(BusError) -> BusMessage {
        var m: OpaquePointer?
        try bus("sd_bus_message_new_method_return") { sd_bus_message_new_method_return(call.pointer, &m) }
        return BusMessage(taking: m!)
    }

    /// Queues `message` (sent as the loop processes the connection).
    public func send(_ message: BusMessage) throws(BusError) {
        try bus("sd_bus_send") { sd_bus_send(pointer, message.pointer, nil) }
    }

    /// Sends `call` and waits up to `timeout` seconds for its reply (`kiosk ctl` only). A D-Bus
    /// error reply is thrown with its name and message.
    public func call(_ call: BusMessage, timeout: Double) throws(BusError) -> BusMessage {
        var error = sd_bus_error()
        var reply: OpaquePointer?
        let r = sd_bus_call(pointer, call.pointer, UInt64(timeout * 1e6), &error, &reply)
        if r < 0 { throw BusError(call: "sd_bus_call", result: r, error: &error) }
        sd_bus_error_free(&error)
        return BusMessage(taking: reply!)
    }

    // MARK: Objects and names

    /// Calls `handler` for every message to `path`. It answers the call itself (and returns true),
    /// returns false for a call it does not know (sd-bus answers UnknownMethod), or throws the
    /// error to answer with. Served until the returned slot is released.
    public func addObject(path: String, _ handler: @escaping (BusMessage) throws(BusMethodError) -> Bool) throws(BusError) -> BusSlot {
        let box = ObjectHandler(handler)
        var slot: OpaquePointer?
        try bus("sd_bus_add_object") {
            sd_bus_add_object(pointer, &slot, path, { m, userdata, retError in
                guard let m, let userdata else { return 0 }
                let handler = Unmanaged<ObjectHandler>.fromOpaque(userdata).takeUnretainedValue()
                do throws(BusMethodError) {
                    return try handler.handle(BusMessage(retaining: m)) ? 1 : 0
                } catch {
                    return sd_bus_error_set(retError, error.name, error.message)
                }
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        return BusSlot(slot!, keeping: box)
    }

    /// Asks the bus for `name` without waiting; `done` gets the bus's answer (`RequestName`'s
    /// code: 1 primary owner, 2 queued, 3 exists, 4 already owner) or the error reply (a policy
    /// that refuses it). Cancelled when the returned slot is released.
    public func requestName(_ name: String, done: @escaping (Result<UInt32, BusError>) -> Void) throws(BusError) -> BusSlot {
        let box = ReplyHandler(done)
        var slot: OpaquePointer?
        try bus("sd_bus_request_name_async") {
            sd_bus_request_name_async(pointer, &slot, name, 0, { m, userdata, _ in
                guard let m, let userdata else { return 0 }
                let handler = Unmanaged<ReplyHandler>.fromOpaque(userdata).takeUnretainedValue()
                let reply = BusMessage(retaining: m)
                if let e = reply.error {
                    handler.done(.failure(BusError(call: "RequestName", errno: EACCES, name: e.name, message: e.message)))
                } else {
                    do throws(BusError) { handler.done(.success(try reply.readUInt32())) } catch { handler.done(.failure(error)) }
                }
                return 1
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        return BusSlot(slot!, keeping: box)
    }
}

/// What an object slot calls, kept alive by the slot.
final class ObjectHandler {
    let handle: (BusMessage) throws(BusMethodError) -> Bool
    init(_ handle: @escaping (BusMessage) throws(BusMethodError) -> Bool) { self.handle = handle }
}

final class ReplyHandler {
    let done: (Result<UInt32, BusError>) -> Void
    init(_ done: @escaping (Result<UInt32, BusError>) -> Void) { self.done = done }
}

/// A registration on a connection (an object, a pending call), its one Swift owner: released on
/// deinit, which ends it (sd-bus calls its handler no more).
public final class BusSlot {
    private let pointer: OpaquePointer
    /// The handler its callback reaches through userdata; released after the slot.
    private let context: AnyObject

    init(_ pointer: OpaquePointer, keeping context: AnyObject) {
        self.pointer = pointer
        self.context = context
    }

    deinit { sd_bus_slot_unref(pointer) }
}
