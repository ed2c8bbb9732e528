import Glibc
import KioskConfiguration

/// What `kiosk status` concludes, as its exit status: LSB's `status` codes, so init scripts and
/// monitoring read it the way they read any service's.
public enum KioskHealth: Int32, Sendable {
    /// The kiosk runs, its config is valid and its display is connected.
    case healthy = 0
    /// The kiosk runs but shows a banner for an invalid config (the last good one stays on
    /// screen), or its display is disconnected.
    case unhealthy = 1
    /// No status to judge: no file, not readable, not a kiosk status, or its writer is gone.
    case noStatus = 3

    /// One word, for scripts.
    public var name: String {
        switch self {
        case .healthy: "healthy"
        case .unhealthy: "unhealthy"
        case .noStatus: "no-status"
        }
    }
}

/// A status file read back and judged, for a person or a script.
public struct StatusReport: Sendable {
    public let path: String
    /// The file's document; nil when there was nothing to read.
    public let status: KioskStatus?
    public let health: KioskHealth
    /// Why the kiosk is not healthy, one sentence each; empty when it is.
    public let problems: [String]

    /// `isRunning` says whether a PID is alive (injected: tests have no kiosk process).
    public init(path: String, isRunning: (Int32) -> Bool = StatusReport.processExists) {
        self.path = path
        let text: String
        do {
            text = try ConfigFileReader.text(from: ConfigFileReader.readBytes(path: path, maximumSize: Self.maximumSize))
        } catch {
            let why: String
            switch error {
            case .unreadable(let e) where e.errno == ENOENT: why = "no status file (is the kiosk running? is status_file set elsewhere?)"
            case .empty: why = "the status file is empty"
            case .tooLarge(let bytes, _): why = "the status file is \(ConfigFileError.size(bytes)), not a kiosk status"
            case .binary, .invalidUTF8: why = "the status file is not text"
            default: why = "the status file \(error)"
            }
            (status, health, problems) = (nil, .noStatus, [why])
            return
        }
        let doc: StatusValue
        do {
            doc = try StatusJSONReader.parse(text)
        } catch {
            (status, health, problems) = (nil, .noStatus, ["the status file is not JSON: \(error)"])
            return
        }
        let status: KioskStatus
        do {
            status = try KioskStatus(decoding: doc)
        } catch {
            (self.status, health, problems) = (nil, .noStatus, ["the status file is not a kiosk status (\(error))"])
            return
        }
        if let pid = status.pid, let p = Int32(exactly: pid), !isRunning(p) {
            (self.status, health, problems) = (status, .noStatus, ["the kiosk that wrote the status file (pid \(pid)) is not running"])
            return
        }
        var found: [String] = []
        if !status.config.valid {
            let errors = status.config.errors
            found.append("the config is invalid (the last good one is shown)" + (errors.isEmpty ? "" : ": " + errors.joined(separator: "; ")))
        }
        if status.display.connected == false {
            found.append("the display is disconnected")
        }
        // The device runs, but an update did not take: someone should know until the next one.
        if let rollback = status.image?.rollback {
            found.append("version \(rollback.from) failed every try and the device went back to \(status.image!.version)"
                         + (rollback.reason.map { " (\($0))" } ?? " (it never reached its boot check)"))
        }
        (self.status, health, problems) = (status, found.isEmpty ? .healthy : .unhealthy, found)
    }

    /// A status file is a few hundred bytes; a 1 MiB one is not ours.
    static let maximumSize = 1 << 20

    /// Whether a process exists; EPERM means it does, owned by someone else.
    public static func processExists(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// For a person: the verdict, then what the kiosk shows and did.
    public var text: String {
        var lines = ["kiosk: " + (health == .noStatus ? "no status" : health.name)]
        func row(_ name: String, _ value: String) {
            lines.append(String(repeating: " ", count: max(0, 12 - name.count)) + name + ": " + value)
        }
        for p in problems { row("problem", p) }
        row("status", path)
        guard let status else { return lines.joined(separator: "\n") + "\n" }
        if let pid = status.pid { row("pid", String(pid)) }
        let config = status.config
        row("config", (config.path ?? "(none)") + ", generation \(config.generation)" + (config.valid ? ", valid" : ", INVALID"))
        // A fleet's release: the folder `current` pointed at when the running config was read.
        if let source = config.source, source != config.path { row("read from", source) }
        if let d = status.display.name {
            let connected = status.display.connected
            row("display", d + (connected == nil ? "" : connected! ? ", connected" : ", DISCONNECTED"))
        }
        if let s = status.menu.screen {
            row("screen", s + (status.menu.selectedLabel.map { ", \"\($0)\" selected" } ?? ""))
        }
        if let r = status.running { row("running", r) }
        if let a = status.menu.lastAction { row("last action", "\"\(a.item)\" (\(a.action)): \(a.result)") }
        if let b = status.menu.banner { row("banner", b) }
        let locked = status.lock.lockedScreens, failures = status.lock.pinFailures
        if !locked.isEmpty || failures > 0 {
            row("locked", (locked.isEmpty ? "none" : locked.joined(separator: ", ")) + ", \(failures) wrong PIN\(failures == 1 ? "" : "s")")
        }
        if let image = status.image {
            row("image", image.version + (image.slot.map { ", slot \($0)" } ?? "") + (image.trial ? ", on trial" : ""))
            for v in image.versions where v.version != image.version {
                row("installed", "\(v.version): \(v.state.rawValue)" + (v.triesDone.map { ", tried \($0) time\($0 == 1 ? "" : "s")" } ?? "")
                    + (v.check.map { " (\($0))" } ?? ""))
            }
            if let u = image.update { row("update", u.state.rawValue + (u.message.map { ": \($0)" } ?? "")) }
        }
        if let api = status.controlAPI { row("control API", api.word + (api.why.map { " (\($0))" } ?? "")) }
        if let m = status.mqtt {
            row("mqtt", "\(m.broker), \(m.state.rawValue)" + (m.error.map { " (\($0))" } ?? "") + ", \(m.connects) connection\(m.connects == 1 ? "" : "s")")
        }
        for v in status.values {
            row("value", "\(v.id): \(v.state.rawValue)" + (v.age.map { ", read \(Int($0)) s ago" } ?? "") + (v.why.map { " (\($0))" } ?? ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// For a script: the verdict beside the file's document (null when there was none).
    public var json: String {
        StatusValue.object([
            ("health", .string(health.name)),
            ("exit_status", .int(Int(health.rawValue))),
            ("problems", .array(problems.map { .string($0) })),
            ("file", .string(path)),
            ("status", status?.value ?? .null),
        ]).json + "\n"
    }
}
