import CLinux
import Glibc
import KioskSystem

/// Notices the value files of the screen shown being written or replaced: inotify on their
/// folders (a file replaced by a rename is a new inode, which a watch on the file would miss).
/// Files under /sys and /proc are left out: their contents change without an event, so they are
/// read every `every` seconds only.
final class ValueFileWatch {
    private let inotify: Inotify
    var descriptor: OwnedDescriptor { inotify.descriptor }
    /// Watch descriptor → folder, and the folders watched with the file names wanted in each.
    private var folders: [Int32: String] = [:]
    private var wanted: [String: Set<String>] = [:]

    static let events = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM

    init() throws(SystemError) {
        inotify = try Inotify()
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
            inotify.unwatch(wd)
            folders[wd] = nil
        }
        for folder in next.keys where !folders.values.contains(folder) {
            if let wd = inotify.watch(folder, UInt32(Self.events)) { folders[wd] = folder }
        }
        wanted = next
    }

    /// The paths of wanted files that changed since the last call.
    func drain() -> Set<String> {
        var changed: Set<String> = []
        for event in inotify.drain() where !event.name.isEmpty {
            guard let folder = folders[event.watch], wanted[folder]?.contains(event.name) == true else { continue }
            changed.insert(folder == "/" ? "/" + event.name : folder + "/" + event.name)
        }
        return changed
    }
}
