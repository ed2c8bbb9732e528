import Raster

/// A config file loaded whole: read, parsed, validated, and its font and images loaded, so that
/// applying it only builds screens. What `ConfigLoadWorker` hands to the event loop, and what
/// start-up loads in place.
public struct LoadedConfig {
    /// The `ConfigLoadWorker.request()` this answers (0 for a load done in place).
    public let request: UInt64
    /// The problems, and the config when it can be used.
    public let check: ConfigCheck
    /// The font and images of `check.config`; nil when there is no usable config.
    public let assets: LoadedAssets?

    /// Runs the whole load on the calling thread. `shouldStop` is asked between images (see
    /// `LoadedAssets.load`). A font that passed validation but then fails to load (removed in
    /// between) makes the config unusable, with that error added to its problems.
    public static func load(using checker: ConfigReader, request: UInt64 = 0, shouldStop: () -> Bool = { false }) -> LoadedConfig {
        var check = checker.check()
        guard let config = check.config else { return LoadedConfig(request: request, check: check, assets: nil) }
        do {
            let assets = try LoadedAssets.load(for: config, shouldStop: shouldStop)
            return LoadedConfig(request: request, check: check, assets: assets)
        } catch {
            check.config = nil
            check.problems.insert(ConfigProblem(.error, file: checker.displayName, at: ConfigLocation(keyPath: "theme.font"),
                                                "\"\(config.theme.font)\" cannot be loaded as a font: \(error)"), at: 0)
            return LoadedConfig(request: request, check: check, assets: nil)
        }
    }
}
