import CLinux
import Glibc
import KioskConfiguration
import KioskSystem

/// Notices the config file being replaced: inotify on its directory, so that both an atomic
/// replacement (write a temporary file, rename it over) and an in-place rewrite are seen, and
/// a file that is deleted and created again too.
///
/// The directory itself may be swapped: a fleet renames a symlink over it (`current ->
/// releases/N`). So the directory's parent is watched for the directory's name as well; when
/// that entry changes, the directory watch moves to what the name now points at (the old
/// release's later changes, or its removal, are no longer the kiosk's business) and the change
/// counts as the config's. A name that points at nothing leaves no directory watch until a
/// later swap brings one back.
public final class ConfigWatcher {
    public let path: String
    private let inotify: Inotify
    /// The config file's name, and the directory holding it as written (not resolved).
    let name: String
    let directory: String
    /// The directory's name in its parent; nil when the directory is `/`.
    let directoryName: String?
    private var directoryWatch: Int32 = -1
    private var parentWatch: Int32 = -1

    static let fileEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB
    static let entryEvents = IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM

    /// Throws only when inotify itself cannot be had; a directory that cannot be watched yet
    /// (missing, a dangling symlink) is watched once its name in the parent changes.
    public init(path: String) throws(SystemError) {
        self.path = path
        directory = ConfigReader.directory(of: path)
        name = path.split(separator: "/").last.map(String.init) ?? path
        inotify = try Inotify()
        if directory == "/" {
            directoryName = nil
        } else {
            let slash = directory.lastIndex(of: "/")!
            let parent = slash == directory.startIndex ? "/" : String(directory[..<slash])
            directoryName = String(directory[directory.index(after: slash)...])
            // IN_MASK_ADD: the parent may be the same inode as the directory (a link to ".").
            parentWatch = try inotify.watchOrThrow(parent, UInt32(Self.entryEvents | IN_MASK_ADD))
        }
        if !watchDirectory(), directoryName == nil {
            throw .last("inotify_add_watch \(directory)")
        }
    }

    public var fd: Int32 { inotify.descriptor.rawValue }

    /// Watches what `directory` names now, dropping the watch on what it named before.
    @discardableResult
    private func watchDirectory() -> Bool {
        let old = directoryWatch
        let new = inotify.watch(directory, UInt32(Self.fileEvents | IN_MASK_ADD)) ?? -1
        directoryWatch = new
        if old >= 0, old != new, old != parentWatch { inotify.unwatch(old) }
        return new >= 0
    }

    /// True if the events read concern the config file: the file itself changed, or the
    /// directory holding it was swapped.
    public func drain() -> Bool {
        var concerned = false, swapped = false
        for event in inotify.drain() {
            if event.overflowed { swapped = true }
            if event.watch == directoryWatch, event.name == name { concerned = true }
            if event.watch == parentWatch, event.name == directoryName { swapped = true }
        }
        if swapped {
            watchDirectory()
            concerned = true
        }
        return concerned
    }
}
