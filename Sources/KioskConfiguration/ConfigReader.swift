import Glibc
import TOML

/// The outcome of `ConfigReader`: the config when it can be used, and every problem.
public struct ConfigCheck: Sendable {
    /// Nil when any problem is an error.
    public var config: KioskConfig?
    /// Errors first, then warnings, each group in line order.
    public var problems: [ConfigProblem]
    /// The file it was read from, its directory's symlinks resolved (`ConfigSource`); nil when
    /// the bytes did not come from a file.
    public var source: String? = nil

    /// Where the text's values are, once it parsed: places problems found later by key path.
    var locator: SourceLocator? = nil

    public var isValid: Bool { config != nil }

    /// One problem per line, as `kiosk check-config` prints them.
    public var report: String { problems.map(\.description).joined(separator: "\n") }

    /// `problem`, found after the check by key path alone (a layout at a panel size:
    /// `check-config --size`), with the line and column of the value it names when the file has it.
    public func located(_ problem: ConfigProblem) -> ConfigProblem {
        guard problem.location.line == nil, let locator else { return problem }
        var placed = problem
        placed.location = locator.location(of: problem.location.keyPath)
        return placed
    }
}

/// The config reader: reads, decodes and validates the config at `path`, and decodes the font and
/// images it names, once (`load`). What `kiosk check-config` and `kiosk render` run, and what the
/// kiosk runs at start-up and on every reload. Decoding problems (syntax, types, unknown keys)
/// come with their line; when there are any, the assets are not loaded and validation is skipped,
/// since the values it would check are not known. Never crashes on bad input, never stops at the
/// first problem.
///
/// Checked again and again (live reload), the text is parsed again only when it changed: inotify
/// reports several events for one write, and parsing identical bytes again would be wasted work.
/// The assets are decoded and validation runs again every time: a missing font may have been installed.
///
/// Each check pins the file's directory first (`ConfigSource`): the TOML and the images it names
/// come from the same release even when a fleet swaps the directory's symlink meanwhile.
public final class ConfigReader {
    public let path: String
    /// How messages name the file.
    public let displayName: String
    /// Overrides `$PATH` for finding bare command names.
    public let searchPath: String?
    private var lastText: String?
    /// The directory `lastDecoded`'s relative paths were resolved against: the same text in
    /// another release names other files.
    private var lastDirectory: String?
    private var lastDecoded: Decoded?
    /// The name `lastDecoded`'s problems carry: the same text behind another link names another file.
    private var lastName: String?
    /// How many times the text was actually parsed; tells tests that the cache works.
    public private(set) var parseCount = 0

    public init(path: String, displayName: String? = nil, searchPath: String? = nil) {
        self.path = path
        self.displayName = displayName ?? path
        self.searchPath = searchPath
    }

    /// The `status_file` the config at `path` names, without validating the config (`kiosk
    /// status` must answer even when the config is broken or its fonts are missing): the
    /// default when the file cannot be read or parsed or does not set the key as a string.
    public static func statusFile(ofConfigAt path: String) -> String {
        let source = ConfigSource.pin(path)
        guard let text = try? ConfigFileReader.read(path: source.file), let root = try? TOMLTable(parsing: text),
              let named = root["status_file"]?.string, !named.isEmpty else { return KioskConfig.defaultStatusFile }
        return ConfigValues.resolve(named, against: source.directory)
    }

    /// The whole load: the file read, parsed (when its text changed), decoded; then, when it
    /// decoded, its font and images decoded (`ConfigAssets`) and the config validated against
    /// them. The assets come with the check when the config is valid, ready to draw with.
    /// `shouldStop` is asked between images; once it says yes, the load ends unusable, for a
    /// caller who will throw it away (a newer file superseded it).
    /// When the file is a symlink, its problems name the file it links to, the one to fix: a disk
    /// image links `/etc/kiosk/kiosk.toml` to the boot partition's file when that one has errors.
    public func load(request: UInt64 = 0, shouldStop: () -> Bool = { false }) -> LoadedConfig {
        let decoded: Decoded
        let source = ConfigSource.pin(path)
        let linkedFile = ConfigSource.linkedFile(source.file)
        let name = linkedFile ?? displayName
        do {
            let text = try ConfigFileReader.read(path: source.file)
            if let lastDecoded, text == lastText, source.directory == lastDirectory, name == lastName {
                decoded = lastDecoded
            } else {
                parseCount += 1
                decoded = Self.decode(text: text, file: name, baseDirectory: source.directory)
                (lastText, lastDirectory, lastName, lastDecoded) = (text, source.directory, name, decoded)
            }
        } catch {
            return LoadedConfig(request: request, check: ConfigCheck(fileError: error, file: displayName, linkedFile: linkedFile), assets: nil)
        }
        var loaded = Self.validate(decoded, file: name, searchPath: searchPath, request: request, shouldStop: shouldStop)
        loaded.check.source = source.file
        return loaded
    }

