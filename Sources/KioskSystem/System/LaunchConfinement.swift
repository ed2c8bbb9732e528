import Glibc

/// What the programs the kiosk launches may not touch, while the rest of the file system stays as
/// it was: they change nothing beneath a few folders (the kiosk's state, config and status) and
/// read none of a few files (the config with its PIN hash, credentials, a TLS key, the PIN
/// lockout state); where the kernel can (Landlock ABI 6), they cannot signal the kiosk either.
/// A thread takes it on, and every process it starts inherits it.
///
/// Landlock only allows, so "everything but these" is spelled as what is beside them: for each
/// folder on the way from / down to a kept one, a rule for every entry but the one that leads
/// on. What those ancestor folders themselves allow is lost with it (a new entry directly in /,
/// /var or /run cannot be made; a file made directly in /etc after the rules were cannot be read
/// until the next reload makes them again); a symbolic link gets no rule (a rule would follow
/// it, perhaps into a kept folder). Reading is kept from files only: every folder can still be
/// listed.
public struct LaunchConfinement: Equatable, Sendable {
    /// The folders nothing may be changed beneath: absolute, resolved where they exist, none
    /// beneath another, none of `sharedFolders`.
    public let keptFolders: [String]
    /// The files (or folders, for everything in them) no launched program may read, the same way.
    public let hiddenFiles: [String]

    public init(keeping folders: [String], hiding files: [String] = []) {
        keptFolders = Self.outermost(folders)
        hiddenFiles = Self.outermost(files)
    }

    /// `paths` resolved and absolute, without shared folders or any path beneath another.
    private static func outermost(_ paths: [String]) -> [String] {
        var kept: [String] = []
        for path in Set(paths.map(Self.resolved)).sorted() where path.hasPrefix("/") && !Self.sharedFolders.contains(path) {
            if !kept.contains(where: { Self.isBeneath(path, $0) }) { kept.append(path) }
        }
        return kept
    }

    /// An entry of a folder, as `lstat` gives its kind.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var isDirectory: Bool
        public var isSymlink: Bool
        public init(name: String, isDirectory: Bool, isSymlink: Bool) {
            self.name = name
            self.isDirectory = isDirectory
            self.isSymlink = isSymlink
        }
    }

    /// The paths that get a rule allowing writes beneath them (folders) or to them (files):
    /// `list` gives a folder's entries (nil: it cannot be read, and gets no rule).
    public func writable(listing list: (String) -> [Entry]?) -> [(path: String, isDirectory: Bool)] {
        Self.beside(keptFolders, listing: list)
    }

    /// The paths that get a rule allowing their files to be read, the same way.
    public func readable(listing list: (String) -> [Entry]?) -> [(path: String, isDirectory: Bool)] {
        hiddenFiles.isEmpty ? [] : Self.beside(hiddenFiles, listing: list)
    }

    /// Every entry beside `kept` and beside each of their ancestors, sorted.
    static func beside(_ kept: [String], listing list: (String) -> [Entry]?) -> [(path: String, isDirectory: Bool)] {
        guard !kept.contains("/") else { return [] }
        var ancestors: Set<String> = []
        for folder in kept {
            var path = Self.parent(of: folder)
            while true {
                ancestors.insert(path)
                if path == "/" { break }
                path = Self.parent(of: path)
            }
        }
        var allowed: [(String, Bool)] = []
        var pending = ["/"]
        while let folder = pending.popLast() {
            for entry in list(folder) ?? [] {
                let path = folder == "/" ? "/" + entry.name : folder + "/" + entry.name
                if kept.contains(path) || entry.isSymlink { continue }
                if ancestors.contains(path) { pending.append(path) } else { allowed.append((path, entry.isDirectory)) }
            }
        }
        return allowed.sorted { $0.0 < $1.0 }
    }

    /// Whether this kernel can confine (it has Landlock).
    public static var isAvailable: Bool { Landlock.abi != nil }

    /// Confines the calling thread: from now on it, and every process it starts, can change
    /// nothing beneath `keptFolders` (and nothing directly in their ancestors) and read none of
    /// `hiddenFiles`. Throws, leaving the thread as it was, when the kernel has no Landlock or
    /// refuses the ruleset. An entry that cannot be opened for its rule is left unwritable (or
    /// unreadable), never the reverse.
    public func restrictCallingThread() throws(SystemError) {
        guard let abi = Landlock.abi else { throw SystemError("landlock_create_ruleset", errno: Glibc.errno) }
        let writes = LandlockAccess.writes(abi: abi)
        // Where the kernel can (Linux 6.12), nor may they signal the kiosk (nor any process started
        // outside this thread: an older launcher's, after a reload that moved the kept folders).
        // Abstract sockets stay open: a program may need an X server's.
        let ruleset = try Landlock.Ruleset(handling: hiddenFiles.isEmpty ? writes : writes.union(.readFile),
                                           scoped: LandlockScope.all(abi: abi).intersection(.signals))
        // Both walks start at /: each folder is listed once.
        var listed: [String: [Entry]?] = [:]
        func list(_ folder: String) -> [Entry]? {
            if let known = listed[folder] { return known }
            let entries = Self.entries(folder)
            listed[folder] = entries
            return entries
        }
        for (path, isDirectory) in writable(listing: list) {
            try? ruleset.allow(isDirectory ? writes : writes.intersection(.onFiles), beneath: path)
        }
        // A second rule on the same path adds its rights to the first one's.
        for (path, _) in readable(listing: list) {
            try? ruleset.allow(.readFile, beneath: path)
        }
        try ruleset.restrictCallingThread()
    }

    /// A folder's entries and their kinds (lstat); nil when it cannot be read.
    public static func entries(_ folder: String) -> [Entry]? {
        guard let names = try? Directory.names(in: folder) else { return nil }
        return names.compactMap { name in
            var info = stat()
            let path = folder == "/" ? "/" + name : folder + "/" + name
            guard lstat(path, &info) == 0 else { return nil }
            let kind = info.st_mode & S_IFMT
            return Entry(name: name, isDirectory: kind == S_IFDIR, isSymlink: kind == S_IFLNK)
        }
    }

    /// `path` with symbolic links resolved where it exists; otherwise as written, without `.`,
    /// `..` (lexically) and repeated or trailing slashes.
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        guard path.hasPrefix("/") else { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder a file is in (".", for a name without one).
    public static func folder(of file: String) -> String {
        guard file.contains("/") else { return "." }
        return parent(of: file)
    }

    /// Folders every program shares for its scratch files: never kept, even when the kiosk
    /// writes a file there (a screenshot in /tmp).
    public static let sharedFolders: Set<String> = ["/", "/tmp", "/var/tmp", "/dev", "/dev/shm", "/proc", "/sys", "/run", "/run/user"]

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    static func isBeneath(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }
}
