import CMosquitto
import Glibc
import KioskConfiguration
import KioskSystem
import Synchronization

/// How the kiosk stands with its broker, for the status file, the metrics and `kiosk status`.
public struct MQTTHealth: Equatable, Sendable {
    public enum State: String, Sendable {
        /// DNS, TCP, TLS and CONNECT under way.
        case connecting
        case connected
        /// The last attempt failed (or the connection was lost); the next one is due after a pause.
        case retrying
    }

    public var broker: String
    public var state: State
    /// Why the last attempt failed or the connection was lost; nil once connected.
    public var error: String?
    /// Connections the broker accepted since start.
    public var connects = 0
    /// Commands taken off the broker, and those dropped over the rate limit.
    public var received = 0
    public var dropped = 0
    /// Commands refused (bad topic or payload, unknown screen or id), as the runtime counts them.
    public var refused = 0

    public init(broker: String, state: State = .connecting, error: String? = nil) {
        self.broker = broker
        self.state = state
        self.error = error
    }
}

/// One command message as it came from the broker.
public struct MQTTMessage: Equatable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    /// CLOCK_MONOTONIC when the link thread read it: where its message-to-flip latency starts.
    public var arrived: Double
    public init(topic: String, payload: [UInt8], arrived: Double = 0) {
        self.topic = topic
        self.payload = payload
        self.arrived = arrived
    }
}

/// What the link thread needs to connect: the broker, who the kiosk is, and what to say when it goes.
public struct MQTTLinkSettings: Equatable, Sendable {
    public var config: MQTTConfig
    public var topics: MQTTTopics
    public init(config: MQTTConfig, topics: MQTTTopics) {
        self.config = config
        self.topics = topics
    }
}

/// The kiosk's connection to its broker, run on a thread of its own so that the event loop never
/// waits for DNS, TCP, TLS or a broker that is down: the thread alone calls libmosquitto (its
/// own poll on the client's socket), retries with `MQTTBackoff`, and republishes every retained
/// topic after each reconnect. The loop side publishes by storing the newest payload per topic
/// (so a burst of changes is sent once) and takes commands from a bounded queue that an eventfd
/// announces, the way `ConfigLoadWorker` hands its results over.
public final class MQTTLink {
    private let shared: LinkShared

    /// Starts the thread, which starts connecting at once.
    public init(settings: MQTTLinkSettings, clock: @escaping @Sendable () -> Double = MonotonicClock.now) throws(SystemError) {
        shared = try LinkShared(broker: settings.config.broker.description)
        let thread = LinkThread(shared: shared, settings: settings, clock: clock)
        try startDetachedThread { thread.run() }
    }

    /// The thread says `offline`, disconnects and ends, without being waited for.
    deinit { shared.stop() }

    /// `deliver` runs on the loop's thread with the commands that arrived (at most
    /// `LinkShared.inboundCapacity` at a time); `healthChanged` when the connection's state did.
    public func attach(to loop: EventLoop, deliver: @escaping ([MQTTMessage]) -> Void, healthChanged: @escaping () -> Void) throws(SystemError) {
        var lastHealth = health
        try loop.watch(shared.toLoop.descriptor.rawValue) { [unowned self] in
            self.shared.toLoop.acknowledge()
            let messages = self.shared.state.withLock { state -> [MQTTMessage] in
                defer { state.inbound.removeAll(keepingCapacity: true) }
                return state.inbound
            }
            if !messages.isEmpty { deliver(messages) }
            // The counters change with every message: only a change of state rewrites the status.
            let now = self.health
            if (now.state, now.error, now.connects) != (lastHealth.state, lastHealth.error, lastHealth.connects) {
                lastHealth = now
                healthChanged()
            }
        }
    }

    public var descriptor: Int32 { shared.toLoop.descriptor.rawValue }

    public var health: MQTTHealth { shared.state.withLock { $0.health } }

    /// Retained: the newest payload per topic is sent, now and after every reconnect.
    /// Not retained (events, errors): queued, the oldest dropped past `LinkShared.eventCapacity`.
    public func publish(_ topic: String, _ payload: String, retain: Bool = true) {
        let bytes = Array(payload.utf8)
        let queued = shared.state.withLock { state -> Bool in
            if retain {
                guard state.retained[topic] != bytes else { return false }
                state.retained[topic] = bytes
                if !state.dirty.contains(topic) { state.dirty.append(topic) }
            } else {
                if state.events.count >= LinkShared.eventCapacity { state.events.removeFirst() }
                state.events.append(MQTTMessage(topic: topic, payload: bytes))
            }
            return true
        }
        if queued { shared.toThread.signal() }
    }
}

/// What the loop side and the thread share: one lock over the queues and the health, an eventfd
/// each way. Closed when both sides are gone.
private final class LinkShared: Sendable {
    /// Commands waiting for the loop; more are dropped (and counted) until it takes them.
    static let inboundCapacity = 256
    static let eventCapacity = 64

