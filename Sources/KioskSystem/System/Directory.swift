import Glibc

/// The names in a directory: the one place that calls opendir, readdir and closedir.
public enum Directory {
    /// The entries of `path` other than "." and "..", sorted by name. Throws when the folder
    /// cannot be opened (`opendir PATH`) or read (`readdir PATH`).
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    public static func names(in path: String) throws(SystemError) -> [String] {
        guard let stream = opendir(path) else { throw .last("opendir \(path)") }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            // readdir returns nil both at the end and on error; only errno tells them apart.
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw .last("readdir \(path)") }
                break
            }
            // The name is read where it is, up to its NUL: the record readdir returns is only as
            // long as its name (d_reclen), so copying the whole `dirent` (`entry.pointee`) reads
            // past the end of the C library's buffer for the last entries (AddressSanitizer
            // caught it in the dbus fuzz target).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: Self.nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
