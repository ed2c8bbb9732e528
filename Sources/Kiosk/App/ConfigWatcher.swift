import CLinux
import Glibc

/// Notices the config file being replaced: inotify on its directory, so that both an atomic
/// replacement (write a temporary file, rename it over) and an in-place rewrite are seen, and
/// a file that is deleted and created again too.
public final class ConfigWatcher {
    public let path: String
    let descriptor: OwnedDescriptor
    let name: String

    public init(path: String) throws(SystemError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let fd = try retryingInterrupts("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        descriptor = OwnedDescriptor(taking: fd)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB)
        try retryingInterrupts("inotify_add_watch \(directory)") { inotify_add_watch(fd, directory, mask) }
    }

    public var fd: Int32 { descriptor.rawValue }

    /// True if the events read concern the config file.
    public func drain() -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        var concerned = false
        while let n = try? descriptor.read(into: buffer), n > 0 {
            var at = 0
            let header = MemoryLayout<inotify_event>.size
            while at + header <= n {
                let length = Int(buffer.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
                if length > 0, at + header + length <= n {
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[(at + header)..<(at + header + length)])
                    let eventName = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    if eventName == name { concerned = true }
                }
                at += header + length
            }
        }
        return concerned
    }
}
