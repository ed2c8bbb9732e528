import KioskConfiguration

/// The config the kiosk runs and how it came to run it: the generation, whether the last file
/// read was valid, its problems, the release it was read from, reloads applied and refused.
struct AppliedConfig {
    private(set) var config: KioskConfig
    /// Configs applied, 1 for the first: a monitoring system sees reloads happen.
    private(set) var generation = 1
    /// False while running a rescue config or after an invalid reload kept the last good one.
    private(set) var valid: Bool
    private(set) var problems: [ConfigProblem]
    /// The file the running config was read from, its directory's symlinks resolved (which
    /// release a fleet's `current` pointed at); nil for a built-in or rescue config.
    private(set) var source: String?
    private(set) var reloadsApplied = 0, reloadsRefused = 0

    init(_ config: KioskConfig, valid: Bool, problems: [ConfigProblem], source: String?) {
        self.config = config
        self.valid = valid
        self.problems = problems
        self.source = source
    }

    /// `check`'s config now runs.
    mutating func applied(_ new: KioskConfig, from check: ConfigCheck) {
        config = new
        generation += 1
        reloadsApplied += 1
        valid = true
        source = check.source
        problems = check.problems
    }

    /// A reload was refused: the last good config stays; `problems` say why, if the file was invalid.
    mutating func refused(problems: [ConfigProblem]?) {
        reloadsRefused += 1
        if let problems {
            valid = false
            self.problems = problems
        }
    }

    func status(path: String?) -> ConfigStatus {
        ConfigStatus(path: path, generation: generation, valid: valid, errors: problems.filter { $0.severity == .error }.map(\.description),
                     source: source, reloadsApplied: reloadsApplied, reloadsRefused: reloadsRefused)
    }
}