    struct State {
        var health: MQTTHealth
        var stopping = false
        var retained: [String: [UInt8]] = [:]
        /// Retained topics not yet sent since they changed (or since the last connect), in order.
        var dirty: [String] = []
        var events: [MQTTMessage] = []
        var inbound: [MQTTMessage] = []
    }

    let state: Mutex<State>
    let toThread: WakeSource
    let toLoop: WakeSource

    init(broker: String) throws(SystemError) {
        state = Mutex(State(health: MQTTHealth(broker: broker)))
        toThread = try WakeSource()
        toLoop = try WakeSource()
    }

    func stop() {
        state.withLock { $0.stopping = true }
        toThread.signal()
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    func update(_ change: (inout MQTTHealth) -> Void) {
        let changed = state.withLock { s -> Bool in
            let before = s.health
            change(&s.health)
            return s.health != before
        }
        if changed { toLoop.signal() }
    }
}

/// The thread's side: the one `MosquittoClient`, the backoff and the rate limit.
///
/// `@unchecked Sendable`: handed to the new thread once, used by that thread alone.
private final class LinkThread: MosquittoEvents, @unchecked Sendable {
    let shared: LinkShared
    let settings: MQTTLinkSettings
    let clock: @Sendable () -> Double
    private var backoff = MQTTBackoff()
    private var limit = MQTTRateLimit()
    /// Set by the CONNACK callback: nil while waiting for it.
    private var connack: Int32?
    private var client: MosquittoClient?
    /// Flushes of publishes at most this often: a state that changes 60 times a second goes out 10 times.
    static let flushInterval = 0.1
    /// How long the broker has to answer CONNECT before the attempt counts as failed.
    static let connackTimeout = 10.0
    /// The largest packet the broker may send (MQTT 5): a command's largest payload, with room
    /// for its topic and headers. A larger one is dropped by the broker, never allocated here.
    static let maximumPacketSize = UInt32(MQTTCommand.maximumPayload + 4096)
    /// Whether the last attempt's broker refused the protocol it was offered.
    private var protocolRefused = false

    init(shared: LinkShared, settings: MQTTLinkSettings, clock: @escaping @Sendable () -> Double) {
        self.shared = shared
        self.settings = settings
        self.clock = clock
    }

    func run() {
        let config = settings.config
        let client: MosquittoClient
        do {
            client = try MosquittoClient(clientID: settings.topics.clientID, events: self)
            try client.use(.v5)
            try client.setWill(topic: settings.topics.availability, payload: "offline", retain: true)
            if let file = config.credentialsFile {
                switch MQTTCredentials.read(path: file) {
                case .success(let c): try client.setCredentials(username: c.username, password: c.password)
                case .failure(let e): Log.error("mqtt: credentials_file \"\(file)\" \(e); connecting without credentials")
                }
            }
            if config.usesTLS { try client.setTLS(caFile: config.caFile, certFile: config.certFile, keyFile: config.keyFile) }
        } catch {
            Log.error("mqtt: cannot set up the client: \(error)")
            shared.update { $0.state = .retrying; $0.error = "\(error)" }
            return
        }
        self.client = client
        while !shared.isStopping {
            shared.update { $0.state = .connecting }
            let outcome = attempt(client)
            if shared.isStopping { break }
            if protocolRefused, client.version == .v5, (try? client.use(.v311)) != nil {
                // Once per start: a broker does not learn MQTT 5 while the kiosk runs.
                Log.warning("mqtt: \(settings.config.broker) does not take MQTT 5 (\(outcome)): connecting with MQTT 3.1.1, "
                            + "which cannot tell the broker the largest message the kiosk takes (larger ones are read, then refused)")
                continue
            }
            let retryAt = backoff.failed(at: clock())
            Log.warning("mqtt: \(settings.config.broker): \(outcome); next try in \(Int(backoff.delay)) s")
            shared.update { $0.state = .retrying; $0.error = outcome }
            wait(until: retryAt)
        }
        self.client = nil
    }

