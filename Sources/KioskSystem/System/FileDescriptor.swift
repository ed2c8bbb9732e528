import Glibc

/// An open file descriptor with one owner, closed when the owner goes away. Sendable: the
/// number never changes; what may be done with it from two threads is the owner's to say.
public final class OwnedDescriptor: Sendable {
    public let rawValue: Int32

    public init(taking fd: Int32) { self.rawValue = fd }

    /// Opens `path` with O_CLOEXEC added.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> OwnedDescriptor {
        let fd = try retryingInterrupts("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return OwnedDescriptor(taking: fd)
    }

    deinit { Glibc.close(rawValue) }

    /// Reads what is available into `buffer`; 0 means none (EAGAIN on a non-blocking fd) or end of file.
    /// Reads until the end of the file or `limit` + 1 bytes, whichever comes first: one byte
    /// more than a caller accepts tells it the file is too large (it may have grown since `fstat`).
    public func readUpTo(_ limit: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) }
            }
            let n = try read.get()
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        do {
            return try retryingInterrupts("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
        } catch where error.errno == EAGAIN {
            return 0
        }
    }

}

/// Writes `text` to `path` (truncating), with a clear error.
public func writeFile(_ path: String, _ text: String) throws(SystemError) {
    let fd = try OwnedDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    let bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = try retryingInterrupts("write \(path)") {
            bytes.withUnsafeBytes { Glibc.write(fd.rawValue, $0.baseAddress! + done, $0.count - done) }
        }
        done += n
    }
}

/// Writes `text` to a temporary file beside `path` and renames it over `path`, so a reader sees
/// the old file or the new one, never half of one. The temporary's name ends in ".tmp", which
/// node_exporter's textfile collector (*.prom) and readers of the status file ignore.
public func writeFileAtomically(_ path: String, _ text: String) throws(SystemError) {
    let temporary = path + ".tmp"
    try writeFile(temporary, text)
    try retryingInterrupts("rename \(temporary)") { rename(temporary, path) }
}
