/// The outcome of checking a config file: the config when it can be used, and every problem.
public struct ConfigCheck: Sendable {
    /// Nil when any problem is an error.
    public var config: KioskConfig?
    /// Errors first, then warnings, each group in line order.
    public var problems: [ConfigProblem]

    public var isValid: Bool { config != nil }

    /// One problem per line, as `kiosk check-config` prints them.
    public var report: String { problems.map(\.description).joined(separator: "\n") }
}

/// Reads, decodes and validates the config at `path`: what `kiosk check-config` runs, and what the
/// kiosk runs at start-up and on every reload. Decoding problems (syntax, types, unknown keys)
/// come with their line; when there are any, validation is skipped, since the values it would
/// check are not known. `searchPath` overrides `$PATH` for finding bare command names.
public func checkConfig(path: String, displayName: String? = nil, searchPath: String? = nil) -> ConfigCheck {
    ConfigChecker(path: path, displayName: displayName, searchPath: searchPath).check()
}

/// Reads, decodes and validates config `bytes` as if they were the file `file` in `baseDirectory`:
/// the whole reader without the file system read, for the fuzz target and for tests.
public func checkConfig(bytes: [UInt8], file: String, baseDirectory: String, searchPath: String? = nil) -> ConfigCheck {
    let text: String
    do {
        text = try ConfigFileReader.text(from: bytes)
    } catch {
        return ConfigCheck(fileError: error, file: file)
    }
    let loaded = ConfigLoader.decodeWithSource(text: text, file: file, baseDirectory: baseDirectory)
    return ConfigCheck(validating: loaded, file: file, searchPath: searchPath)
}

/// `checkConfig` for a file checked again and again (live reload): the text is parsed again only
/// when it changed. inotify reports several events for one write; parsing identical bytes again
/// would be wasted work. Validation always runs again: a missing font may have been installed.
public final class ConfigChecker {
    public let path: String
    public let displayName: String
    public let searchPath: String?
    private var lastText: String?
    private var lastLoaded: ConfigLoader.Loaded?
    /// How many times the text was actually parsed; tells tests that the cache works.
    public private(set) var parseCount = 0

    public init(path: String, displayName: String? = nil, searchPath: String? = nil) {
        self.path = path
        self.displayName = displayName ?? path
        self.searchPath = searchPath
    }

    public func check() -> ConfigCheck {
        let loaded: ConfigLoader.Loaded
        do {
            let text = try ConfigFileReader.read(path: path)
            if let lastLoaded, text == lastText {
                loaded = lastLoaded
            } else {
                parseCount += 1
                loaded = ConfigLoader.decodeWithSource(text: text, file: displayName, baseDirectory: ConfigLoader.directory(of: path))
                (lastText, lastLoaded) = (text, loaded)
            }
        } catch {
            return ConfigCheck(fileError: error, file: displayName)
        }
        return ConfigCheck(validating: loaded, file: displayName, searchPath: searchPath)
    }
}

extension ConfigCheck {
    /// A file that could not be taken as text: one problem, at the offending byte when there is one.
    init(fileError error: ConfigFileError, file: String) {
        let location = error.position.map { ConfigLocation(line: $0.line, column: $0.column) } ?? ConfigLocation()
        self.init(config: nil, problems: [ConfigProblem(.error, file: file, at: location, error.description)])
    }

    /// Validates a decoded config; decoding problems leave nothing to validate.
    init(validating loaded: ConfigLoader.Loaded, file: String, searchPath: String?) {
        guard let config = loaded.config else {
            self.init(config: nil, problems: loaded.problems.inReadingOrder())
            return
        }
        var problems = loaded.problems
        for var problem in ConfigValidator(file: file, searchPath: searchPath).validate(config) {
            if problem.location.line == nil, let locator = loaded.locator {
                problem.location = locator.location(of: problem.location.keyPath)
            }
            problems.append(problem)
        }
        let ordered = problems.inReadingOrder()
        self.init(config: ordered.hasErrors ? nil : config, problems: ordered)
    }
}

extension [ConfigProblem] {
    /// Errors before warnings; within each, by line (problems without one last), keeping the
    /// order they were found in otherwise.
    func inReadingOrder() -> [ConfigProblem] {
        enumerated().sorted { a, b in
            let ka = (a.element.severity == .error ? 0 : 1, a.element.location.line ?? .max, a.offset)
            let kb = (b.element.severity == .error ? 0 : 1, b.element.location.line ?? .max, b.offset)
            return ka < kb
        }.map(\.element)
    }
}
