import Glibc

/// The one way the kiosk reads a small file it did not write (a config, root's update steps, a
/// PIN lockout state, a live value, an icon theme's index): bounded, and never blocked by a FIFO
/// or a device put where a file was expected.
public enum SmallFile {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(SystemError)
        /// "a directory", "a pipe", "a device", "a socket", "a special file".
        case notRegularFile(kind: String)
        /// Its size (from `fstat`, or what was read when it grew meanwhile).
        case tooLarge(bytes: Int)

        public var description: String {
            switch self {
            case .unreadable(let e): "\(e)"
            case .notRegularFile(let kind): "is \(kind), not a regular file"
            case .tooLarge(let bytes): "\(bytes) bytes, more than is read"
            }
        }
    }

    /// At most `limit` bytes of the regular file at `path`. `followLinks`: false refuses a symlink
    /// (ELOOP) where only the kiosk's own file may be; `regularOnly`: false also reads what a
    /// device or a FIFO has ready (a live value from a sensor's node), without waiting, and
    /// their first `limit` bytes; `cut`: a longer file's first `limit` bytes instead of `tooLarge`.
    public static func read(_ path: String, limit: Int, followLinks: Bool = true, regularOnly: Bool = true,
                            cut: Bool = false) throws(Failure) -> [UInt8] {
        let file: OwnedDescriptor
        do {
            file = try OwnedDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW))
        } catch {
            throw .unreadable(error)
        }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw .unreadable(.last("fstat \(path)")) }
        let regular = info.st_mode & S_IFMT == S_IFREG
        if regularOnly, !regular { throw .notRegularFile(kind: kind(of: info.st_mode)) }
        if regular, !cut, Int(info.st_size) > limit { throw .tooLarge(bytes: Int(info.st_size)) }
        // One byte past the limit is read: the file may have grown since fstat.
        let bytes: [UInt8]
        do { bytes = try file.readUpTo(limit) } catch { throw .unreadable(error) }
        if bytes.count > limit {
            if !regular || cut { return Array(bytes.prefix(limit)) }
            throw .tooLarge(bytes: max(bytes.count, Int(info.st_size)))
        }
        return bytes
    }

    /// The text of a small file, or nil when it cannot be read whole (a reader that only
    /// reports what it finds: absent and unreadable are the same to it).
    public static func text(_ path: String, limit: Int) -> String? {
        guard let bytes = try? read(path, limit: limit) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
