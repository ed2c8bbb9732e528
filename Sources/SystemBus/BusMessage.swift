import CSystemdBus

/// One D-Bus message, its one Swift owner: made here (a call, a reply, a signal) or taken from a
/// handler with a reference of its own. Reads go forward through the arguments, as sd-bus reads.
public final class BusMessage {
    let pointer: OpaquePointer

    /// Takes ownership of a message reference the caller holds.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Takes a reference of its own to a message sd-bus lends a handler.
    init(retaining pointer: OpaquePointer) {
        self.pointer = sd_bus_message_ref(pointer)
    }

    deinit { sd_bus_message_unref(pointer) }

    /// The arguments' D-Bus signature ("s", "sds", "" for none).
    public var signature: String { sd_bus_message_get_signature(pointer, 1).map { String(cString: $0) } ?? "" }
    public var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }
    public var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
    public var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }

    public func isMethodCall(interface: String, member: String) -> Bool {
        sd_bus_message_is_method_call(pointer, interface, member) > 0
    }

    /// The D-Bus error a reply carries, if it is an error reply.
    public var error: (name: String, message: String)? {
        guard let e = sd_bus_message_get_error(pointer), let name = e.pointee.name else { return nil }
        return (String(cString: name), e.pointee.message.map { String(cString: $0) } ?? "")
    }

    // MARK: Reading

    public func readString() throws(BusError) -> String {
        var p: UnsafePointer<CChar>?
        try bus("sd_bus_message_read_basic(s)") { sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "s")), &p) }
        return p.map { String(cString: $0) } ?? ""
    }

    /// A string argument no longer than `maximumBytes`, or how long it is: a caller's megabytes
    /// are measured where they lie in the message, never copied.
    public func readString(maximumBytes: Int) throws(BusError) -> BoundedString {
        var p: UnsafePointer<CChar>?
        try bus("sd_bus_message_read_basic(s)") { sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "s")), &p) }
        guard let p else { return .text("") }
        let length = strlen(p)
        return length <= maximumBytes ? .text(String(cString: p)) : .tooLong(bytes: length)
    }

    /// What `readString(maximumBytes:)` found.
    public enum BoundedString: Equatable, Sendable {
        case text(String)
        case tooLong(bytes: Int)
    }

    public func readDouble() throws(BusError) -> Double {
        var d = 0.0
        try bus("sd_bus_message_read_basic(d)") { sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "d")), &d) }
        return d
    }

    public func readBool() throws(BusError) -> Bool {
        var b: Int32 = 0
        try bus("sd_bus_message_read_basic(b)") { sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "b")), &b) }
        return b != 0
    }

    public func readInt32() throws(BusError) -> Int32 {
        var i: Int32 = 0
        try bus("sd_bus_message_read_basic(i)") { sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "i")), &i) }
        return i
    }

    public func readUInt32() throws(BusError) -> UInt32 {
        var u: UInt32 = 0
        try bus("sd_bus_message_read_basic(u)") { sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "u")), &u) }
        return u
    }

    /// Enters a container (`a` "(sssb)", `r` "sssb"); false at the end of an array.
    public func enter(_ type: Character, _ contents: String) throws(BusError) -> Bool {
        try bus("sd_bus_message_enter_container") { sd_bus_message_enter_container(pointer, CChar(type.asciiValue!), contents) } > 0
    }

    public func exit() throws(BusError) {
        try bus("sd_bus_message_exit_container") { sd_bus_message_exit_container(pointer) }
    }

    // MARK: Writing

    public func append(_ s: String) throws(BusError) {
        try bus("sd_bus_message_append_basic(s)") {
            s.withCString { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "s")), $0) }
        }
    }

    public func append(_ d: Double) throws(BusError) {
        var d = d
        try bus("sd_bus_message_append_basic(d)") { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "d")), &d) }
    }

    public func append(_ b: Bool) throws(BusError) {
        var i: Int32 = b ? 1 : 0
        try bus("sd_bus_message_append_basic(b)") { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "b")), &i) }
    }

    public func append(_ i: Int32) throws(BusError) {
        var i = i
        try bus("sd_bus_message_append_basic(i)") { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "i")), &i) }
    }

    public func append(_ u: UInt32) throws(BusError) {
        var u = u
        try bus("sd_bus_message_append_basic(u)") { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "u")), &u) }
    }

    public func open(_ type: Character, _ contents: String) throws(BusError) {
        try bus("sd_bus_message_open_container") { sd_bus_message_open_container(pointer, CChar(type.asciiValue!), contents) }
    }

    public func close() throws(BusError) {
        try bus("sd_bus_message_close_container") { sd_bus_message_close_container(pointer) }
    }
}
