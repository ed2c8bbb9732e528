/// The outcome of checking a config file: the config when it can be used, and every problem.
public struct ConfigCheck: Sendable {
    /// Nil when any problem is an error.
    public var config: KioskConfig?
    /// Errors first, then warnings, each group in file order.
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
    let name = displayName ?? path
    let loaded = ConfigLoader.loadWithSource(path: path, displayName: name)
    guard let config = loaded.config else { return ConfigCheck(config: nil, problems: loaded.problems) }
    var problems = loaded.problems
    for var problem in ConfigValidator(file: name, searchPath: searchPath).validate(config) {
        if problem.location.line == nil { problem.location.line = loaded.locator?.line(of: problem.location.keyPath) }
        problems.append(problem)
    }
    let ordered = problems.errors + problems.warnings
    return ConfigCheck(config: ordered.hasErrors ? nil : config, problems: ordered)
}
