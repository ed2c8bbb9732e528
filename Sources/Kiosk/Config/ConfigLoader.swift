import Glibc
import TOML

/// Reads, parses and decodes a config file. Every failure becomes a `ConfigProblem` carrying the
/// file and either a line:column (file and syntax errors) or the key path (decoding errors, with the
/// line too when it can be found). Never crashes on bad input, never stops at the first decoding
/// problem. File-system and reference checks are `ConfigValidator`'s.
public enum ConfigLoader {
    /// The config in `path`, or nil with the problems that prevent using it. `displayName` is how
    /// messages name the file (default: `path` as given).
    public static func load(path: String, displayName: String? = nil) -> (KioskConfig?, [ConfigProblem]) {
        let loaded = loadWithSource(path: path, displayName: displayName ?? path)
        return (loaded.config, loaded.problems)
    }

    /// Parses and decodes TOML `text`. `baseDirectory` (absolute) anchors relative paths.
    public static func decode(text: String, file: String, baseDirectory: String) -> (KioskConfig?, [ConfigProblem]) {
        let decoded = decodeWithSource(text: text, file: file, baseDirectory: baseDirectory)
        return (decoded.config, decoded.problems)
    }

    struct Loaded {
        var config: KioskConfig?
        var problems: [ConfigProblem]
        /// Present once the text parsed: finds positions for the validator's key paths.
        var locator: SourceLocator?
    }

    static func loadWithSource(path: String, displayName name: String) -> Loaded {
        let text: String
        do {
            text = try ConfigFileReader.read(path: path)
        } catch {
            let location = error.position.map { ConfigLocation(line: $0.line, column: $0.column) } ?? ConfigLocation()
            return Loaded(problems: [ConfigProblem(.error, file: name, at: location, error.description)])
        }
        return decodeWithSource(text: text, file: name, baseDirectory: directory(of: path))
    }

    static func decodeWithSource(text: String, file: String, baseDirectory: String) -> Loaded {
        let root: TOMLTable
        do {
            root = try TOMLTable(parsing: text)
        } catch {
            let location = ConfigLocation(line: error.line, column: error.column)
            return Loaded(problems: [ConfigProblem(.error, file: file, at: location, "TOML syntax error: \(error.message)")])
        }
        let locator = SourceLocator(root: root)
        let problems = DecodingProblems(file: file, locator: locator)
        let config = ConfigDecoder(problems: problems, baseDirectory: baseDirectory).decode(root)
        return Loaded(config: problems.problems.hasErrors ? nil : config, problems: problems.problems, locator: locator)
    }

    /// The absolute directory holding `path` (relative paths are taken from the working directory).
    public static func directory(of path: String) -> String {
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
