import Glibc

/// Writes `text` so that it survives a power cut: a fresh temporary file beside `path` (created
/// with `mode` whatever the umask, never following a link), written, `fsync`ed, renamed over
/// `path`, then the folder `fsync`ed so the rename itself is on disk. A reader, even after a
/// crash at any point, finds the old file or the new one, never half of one.
public func writeFileDurably(_ path: String, _ text: String, mode: mode_t) throws(SystemError) {
    let temporary = path + ".tmp"
    // A temporary left by a crash may have another mode; O_EXCL then makes ours with `mode`.
    if unlink(temporary) != 0, errno != ENOENT { throw .last("unlink \(temporary)") }
    let file = try OwnedDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
    try retryingInterrupts("fchmod \(temporary)") { fchmod(file.rawValue, mode) }
    try file.writeAll(Array(text.utf8), what: temporary)
    try retryingInterrupts("fsync \(temporary)") { fsync(file.rawValue) }
    try retryingInterrupts("rename \(temporary)") { rename(temporary, path) }
    try syncFolder(of: path)
}

/// `fsync` of the folder holding `path`: makes a rename or a new name in it durable.
public func syncFolder(of path: String) throws(SystemError) {
    let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let dir = try OwnedDescriptor.open(folder, O_RDONLY | O_DIRECTORY)
    try retryingInterrupts("fsync \(folder)") { fsync(dir.rawValue) }
}

extension OwnedDescriptor {
    /// Writes all of `bytes`, going on after a short write.
    public func writeAll(_ bytes: [UInt8], what: String) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = try retryingInterrupts("write \(what)") {
                bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + done, $0.count - done) }
            }
            done += n
        }
    }
}
