import Raster

/// A config file loaded whole: read, parsed, validated, and its font and images decoded (once:
/// the validator checked the very assets held here), so that applying it only builds screens.
/// What `ConfigLoadWorker` hands to the event loop, and what start-up, `kiosk check-config` and
/// `kiosk render` load in place.
public struct LoadedConfig {
    /// The `ConfigLoadWorker.request()` this answers (0 for a load done in place).
    public let request: UInt64
    /// The problems, and the config when it can be used.
    public internal(set) var check: ConfigCheck
    /// The font and images of `check.config`; nil when there is no usable config.
    public let assets: LoadedAssets?

    init(request: UInt64, check: ConfigCheck, assets: LoadedAssets?) {
        self.request = request
        self.check = check
        self.assets = assets
    }

    /// Runs the whole load on the calling thread (`ConfigReader.load`). `shouldStop` is asked
    /// between images; once it says yes, the result is unusable, for a caller who throws it away.
    public static func load(using checker: ConfigReader, request: UInt64 = 0, shouldStop: () -> Bool = { false }) -> LoadedConfig {
        checker.load(request: request, shouldStop: shouldStop)
    }
}
