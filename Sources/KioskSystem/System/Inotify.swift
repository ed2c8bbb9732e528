import CLinux
import Glibc

/// One inotify instance, non-blocking: the one place its events are read off the descriptor and
/// taken apart. Its owners (the config watcher, the value files' watch) decide what an event means.
public final class Inotify {
    public let descriptor: OwnedDescriptor

    /// One event: the watch it came from, what happened (`IN_*` bits), and the entry's name in a
    /// watched folder ("" for the folder itself, or when the queue overflowed: `IN_Q_OVERFLOW`).
    public struct Event: Equatable, Sendable {
        public var watch: Int32
        public var mask: UInt32
        public var name: String

        /// Events were lost: whatever they were, look again.
        public var overflowed: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
    }

    public init() throws(SystemError) {
        descriptor = OwnedDescriptor(taking: try retryingInterrupts("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    /// Watches `path` for `mask`; the watch, or nil when it cannot be watched (missing, not allowed).
    public func watch(_ path: String, _ mask: UInt32) -> Int32? {
        let wd = inotify_add_watch(descriptor.rawValue, path, mask)
        return wd >= 0 ? wd : nil
    }

    /// Like `watch`, but a failure is the caller's error, with the call's name.
    public func watchOrThrow(_ path: String, _ mask: UInt32) throws(SystemError) -> Int32 {
        try retryingInterrupts("inotify_add_watch \(path)") { inotify_add_watch(descriptor.rawValue, path, mask) }
    }

    public func unwatch(_ watch: Int32) { inotify_rm_watch(descriptor.rawValue, watch) }

    /// Every event queued now; empty when there is none.
    public func drain() -> [Event] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        var events: [Event] = []
        let header = MemoryLayout<inotify_event>.size
        while let n = try? descriptor.read(into: buffer), n > 0 {
            var at = 0
            while at + header <= n {
                let watch = buffer.loadUnaligned(fromByteOffset: at, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
                var name = ""
                if length > 0, at + header + length <= n {
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[(at + header)..<(at + header + length)])
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                events.append(Event(watch: watch, mask: mask, name: name))
                at += header + length
            }
        }
        return events
    }
}
