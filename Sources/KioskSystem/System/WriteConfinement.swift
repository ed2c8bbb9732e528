import Glibc

/// Keeps a thread, and every process it starts, from changing anything beneath a few folders (the
/// kiosk's state, config and status) while leaving the rest of the file system as it was. Landlock
/// only allows, so "everything but these" is spelled as what is beside them: for each folder on
/// the way from / down to a kept one, a rule for every entry but the one that leads on. What
/// those ancestor folders themselves allow is lost with it (a new entry directly in /, /var or
/// /run cannot be made); a symbolic link gets no rule (a rule would follow it, perhaps into a kept
/// folder), and an entry made after the rules were (a new top-level folder) is not writable.
public struct WriteConfinement: Equatable, Sendable {
    /// The kept folders, absolute, resolved where they exist, none beneath another, none of
    /// `sharedFolders`.
    public let keptFolders: [String]

    public init(keeping folders: [String]) {
        var kept: [String] = []
        for folder in folders.map(Self.resolved).sorted() where folder.hasPrefix("/") && !Self.sharedFolders.contains(folder) {
            if !kept.contains(where: { Self.isBeneath(folder, $0) }) { kept.append(folder) }
        }
        keptFolders = kept
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
    public func allowed(listing list: (String) -> [Entry]?) -> [(path: String, isDirectory: Bool)] {
        guard !keptFolders.contains("/") else { return [] }
        var ancestors: Set<String> = []
        for folder in keptFolders {
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
                if keptFolders.contains(path) || entry.isSymlink { continue }
                if ancestors.contains(path) { pending.append(path) } else { allowed.append((path, entry.isDirectory)) }
            }
        }
        return allowed.sorted { $0.0 < $1.0 }
    }

    /// Whether this kernel can confine (it has Landlock).
    public static var isAvailable: Bool { Landlock.abi != nil }

    /// Confines the calling thread: from now on it, and every process it starts, can change
    /// nothing beneath `keptFolders` (and nothing directly in their ancestors). Throws, leaving
    /// the thread as it was, when the kernel has no Landlock or refuses the ruleset. An entry
    /// that cannot be opened for its rule is left unwritable, never the reverse.
    public func restrictCallingThread() throws(SystemError) {
        guard let abi = Landlock.abi else { throw SystemError("landlock_create_ruleset", errno: Glibc.errno) }
        let writes = LandlockAccess.writes(abi: abi)
        let ruleset = try Landlock.Ruleset(handling: writes)
        for (path, isDirectory) in allowed(listing: Self.entries) {
            try? ruleset.allow(isDirectory ? writes : writes.intersection(.onFiles), beneath: path)
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
