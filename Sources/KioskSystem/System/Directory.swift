import Glibc

/// The names in a directory: the one place that calls opendir, readdir and closedir.
public enum Directory {
    /// The entries of `path` other than "." and "..", sorted by name. Throws when the folder
    /// cannot be opened (`opendir PATH`) or read (`readdir PATH`).
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
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
