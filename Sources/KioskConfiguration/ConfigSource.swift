import Glibc

/// Where one load reads a config from: the file, and the directory its relative paths (icons,
/// background tiles) start from, with that directory's symlinks resolved once, at the start of
/// the load. A fleet swaps a release by renaming a symlink (`current -> releases/N`): a load that
/// began in one release reads its TOML and every image from that release, never half from the
/// next. The file's own name is not resolved, so a config file that is a symlink keeps resolving
/// its icons beside the link, as before.
public struct ConfigSource: Equatable, Sendable {
    /// The file to read: `directory` plus the config's file name.
    public let file: String
    /// Absolute, without symlinks (when it exists); relative paths in the config start here.
    public let directory: String

    /// Pins `path`'s directory. A directory that cannot be resolved (a dangling `current`, a
    /// removed folder) is kept as written, so that reading the file reports it.
    public static func pin(_ path: String) -> ConfigSource {
        let lexical = ConfigReader.directory(of: path)
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let resolved = realPath(lexical) else { return ConfigSource(file: join(lexical, name), directory: lexical) }
        return ConfigSource(file: join(resolved, name), directory: resolved)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// When the file itself (not a folder on its way) is a symlink to something that exists: that
    /// thing's absolute path. A disk image links `/etc/kiosk/kiosk.toml` to the boot partition's
    /// file when that one cannot be used as text, so that a problem with it names the file to fix.
    public static func linkedFile(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, stat(path, &info) == 0 else { return nil }
        return realPath(path)
    }

    /// When `path`, or a symlink on the way to it, points at nothing: the first such link and
    /// what it says, for a message that names the cause instead of "No such file or directory".
    public static func danglingLink(in path: String) -> (link: String, target: String)? {
        guard path.hasPrefix("/") else { return nil }
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            guard lstat(prefix, &info) == 0 else { return nil }
            guard info.st_mode & S_IFMT == S_IFLNK else { continue }
            if stat(prefix, &info) == 0 { continue }
            guard errno == ENOENT else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(prefix, &buffer, buffer.count - 1)
            guard n >= 0 else { return nil }
            let target = buffer[..<n].withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
            return (prefix, target)
        }
        return nil
    }
}
