import Glibc

/// A folder of its own under /tmp for one test, removed with what the test put in it (files,
/// links, FIFOs and folders of those) when the last reference goes.
public final class TemporaryFolder {
    public let path: String

    public init(_ prefix: String = "kiosk-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { Self.remove(path) }

    /// Writes `bytes` to `name` in the folder (made or emptied first); the file's path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let file = path + "/" + name
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write \(file)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return file
    }

    private static func remove(_ folder: String) {
        guard let dir = opendir(folder) else { return }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let child = folder + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) { remove(child) } else { unlink(child) }
        }
        closedir(dir)
        rmdir(folder)
    }
}
