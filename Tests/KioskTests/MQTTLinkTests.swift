import Glibc
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
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Int32 in
                    _ = bind(fd, p, length)
                    return getsockname(fd, p, &length)
                }
            }
            return Int32(UInt16(bigEndian: address.sin_port))
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
}
