import CLinux
import Glibc
import KioskSystem

/// Notices the value files of the screen shown being written or replaced: inotify on their
/// folders (a file replaced by a rename is a new inode, which a watch on the file would miss).
/// Files under /sys and /proc are left out: their contents change without an event, so they are
/// read every `every` seconds only.
final class ValueFileWatch {
    let descriptor: OwnedDescriptor
    /// Watch descriptor → folder, and the folders watched with the file names wanted in each.
    private var folders: [Int32: String] = [:]
    private var wanted: [String: Set<String>] = [:]

    static let events = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM

    init() throws(SystemError) {
        descriptor = OwnedDescriptor(taking: try retryingInterrupts("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    /// Whether changes to `path` can be seen by inotify.
    static func isWatchable(_ path: String) -> Bool { !path.hasPrefix("/sys/") && !path.hasPrefix("/proc/") }

    /// Watches the folders of `paths` (and stops watching the others). A folder that cannot be
    /// watched (missing, not allowed) is left to the polling.
    func watch(_ paths: [String]) {
        var next: [String: Set<String>] = [:]
        for path in paths where Self.isWatchable(path) {
            guard let slash = path.lastIndex(of: "/") else { continue }
            let folder = slash == path.startIndex ? "/" : String(path[..<slash])
            next[folder, default: []].insert(String(path[path.index(after: slash)...]))
        }
        guard next != wanted else { return }
        for (wd, folder) in folders where next[folder] == nil {
            inotify_rm_watch(descriptor.rawValue, wd)
            folders[wd] = nil
        }
        for folder in next.keys where !folders.values.contains(folder) {
            let wd = inotify_add_watch(descriptor.rawValue, folder, UInt32(Self.events))
            if wd >= 0 { folders[wd] = folder }
        }
        wanted = next
    }

    /// The paths of wanted files that changed since the last call.
    func drain() -> Set<String> {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        var changed: Set<String> = []
        while let n = try? descriptor.read(into: buffer), n > 0 {
            var at = 0
            let header = MemoryLayout<inotify_event>.size
            while at + header <= n {
                let wd = buffer.loadUnaligned(fromByteOffset: at, as: Int32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
                if length > 0, at + header + length <= n, let folder = folders[wd] {
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[(at + header)..<(at + header + length)])
                    let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    if wanted[folder]?.contains(name) == true { changed.insert(folder == "/" ? "/" + name : folder + "/" + name) }
                }
                at += header + length
            }
        }
        return changed
    }
}
