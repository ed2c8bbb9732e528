import Glibc
import Synchronization
@testable import KioskConfiguration
@testable import KioskSystem
import TestSupport
import Testing
@testable import Kiosk

/// The link against a real broker (Debian's mosquitto on a loopback port of its own): it keeps
/// retrying while the broker is down, connects when it comes up, publishes retained state that
/// `mosquitto_sub` reads, hands `mosquitto_pub`'s commands to the loop, reconnects after the
/// broker restarts, and says why a broker refused its credentials. The loop never waits for it.
@Suite(.serialized) struct MQTTLinkTests {
    /// A mosquitto process on 127.0.0.1:`port`, stopped at the end.
    final class Broker {
        let port: Int32
        let scratch: ScratchDirectory
        private(set) var pid: pid_t = 0

        init(port: Int32, scratch: ScratchDirectory, extra: String = "allow_anonymous true\n") {
            self.port = port
            self.scratch = scratch
            // As root, mosquitto would switch to its own user, who cannot read the scratch folder.
            scratch.write("mosquitto.conf", "listener \(port) 127.0.0.1\nuser root\nlog_dest file \(scratch.path)/broker.log\n" + extra)
        }

        func start() throws {
            pid = try ProcessLauncher.start(Command(argv: ["/usr/sbin/mosquitto", "-c", scratch.path + "/mosquitto.conf"]))
            // Listening once a client can connect; a second at most on a quiet machine.
            let deadline = MonotonicClock.now() + Patience.seconds
            while !Self.accepts(port), MonotonicClock.now() < deadline { usleep(50_000) }
        }

        func stop() {
            guard pid > 0 else { return }
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
        }

        deinit { stop() }

        static func accepts(_ port: Int32) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }

