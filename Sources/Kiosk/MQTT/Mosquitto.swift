import CMosquitto
import Glibc
import Synchronization

/// A libmosquitto call that failed: the call's name and its `MOSQ_ERR_*` code (with errno when
/// the code is `MOSQ_ERR_ERRNO`), or a broker's CONNACK refusal.
public struct MosquittoError: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var errno: Int32
    /// Words of the kiosk's own (the library could not be opened), instead of the code's.
    public var detail: String?

    public init(_ call: String, code: Int32, errno: Int32 = 0, detail: String? = nil) {
        self.call = call
        self.code = code
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        if let detail { return "\(call): \(detail)" }
        if code == MOSQ_ERR_ERRNO.rawValue, errno != 0 { return "\(call): \(String(cString: strerror(errno)))" }
        return "\(call): " + (MosquittoLibrary.functions?.mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)")
    }

    /// The connection is gone (the loop reconnects); anything else is a fault of the call.
    var isConnectionLost: Bool {
        code == MOSQ_ERR_CONN_LOST.rawValue || code == MOSQ_ERR_NO_CONN.rawValue || code == MOSQ_ERR_ERRNO.rawValue
    }
}

/// Every libmosquitto call that returns a `MOSQ_ERR_*` goes through here.
@inline(__always)
func mosquittoCall(_ name: String, _ body: () -> Int32) throws(MosquittoError) {
    let rc = body()
    guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw MosquittoError(name, code: rc, errno: rc == MOSQ_ERR_ERRNO.rawValue ? Glibc.errno : 0) }
}

/// MQTT 5 first (it lets the kiosk bound what the broker sends it); 3.1.1 for a broker without it.
enum MQTTProtocolVersion: String, Sendable {
    case v5 = "5"
    case v311 = "3.1.1"
}

/// libmosquitto, opened when the first client is made (a config with `[mqtt]`), never before: a
/// kiosk without a broker neither maps it nor needs it installed.
enum MosquittoLibrary {
    static let soname = "libmosquitto.so.1"
    /// Nil when it cannot be opened; `problem` says why.
    static let functions: KioskMosquittoFunctions? = kiosk_mosquitto_functions()?.pointee
    static var problem: String { String(cString: kiosk_mosquitto_problem()) }

    /// Why `soname` cannot serve as libmosquitto; nil when it can (tests: a library not there).
    static func problem(opening soname: String) -> String? {
        var why = [CChar](repeating: 0, count: 512)
        return why.withUnsafeMutableBufferPointer { kiosk_mosquitto_problem_opening(soname, $0.baseAddress!, $0.count).map { String(cString: $0) } }
    }
}

/// `mosquitto_lib_init` before the first client, `mosquitto_lib_cleanup` after the last is gone.
private let libraryUsers = Mutex(0)

/// What the connection's thread hears from libmosquitto's callbacks (they run inside
/// `loop_read`/`loop_write`/`loop_misc`, on the same thread).
protocol MosquittoEvents: AnyObject {
    /// CONNACK: `code` 0 accepted, else the broker's refusal.
    func connected(code: Int32)
    func disconnected(code: Int32)
    func received(topic: String, payload: [UInt8], retained: Bool)
}

/// The one owner of a `struct mosquitto *`: made in `init`, freed in `deinit`. Used by one
/// thread only (the connection's), so libmosquitto's own locking is not relied upon.
final class MosquittoClient {
    private let handle: OpaquePointer
    /// Where callbacks go; weak: the thread owns both.
    private weak var events: (any MosquittoEvents)?
    private let context: Unmanaged<Box>
    /// libmosquitto's functions (`MosquittoLibrary`), opened before the first client.
    private let lib: KioskMosquittoFunctions

    private final class Box {
        weak var client: MosquittoClient?
    }

