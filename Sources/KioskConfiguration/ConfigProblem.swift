import KioskSystem
import TOML

/// Where in a config file a problem is: a source position (syntax errors, and decoded values
/// whose line could be found), a key path in the config's own notation, or both.
public struct ConfigLocation: Hashable, Sendable, CustomStringConvertible {
    /// 1-based line and column, when known.
    public var line: Int?
    public var column: Int?
    /// `screens.main.items[3].command`; empty for the file as a whole.
    public var keyPath: ConfigKeyPath

    public init(line: Int? = nil, column: Int? = nil, keyPath: ConfigKeyPath = ConfigKeyPath()) {
        self.line = line
        self.column = column
        self.keyPath = keyPath
    }

    /// `12:7: screens.main` or `screens.main` or `12:7` or nothing.
    public var description: String {
        ([lineAndColumn] + [keyPath.isEmpty ? nil : keyPath.description]).compactMap { $0 }.joined(separator: ": ")
    }

    /// `12:7` or `12`, when the line is known.
    var lineAndColumn: String? { line.map { line in column.map { "\(line):\($0)" } ?? "\(line)" } }
}

/// A key path such as `screens.main.items[3].command`: table keys and array indices (0-based).
/// Keys that are not bare TOML keys are quoted, so the path reads as TOML would write it.
public struct ConfigKeyPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// A dotted path of plain keys (no indices), for literals in code and tests.
    public init(stringLiteral value: String) {
        components = value.isEmpty ? [] : value.split(separator: ".", omittingEmptySubsequences: false).map { .key(String($0)) }
    }

    public var isEmpty: Bool { components.isEmpty }

    public func appending(_ key: String) -> ConfigKeyPath { ConfigKeyPath(components + [.key(key)]) }
    public func appending(index: Int) -> ConfigKeyPath { ConfigKeyPath(components + [.index(index)]) }
    public func appending(_ key: StyleKey) -> ConfigKeyPath { appending(key.rawValue) }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += TOMLSyntax.key(key)
            case .index(let i):
                text += "[\(i)]"
            }
        }
        return text
    }
}

/// One thing wrong (or doubtful) in a config file.
public struct ConfigProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The file cannot be used: the kiosk keeps its last good config.
        case error
        /// The file works, but probably not as its author meant (for example an unreachable screen).
        case warning

        public static func < (a: Severity, b: Severity) -> Bool { a == .error && b == .warning }
    }

    public var severity: Severity
    /// The file as the caller named it.
    public var file: String
    public var location: ConfigLocation
    public var message: String

    public init(_ severity: Severity, file: String, at location: ConfigLocation, _ message: String) {
        self.severity = severity
        self.file = file
        self.location = location
        self.message = message
    }

    /// `kiosk.toml:12:7: screens.main.items[3].command: "/usr/bin/nonexistent" does not exist`,
    /// with `warning: ` before the message for warnings. One line: newlines in messages are escaped.
    public var description: String {
        located(severity == .warning ? "warning: " + message : message)
    }

    /// `message — kiosk.toml:12:7, screens.main.items[3].command`: what is wrong before where, for
    /// a banner, whose end may not fit on a narrow panel. One line, as `description`.
    public var messageFirst: String {
        var place = file
        if let position = location.lineAndColumn { place += ":" + position }
        if !location.keyPath.isEmpty { place += ", " + location.keyPath.description }
        return message.replacingNewlines() + " — " + place
    }

    /// `kiosk.toml:12:7: screens.main: message` without the severity: for a log line, whose level
    /// already says it (`kiosk: warning: ...`).
    public var locatedMessage: String { located(message) }

    /// The log level this problem is logged at: an error as an error, a warning as a warning.
    public var logLevel: Log.Level {
        switch severity {
        case .error: .error
        case .warning: .warning
        }
    }

    private func located(_ text: String) -> String {
        let place = location.description
        let prefix = place.isEmpty ? file : file + ":" + (location.line == nil ? " " : "") + place
        return prefix + ": " + text.replacingNewlines()
    }
}

extension Log {
    /// Logs a config problem at its own level (`kiosk: error: kiosk.toml:3:1: ...` or
    /// `kiosk: warning: ...`), whether or not the config as a whole is usable.
    public static func problem(_ problem: ConfigProblem) {
        write(problem.logLevel, problem.locatedMessage)
    }
}

extension [ConfigProblem] {
    public var hasErrors: Bool { contains { $0.severity == .error } }
    public var errors: [ConfigProblem] { filter { $0.severity == .error } }
    public var warnings: [ConfigProblem] { filter { $0.severity == .warning } }
}

extension String {
    /// The text on one line: line breaks become `\n`, so a log line stays one line.
    package func replacingNewlines() -> String {
        guard contains(where: \.isNewline) else { return self }
        return split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
    }
}
