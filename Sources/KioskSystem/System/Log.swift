import Glibc

/// Log lines to stderr. Under systemd (JOURNAL_STREAM set) each line starts with its syslog
/// priority (`<3>` error ... `<7>` debug) so the journal keeps the levels.
public enum Log {
    public enum Level: Int32, Comparable, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var word: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    nonisolated(unsafe) public static var threshold: Level = getenv("KIOSK_DEBUG") != nil ? .debug : .info
    nonisolated(unsafe) static var journal = getenv("JOURNAL_STREAM") != nil

    public static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    public static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    public static func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    public static func debug(_ message: @autoclosure () -> String) {
        if threshold >= .debug { write(.debug, message()) }
    }

    /// A line on stderr as it is, for command output such as `check-config`'s problem list.
    public static func plain(_ message: String) {
        var bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    package static func write(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        var bytes = Array(line(level, message, journal: journal).utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// The line `write` puts on stderr: `kiosk: error: message`, or `<3>message` for the journal.
    static func line(_ level: Level, _ message: String, journal: Bool) -> String {
        journal ? "<\(level.rawValue)>\(message)\n" : "kiosk: \(level.word): \(message)\n"
    }
}
