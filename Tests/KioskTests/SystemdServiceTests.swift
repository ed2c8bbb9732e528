import Foundation
import Glibc
@testable import Kiosk
import Testing

/// What the kiosk tells systemd, read from a notify socket of the test's own.
@Suite struct SystemdServiceTests {
    /// A datagram socket standing in for systemd's $NOTIFY_SOCKET.
    final class NotifySocket {
        let path: String
        let fd: Int32
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(fd >= 0 && bound == 0)
        }
        deinit { close(fd); unlink(path) }
        /// Every datagram sent so far.
        func messages() -> [String] {
            var out: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return out }
                out.append(String(decoding: buffer[..<n], as: UTF8.self))
            }
        }
    }

    @Test func theWatchdogIsStretchedUntilTheFirstFrameThenGivenBackItsInterval() throws {
        let systemd = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "4000000",
                                                     "WATCHDOG_PID": "\(getpid())"], pid: getpid())
        #expect(notifier.watchdogInterval == 2)
        let service = try SystemdService(notifier: notifier)
        #expect(systemd.messages() == ["WATCHDOG_USEC=30000000"])
        service.ready(status: "Showing main")
        #expect(systemd.messages() == ["READY=1\nSTATUS=Showing main\nWATCHDOG_USEC=4000000"])
        // A reload's READY=1 leaves the interval alone.
        service.ready(status: "Showing main")
        #expect(systemd.messages() == ["READY=1\nSTATUS=Showing main"])
    }

    @Test func aWatchdogLongerThanTheAllowanceOrAnotherProcesssIsLeftAlone() throws {
        let systemd = try NotifySocket()
        let long = try SystemdService(notifier: SystemdNotifier(
            environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "60000000"], pid: getpid()))
        long.ready(status: "Showing main")
        let others = try SystemdService(notifier: SystemdNotifier(
            environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "\(getpid() + 1)"],
            pid: getpid()))
        others.ready(status: "Showing main")
        #expect(systemd.messages() == ["READY=1\nSTATUS=Showing main", "READY=1\nSTATUS=Showing main"])
    }
}