    init(clientID: String, events: any MosquittoEvents) throws(MosquittoError) {
        guard let lib = MosquittoLibrary.functions else {
            throw MosquittoError("dlopen(\(MosquittoLibrary.soname))", code: MOSQ_ERR_NOT_SUPPORTED.rawValue,
                                 detail: "MQTT needs libmosquitto (Debian: apt install libmosquitto1): \(MosquittoLibrary.problem)")
        }
        self.lib = lib
        libraryUsers.withLock { count in
            if count == 0 { _ = lib.mosquitto_lib_init() }
            count += 1
        }
        let box = Box()
        context = Unmanaged.passRetained(box)
        guard let made = lib.mosquitto_new(clientID, true, context.toOpaque()) else {
            let error = MosquittoError("mosquitto_new", code: MOSQ_ERR_ERRNO.rawValue, errno: Glibc.errno)
            context.release()
            Self.releaseLibrary()
            throw error
        }
        handle = made
        self.events = events
        box.client = self
        lib.mosquitto_connect_callback_set(handle) { _, obj, rc in
            MosquittoClient.client(obj)?.events?.connected(code: rc)
        }
        lib.mosquitto_disconnect_callback_set(handle) { _, obj, rc in
            MosquittoClient.client(obj)?.events?.disconnected(code: rc)
        }
        lib.mosquitto_message_callback_set(handle) { _, obj, message in
            guard let message, let client = MosquittoClient.client(obj) else { return }
            let m = message.pointee
            let topic = m.topic.map { String(cString: $0) } ?? ""
            var payload: [UInt8] = []
            if let bytes = m.payload, m.payloadlen > 0 {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(m.payloadlen)))
            }
            client.events?.received(topic: topic, payload: payload, retained: m.retain)
        }
    }

    deinit {
        lib.mosquitto_destroy(handle)
        context.release()
        Self.releaseLibrary()
    }

    private static func client(_ obj: UnsafeMutableRawPointer?) -> MosquittoClient? {
        guard let obj else { return nil }
        return Unmanaged<Box>.fromOpaque(obj).takeUnretainedValue().client
    }

    private static func releaseLibrary() {
        libraryUsers.withLock { count in
            count -= 1
            if count == 0 { _ = MosquittoLibrary.functions?.mosquitto_lib_cleanup() }
        }
    }

    // MARK: Set-up (before connecting)

    func setWill(topic: String, payload: String, retain: Bool) throws(MosquittoError) {
        let bytes = Array(payload.utf8)
        try mosquittoCall("mosquitto_will_set") { lib.mosquitto_will_set(handle, topic, Int32(bytes.count), bytes, 1, retain) }
    }

    func setCredentials(username: String, password: String?) throws(MosquittoError) {
        try mosquittoCall("mosquitto_username_pw_set") { lib.mosquitto_username_pw_set(handle, username, password) }
    }

    /// `caFile` nil: the system's certificates (`/etc/ssl/certs`).
    func setTLS(caFile: String?, certFile: String?, keyFile: String?) throws(MosquittoError) {
        try mosquittoCall("mosquitto_tls_set") {
            lib.mosquitto_tls_set(handle, caFile, caFile == nil ? "/etc/ssl/certs" : nil, certFile, keyFile, nil)
        }
    }

    // MARK: Connection (the connection's thread)

    /// The protocol of the next `connect`.
    private(set) var version = MQTTProtocolVersion.v5

    func use(_ version: MQTTProtocolVersion) throws(MosquittoError) {
        try mosquittoCall("mosquitto_int_option(MOSQ_OPT_PROTOCOL_VERSION)") {
            lib.mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, version == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311)
        }
        self.version = version
    }

    /// Blocks for DNS, TCP and TLS: never on the event loop's thread. MQTT 5: CONNECT tells the
    /// broker `maximumPacketSize`, and the broker drops a larger message for this client instead
    /// of sending it (libmosquitto would allocate whatever length a packet announces).
    func connect(host: String, port: Int, keepalive: Int, maximumPacketSize: UInt32) throws(MosquittoError) {
        guard version == .v5 else {
            return try mosquittoCall("mosquitto_connect") { lib.mosquitto_connect(handle, host, Int32(port), Int32(keepalive)) }
        }
        var properties: OpaquePointer?
        defer { lib.mosquitto_property_free_all(&properties) }
        try mosquittoCall("mosquitto_property_add_int32") {
            lib.mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maximumPacketSize)
        }
        try mosquittoCall("mosquitto_connect_bind_v5") {
            lib.mosquitto_connect_bind_v5(handle, host, Int32(port), Int32(keepalive), nil, properties)
        }
    }

    func reconnect() throws(MosquittoError) {
        try mosquittoCall("mosquitto_reconnect") { lib.mosquitto_reconnect(handle) }
    }

    func disconnect() throws(MosquittoError) {
        try mosquittoCall("mosquitto_disconnect") { lib.mosquitto_disconnect(handle) }
    }

    /// QoS 1: a state or command a broker restart must not lose.
    func publish(topic: String, payload: [UInt8], retain: Bool) throws(MosquittoError) {
        try mosquittoCall("mosquitto_publish") { lib.mosquitto_publish(handle, nil, topic, Int32(payload.count), payload, 1, retain) }
    }

    func subscribe(_ pattern: String) throws(MosquittoError) {
        try mosquittoCall("mosquitto_subscribe") { lib.mosquitto_subscribe(handle, nil, pattern, 1) }
    }

    /// The socket to poll; -1 while not connected.
    var socket: Int32 { lib.mosquitto_socket(handle) }
    var wantsWrite: Bool { lib.mosquitto_want_write(handle) }

    func loopRead() throws(MosquittoError) {
        try mosquittoCall("mosquitto_loop_read") { lib.mosquitto_loop_read(handle, 1) }
    }

    func loopWrite() throws(MosquittoError) {
        try mosquittoCall("mosquitto_loop_write") { lib.mosquitto_loop_write(handle, 1) }
    }

    /// Pings and retries; call at least every keepalive/2 seconds.
    func loopMisc() throws(MosquittoError) {
        try mosquittoCall("mosquitto_loop_misc") { lib.mosquitto_loop_misc(handle) }
    }

    /// A CONNACK's code in words: MQTT 3.1.1's return codes and MQTT 5's reason codes differ.
    static func connackReason(_ code: Int32, _ version: MQTTProtocolVersion) -> String {
        guard let lib = MosquittoLibrary.functions else { return "code \(code)" }
        return (version == .v5 ? lib.mosquitto_reason_string(code) : lib.mosquitto_connack_string(code)).map { String(cString: $0) } ?? "code \(code)"
    }

    /// A broker that does not speak `version` says so in its CONNACK (3.1.1's "unacceptable
    /// protocol version", 5's "unsupported protocol version"), or answers in a form libmosquitto
    /// cannot read.
    static func refusesProtocol(connack: Int32?, error: MosquittoError?) -> Bool {
        if let connack {
            return connack == Int32(CONNACK_REFUSED_PROTOCOL_VERSION.rawValue) || connack == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue)
        }
        return error?.code == MOSQ_ERR_PROTOCOL.rawValue || error?.code == MOSQ_ERR_MALFORMED_PACKET.rawValue
    }
}