    /// `load()`'s verdict alone, for a caller that draws nothing.
    public func check() -> ConfigCheck { load().check }

    /// Checks config `bytes` as if they were the file `file` in `baseDirectory`: the whole reader
    /// without the file system read, for the fuzz target and for tests.
    public static func check(bytes: [UInt8], file: String, baseDirectory: String, searchPath: String? = nil) -> ConfigCheck {
        let text: String
        do {
            text = try ConfigFileReader.text(from: bytes)
        } catch {
            return ConfigCheck(fileError: error, file: file)
        }
        return validate(decode(text: text, file: file, baseDirectory: baseDirectory), file: file, searchPath: searchPath).check
    }

    /// Decodes the assets of a decoded config and validates it against them; nothing to do for a
    /// config that did not decode.
    static func validate(_ decoded: Decoded, file: String, searchPath: String?, request: UInt64 = 0,
                         shouldStop: () -> Bool = { false }) -> LoadedConfig {
        guard let config = decoded.config else {
            return LoadedConfig(request: request, check: ConfigCheck(config: nil, problems: decoded.problems.inReadingOrder()), assets: nil)
        }
        let assets = ConfigAssets.decode(config, shouldStop: shouldStop)
        guard assets.complete else {
            let stopped = ConfigProblem(.error, file: file, at: ConfigLocation(), "load stopped before its images were decoded")
            return LoadedConfig(request: request, check: ConfigCheck(config: nil, problems: [stopped]), assets: nil)
        }
        let check = ConfigCheck(validating: decoded, config: config, assets: assets, file: file, searchPath: searchPath)
        return LoadedConfig(request: request, check: check, assets: check.isValid ? assets.loaded : nil)
    }

    /// A decoded config, or the problems that prevent one.
    struct Decoded {
        var config: KioskConfig?
        var problems: [ConfigProblem]
        /// Present once the text parsed: finds positions for the validator's key paths.
        var locator: SourceLocator?
    }

    /// Parses and decodes TOML `text`. `baseDirectory` (absolute) anchors relative paths.
    static func decode(text: String, file: String, baseDirectory: String) -> Decoded {
        let root: TOMLTable
        do {
            root = try TOMLTable(parsing: text)
        } catch {
            let location = ConfigLocation(line: error.line, column: error.column)
            let secret = SecretKeys.key(onLine: error.line, of: text)
            let why = secret.map { "\(error.summary) (the value of \($0) is not shown)" } ?? error.message
            return Decoded(problems: [ConfigProblem(.error, file: file, at: location, "TOML syntax error: \(why)")])
        }
        let locator = SourceLocator(root: root)
        let problems = DecodingProblems(file: file, locator: locator)
        let config = ConfigDecoder(problems: problems, baseDirectory: baseDirectory).decode(root)
        return Decoded(config: problems.problems.hasErrors ? nil : config, problems: problems.problems, locator: locator)
    }

    /// The absolute directory holding `path` (relative paths are taken from the working directory).
    package static func directory(of path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var cwd = "/"
            if let pointer = getcwd(nil, 0) {
                cwd = String(cString: pointer)
                free(pointer)
            }
            absolute = ConfigValues.resolve(path, against: cwd)
        }
        guard let slash = absolute.lastIndex(of: "/") else { return "/" }
        let dir = String(absolute[..<slash])
        return dir.isEmpty ? "/" : dir
    }
}

extension ConfigCheck {
    /// A file that could not be taken as text: one problem, at the offending byte when there is one.
    /// When `file` is a symlink, the problem names the file it links to (`linkedFile`), the one to
    /// fix, and says which link led there.
    init(fileError error: ConfigFileError, file: String, linkedFile: String? = nil) {
        let location = error.position.map { ConfigLocation(line: $0.line, column: $0.column) } ?? ConfigLocation()
        let problem = if let linkedFile, linkedFile != file {
            ConfigProblem(.error, file: linkedFile, at: location, "\(error.description) (\(file) links to it)")
        } else {
            ConfigProblem(.error, file: file, at: location, error.description)
        }
        self.init(config: nil, problems: [problem])
    }

    /// Validates `config`, decoded as `decoded`, against the assets its load decoded.
    init(validating decoded: ConfigReader.Decoded, config: KioskConfig, assets: ConfigAssets, file: String, searchPath: String?) {
        var problems = decoded.problems
        for var problem in ConfigValidator(file: file, searchPath: searchPath).validate(config, assets: assets) {
            if problem.location.line == nil, let locator = decoded.locator {
                problem.location = locator.location(of: problem.location.keyPath)
            }
            problems.append(problem)
        }
        let ordered = problems.inReadingOrder()
        self.init(config: ordered.hasErrors ? nil : config, problems: ordered)
        locator = decoded.locator
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
