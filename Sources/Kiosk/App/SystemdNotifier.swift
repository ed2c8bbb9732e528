import Glibc

/// sd_notify without libsystemd: datagrams to $NOTIFY_SOCKET (READY=1, RELOADING=1, STATUS=,
/// WATCHDOG=1). Does nothing when not started by systemd with notification enabled.
public final class SystemdNotifier {
    private let socketPath: String?
    /// The unit's watchdog interval in microseconds (`WatchdogSec=`), or nil without a watchdog.
    public let watchdogUSec: Int?
    /// Half the watchdog interval: how often to ping.
    public var watchdogInterval: Double? { watchdogUSec.map { Double($0) / 1e6 / 2 } }

    public convenience init() {
        let environment = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"].reduce(into: [String: String]()) { env, name in
            env[name] = getenv(name).map { String(cString: $0) }
        }
        self.init(environment: environment, pid: getpid())
    }

    /// `environment`: the variables systemd sets; `pid`: this process (the watchdog is ours only
    /// when WATCHDOG_PID names it or is absent).
    public init(environment: [String: String], pid: Int32) {
        let path = environment["NOTIFY_SOCKET"]
        socketPath = path?.isEmpty == false ? path : nil
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int.init), usec > 0 {
            let owner = environment["WATCHDOG_PID"].flatMap(Int32.init)
            watchdogUSec = (owner == nil || owner == pid) ? usec : nil
        } else {
            watchdogUSec = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    public func notify(_ message: String) {
        guard var path = socketPath else { return }
        if path.hasPrefix("@") { path = "\0" + path.dropFirst() }  // abstract namespace
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let text = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                text.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
    }

    /// RELOADING=1 needs the monotonic time for Type=notify-reload.
    public func reloading() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        notify("RELOADING=1\nMONOTONIC_USEC=\(Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1000)")
    }
}
