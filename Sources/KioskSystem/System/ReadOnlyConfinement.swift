import Glibc

/// Landlock for a process that needs no file of anyone's (the icon worker: the kiosk hands it each
/// icon's bytes): it may read the system's libraries, fonts and their configuration, and nothing
/// else; it may write, make, remove or run nothing anywhere. So an SVG that took over librsvg can
/// neither read the kiosk's config, credentials or PIN state nor leave anything behind.
public enum ReadOnlyConfinement {
    /// What stays readable: the system's files (libraries, locales, fonts: /usr), fontconfig's
    /// configuration and caches, the dynamic linker's cache, /proc (Landlock keeps another
    /// process's memory and environment out of reach there) and the CPU list.
    public static let systemFolders = ["/usr", "/etc/fonts", "/etc/ld.so.cache", "/etc/localtime", "/var/cache/fontconfig",
                                       "/proc", "/sys/devices/system/cpu", "/dev/null", "/dev/urandom"]

    /// `systemFolders` and where the environment (`environment`: a variable's value) points
    /// fontconfig (its file, its path, its user cache), which a test or a custom image may have moved.
    public static func readable(environment: (String) -> String?) -> [String] {
        var folders = systemFolders
        if let file = environment("FONTCONFIG_FILE"), file.hasPrefix("/") { folders.append(LaunchConfinement.folder(of: file)) }
        for path in (environment("FONTCONFIG_PATH") ?? "").split(separator: ":") where path.hasPrefix("/") { folders.append(String(path)) }
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") {
            folders.append(cache + "/fontconfig")
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            folders.append(home + "/.cache/fontconfig")
        }
        return folders
    }

    /// Confines the calling thread and what it starts from now on: reads beneath `readable`
    /// only (a path that does not exist is skipped), no writes, no programs run. Throws, leaving
    /// the thread as it was, where the kernel has no Landlock.
    public static func restrictCallingThread(readable: [String]) throws(SystemError) {
        guard let abi = Landlock.abi else { throw SystemError("landlock_create_ruleset", errno: Glibc.errno) }
        let reads: LandlockAccess = [.readFile, .readDirectory]
        let ruleset = try Landlock.Ruleset(handling: LandlockAccess.writes(abi: abi).union(reads).union(.execute), scoped: .all(abi: abi))
        for path in readable {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            try? ruleset.allow((info.st_mode & S_IFMT) == S_IFDIR ? reads : .readFile, beneath: path)
        }
        try ruleset.restrictCallingThread()
    }
}
