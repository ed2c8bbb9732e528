#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads an image file whole for a decoder, refusing one over a size limit before reading it, and
/// one that grows past it while it is read: a file a config names is not trusted to be small.
enum ImageFile {
    /// The bytes of `path`, at most `limit`. `kind` names the file in the size message ("an SVG
    /// icon"), `sizeCall` names the refusal's call; `error` makes the error of the caller's kind.
    static func bytes(_ path: String, limit: Int, kind: String, sizeCall: String,
                     error: (_ call: String, _ message: String) -> RasterError) throws(RasterError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error("open(\(path))", String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error("fstat(\(path))", String(cString: strerror(errno))) }
        guard Int(info.st_size) <= limit else {
            throw error(sizeCall, "\(info.st_size) bytes is more than the \(limit) \(kind) may have")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count <= limit {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - count)) }
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error("read(\(path))", String(cString: strerror(errno)))
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw error(sizeCall, "more than the \(limit) bytes \(kind) may have") }
        return Array(bytes[0..<count])
    }
}
