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
    let name = displayName ?? path
    let loaded = ConfigLoader.loadWithSource(path: path, displayName: name)
    guard let config = loaded.config else { return ConfigCheck(config: nil, problems: loaded.problems.inReadingOrder()) }
    var problems = loaded.problems
    for var problem in ConfigValidator(file: name, searchPath: searchPath).validate(config) {
        if problem.location.line == nil { problem.location.line = loaded.locator?.line(of: problem.location.keyPath) }
        problems.append(problem)
    }
    let ordered = problems.inReadingOrder()
    return ConfigCheck(config: ordered.hasErrors ? nil : config, problems: ordered)
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