    /// One connection from CONNECT until it is lost; returns why it ended.
    private func attempt(_ client: MosquittoClient) -> String {
        connack = nil
        protocolRefused = false
        do {
            try client.connect(host: settings.config.broker.host, port: settings.config.broker.port, keepalive: settings.config.keepalive,
                               maximumPacketSize: Self.maximumPacketSize)
        } catch {
            return "\(error)"
        }
        let deadline = clock() + Self.connackTimeout
        var nextFlush = 0.0
        while true {
            if shared.isStopping {
                goodbye(client)
                return "stopped"
            }
            switch connack {
            case nil:
                if clock() > deadline {
                    try? client.disconnect()
                    return "no CONNACK within \(Int(Self.connackTimeout)) s"
                }
            case 0?:
                if clock() >= nextFlush, flush(client) { nextFlush = clock() + Self.flushInterval }
            case let refused?:
                try? client.disconnect()
                protocolRefused = MosquittoClient.refusesProtocol(connack: refused, error: nil)
                return refusal(refused, client)
            }
            // Waiting for CONNACK: look at the clock 4 times a second; connected: wake for the next
            // flush when something waits to be sent, else for the keepalive's ping.
            let timeout = connack != 0 ? 0.25 : hasPending ? max(0, nextFlush - clock()) : Double(settings.config.keepalive) / 2
            do {
                try service(client, timeout: timeout)
            } catch {
                // A refusing CONNACK ends the read that carried it: say the broker's reason.
                if let refused = connack, refused != 0 {
                    protocolRefused = MosquittoClient.refusesProtocol(connack: refused, error: nil)
                    return refusal(refused, client)
                }
                if connack == nil { protocolRefused = MosquittoClient.refusesProtocol(connack: nil, error: error) }
                return "\(error)"
            }
        }
    }

    func refusal(_ code: Int32, _ client: MosquittoClient) -> String {
        "the broker refused the connection: \(MosquittoClient.connackReason(code, client.version))"
    }

    private var hasPending: Bool { shared.state.withLock { !$0.dirty.isEmpty || !$0.events.isEmpty } }

    /// Polls the client's socket and the loop's wake-up; reads, writes and pings as due.
    private func service(_ client: MosquittoClient, timeout: Double) throws(MosquittoError) {
        let socket = client.socket
        guard socket >= 0 else { throw MosquittoError("mosquitto_socket", code: MOSQ_ERR_NO_CONN.rawValue) }
        var fds = [
            pollfd(fd: socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: shared.toThread.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        let ms = Int32(min(max(0, timeout), 3600) * 1000)
        _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, ms) }
        if fds[1].revents != 0 { shared.toThread.acknowledge() }
        if fds[0].revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { try client.loopRead() }
        if fds[0].revents & Int16(POLLOUT) != 0 { try client.loopWrite() }
        try client.loopMisc()
    }

    /// Sends what changed since the last flush; true when anything was sent.
    private func flush(_ client: MosquittoClient) -> Bool {
        let (retained, events) = shared.state.withLock { state -> ([(String, [UInt8])], [MQTTMessage]) in
            let r = state.dirty.compactMap { topic in state.retained[topic].map { (topic, $0) } }
            state.dirty.removeAll()
            defer { state.events.removeAll() }
            return (r, state.events)
        }
        for (topic, payload) in retained { try? client.publish(topic: topic, payload: payload, retain: true) }
        for event in events { try? client.publish(topic: event.topic, payload: event.payload, retain: false) }
        return !retained.isEmpty || !events.isEmpty
    }

    /// `offline` retained (a clean disconnect sends no will), then DISCONNECT.
    private func goodbye(_ client: MosquittoClient) {
        guard connack == 0 else { return }
        try? client.publish(topic: settings.topics.availability, payload: Array("offline".utf8), retain: true)
        for _ in 0..<10 where client.wantsWrite { try? client.loopWrite() }
        try? client.disconnect()
    }

    /// Sleeps until `time` or until stopped.
    private func wait(until time: Double) {
        while !shared.isStopping {
            let left = time - clock()
            if left <= 0 { return }
            var fd = pollfd(fd: shared.toThread.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, Int32(min(left, 60) * 1000) + 1) > 0 { shared.toThread.acknowledge() }
        }
    }

    // MARK: MosquittoEvents (inside loopRead/loopWrite/loopMisc on this thread)

    func connected(code: Int32) {
        connack = code
        guard code == 0, let client else { return }
        backoff.connected()
        try? client.subscribe(settings.topics.commands)
        try? client.publish(topic: settings.topics.availability, payload: Array("online".utf8), retain: true)
        // A broker that restarted without persistence lost the retained state: send it all again.
        shared.state.withLock { state in state.dirty = Array(state.retained.keys).sorted() }
        shared.update { $0.state = .connected; $0.error = nil; $0.connects += 1 }
        Log.info("mqtt: connected to \(settings.config.broker) as \(settings.topics.clientID)")
    }

    func disconnected(code: Int32) {}

    func received(topic: String, payload: [UInt8], retained: Bool) {
        // A retained command is an old one: acting on it at every reconnect would replay it.
        guard !retained else { return }
        let admitted = limit.admit(at: clock())
        let queued = shared.state.withLock { state -> Bool in
            guard admitted, state.inbound.count < LinkShared.inboundCapacity else {
                state.health.dropped += 1
                return false
            }
            state.inbound.append(MQTTMessage(topic: topic, payload: payload, arrived: MonotonicClock.now()))
            state.health.received += 1
            return true
        }
        if queued { shared.toLoop.signal() }
    }
}