        /// A port nothing listens on now (the kernel's pick, given back).
        static func freePort() -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            return bindLoopback(fd) ?? 0
        }

        /// Binds `fd` to a loopback port of the kernel's choosing; that port, or nil.
        static func bindLoopback(_ fd: Int32) -> Int32? {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in bind(fd, p, length) == 0 && getsockname(fd, p, &length) == 0 }
            }
            return bound ? Int32(UInt16(bigEndian: address.sin_port)) : nil
        }
    }

    /// Runs `program` to its end with stdout in a file; returns what it printed.
    static func output(_ argv: [String], scratch: ScratchDirectory) throws -> String {
        let file = scratch.path + "/out.txt"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let pid = try ProcessLauncher.start(Command(argv: argv), output: fd)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return String(decoding: readBytes(file), as: UTF8.self)
    }

    /// Turns `loop` until `condition` holds or `Patience.seconds` pass; true when it held.
    static func turn(_ loop: EventLoop, until condition: () -> Bool) throws -> Bool {
        let end = MonotonicClock.now() + Patience.seconds
        while !condition() {
            if MonotonicClock.now() > end { return false }
            try loop.runOnce(timeout: 0.05)
        }
        return true
    }

    static func link(port: Int32, credentials: String? = nil) throws -> MQTTLink {
        let config = MQTTConfig(broker: MQTTBroker(host: "127.0.0.1", port: Int(port)), credentialsFile: credentials, keepalive: 5)
        return try MQTTLink(settings: MQTTLinkSettings(config: config, topics: MQTTTopics(clientID: "test-\(port)")))
    }

    @Test func retriesConnectsPublishesTakesCommandsAndReconnects() throws {
        let scratch = ScratchDirectory()
        let port = Broker.freePort()
        let broker = Broker(port: port, scratch: scratch)
        let loop = try EventLoop()
        let link = try Self.link(port: port)
        var received: [MQTTMessage] = []
        var changes = 0
        try link.attach(to: loop, deliver: { received += $0 }, healthChanged: { changes += 1 })
        let topics = MQTTTopics(clientID: "test-\(port)")

        // No broker: refused, and retried.
        #expect(try Self.turn(loop) { link.health.state == .retrying })
        #expect(link.health.error?.contains("mosquitto_connect") == true, "\(link.health)")
        link.publish(topics.screen, "main")

        try broker.start()
        #expect(try Self.turn(loop) { link.health.state == .connected }, "\(link.health)")
        #expect(link.health.connects == 1 && link.health.error == nil)
        #expect(changes >= 2)

        // The state published before the connection, and the availability, are retained on the broker.
        let seen = try Self.output(["mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topics.prefix + "/#", "-v", "-W", "2"], scratch: scratch)
        #expect(seen.contains("\(topics.availability) online"), "\(seen)")
        #expect(seen.contains("\(topics.screen) main"), "\(seen)")

        _ = try Self.output(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topics.showScreen, "-m", "settings"], scratch: scratch)
        #expect(try Self.turn(loop) { !received.isEmpty })
        #expect(received.map(\.topic) == [topics.showScreen] && received.map(\.payload) == [Array("settings".utf8)])

        // The broker restarts without persistence: the link reconnects and publishes the state again.
        broker.stop()
        #expect(try Self.turn(loop) { link.health.state != .connected })
        try broker.start()
        #expect(try Self.turn(loop) { link.health.state == .connected && link.health.connects == 2 }, "\(link.health)")
        let again = try Self.output(["mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topics.prefix + "/#", "-v", "-W", "2"], scratch: scratch)
        #expect(again.contains("\(topics.screen) main"), "\(again)")
    }

    @Test func refusedCredentialsAreShown() throws {
        let scratch = ScratchDirectory()
        let port = Broker.freePort()
        let passwords = scratch.write("passwd", "")
        _ = try Self.output(["mosquitto_passwd", "-b", passwords, "kiosk", "right"], scratch: scratch)
        let broker = Broker(port: port, scratch: scratch, extra: "allow_anonymous false\npassword_file \(passwords)\n")
        try broker.start()
        let credentials = scratch.write("creds.toml", "username = \"kiosk\"\npassword = \"wrong\"\n", mode: 0o600)
        let loop = try EventLoop()
        let link = try Self.link(port: port, credentials: credentials)
        try link.attach(to: loop, deliver: { _ in }, healthChanged: {})
        #expect(try Self.turn(loop) { link.health.state == .retrying })
        #expect(link.health.error?.contains("refused the connection") == true, "\(link.health)")
        #expect(link.health.connects == 0)
    }

    /// MQTT 5's CONNECT tells the broker the largest packet the kiosk takes: a 1 MB command is
    /// dropped by the broker, never sent (and so never allocated) here; the small one after it comes.
    @Test func theBrokerHoldsBackMessagesOverTheAdvertisedSize() throws {
        let scratch = ScratchDirectory()
        let port = Broker.freePort()
        let broker = Broker(port: port, scratch: scratch)
        try broker.start()
        let loop = try EventLoop()
        let link = try Self.link(port: port)
        var received: [MQTTMessage] = []
        try link.attach(to: loop, deliver: { received += $0 }, healthChanged: {})
        #expect(try Self.turn(loop) { link.health.state == .connected }, "\(link.health)")
        let topics = MQTTTopics(clientID: "test-\(port)")
        let big = scratch.write("big", String(repeating: "x", count: 1 << 20))
        _ = try Self.output(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topics.notify, "-f", big], scratch: scratch)
        _ = try Self.output(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topics.showScreen, "-m", "settings"], scratch: scratch)
        #expect(try Self.turn(loop) { !received.isEmpty })
        #expect(received.map(\.topic) == [topics.showScreen], "\(received.map { ($0.topic, $0.payload.count) })")
        #expect(link.health.received == 1 && link.health.dropped == 0, "\(link.health)")
    }

    /// A broker that knows only MQTT 3.1.1 refuses the MQTT 5 CONNECT: the link connects again
    /// with 3.1.1 at once. (A listener that answers as such a broker does: CONNACK code 1 to
    /// protocol level 5, acceptance to level 4.)
    @Test func aBrokerWithoutMQTT5GetsMQTT311() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        let port = try #require(Broker.bindLoopback(listener))
        #expect(listen(listener, 4) == 0)
        final class Levels: Sendable { let seen = Mutex<[UInt8]>([]) }
        let levels = Levels()
        try startDetachedThread {
            // Two connections: the first refused for its protocol level 5, the second accepted.
            for _ in 0..<2 {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 512)
                let n = read(fd, &buffer, buffer.count)
                // 0x10, a one-byte remaining length, 00 04 "MQTT", then the protocol level.
                let level = n > 8 ? buffer[8] : 0
                levels.seen.withLock { $0.append(level) }
                let answer: [UInt8] = level == 5 ? [0x20, 0x02, 0x00, 0x01] : [0x20, 0x02, 0x00, 0x00]
                _ = write(fd, answer, answer.count)
                if level == 5 { close(fd); continue }
                // Held open (and read) until the test ends.
                while read(fd, &buffer, buffer.count) > 0 {}
                close(fd)
            }
        }
        let loop = try EventLoop()
        let link = try Self.link(port: port)
        try link.attach(to: loop, deliver: { _ in }, healthChanged: {})
        #expect(try Self.turn(loop) { link.health.state == .connected }, "\(link.health)")
        #expect(levels.seen.withLock { $0 } == [5, 4])
        #expect(link.health.connects == 1)
    }
}
