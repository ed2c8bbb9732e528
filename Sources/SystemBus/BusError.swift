import CSystemdBus

/// A failed sd-bus call: which call, its errno, and the D-Bus error's name and message when the
/// other side (or sd-bus) gave one.
public struct BusError: Error, Equatable, CustomStringConvertible, Sendable {
    public var call: String
    public var errno: Int32
    /// `org.freedesktop.DBus.Error.AccessDenied`, ...; nil when the call failed locally.
    public var name: String?
    public var message: String?

    public init(call: String, errno: Int32, name: String? = nil, message: String? = nil) {
        self.call = call
        self.errno = errno
        self.name = name
        self.message = message
    }

    /// Takes what `error` holds and frees it.
    init(call: String, result: Int32, error: inout sd_bus_error) {
        self.call = call
        errno = -result
        name = error.name.map { String(cString: $0) }
        message = error.message.map { String(cString: $0) }
        sd_bus_error_free(&error)
    }

    public var description: String {
        if let name { return "\(call): \(name): \(message ?? "")" }
        return "\(call): \(String(cString: strerror(errno)))"
    }
}

/// Calls one sd-bus function; a negative result (sd-bus returns -errno) becomes a `BusError` naming it.
@discardableResult
func bus(_ call: String, _ body: () -> Int32) throws(BusError) -> Int32 {
    let r = body()
    if r < 0 { throw BusError(call: call, errno: -r) }
    return r
}

/// An error a method handler answers a call with (sent back as a D-Bus error reply).
public struct BusMethodError: Error, Equatable, Sendable {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The standard error for arguments of the wrong type or number.
    public static func invalidArguments(_ message: String) -> BusMethodError {
        BusMethodError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
}
