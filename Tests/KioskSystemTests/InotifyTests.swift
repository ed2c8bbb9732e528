import CLinux
import Glibc
@testable import KioskSystem
import TestSupport
import Testing

/// The one reader of inotify's events (the config watcher and the value files' watch take their
/// meaning from it): names, masks and watches come through whole, several at once.
@Suite struct InotifyTests {
    @Test func eventsComeWithTheirWatchAndName() throws {
        let folder = TemporaryFolder("kiosk-inotify")
        let inotify = try Inotify()
        #expect(inotify.drain().isEmpty, "nothing yet: no wait")
        let watch = try #require(inotify.watch(folder.path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE)))
        #expect(inotify.watch(folder.path + "/missing", UInt32(IN_CLOSE_WRITE)) == nil)
        #expect(throws: SystemError.self) { try inotify.watchOrThrow(folder.path + "/missing", UInt32(IN_CLOSE_WRITE)) }
        // Many events, more than one read's buffer holds, with long names.
        let names = (0..<80).map { "value-\($0)-" + String(repeating: "x", count: 60) }
        for name in names { folder.write(name, [1]) }
        rename(folder.path + "/" + names[0], folder.path + "/moved")
        let events = inotify.drain()
        #expect(events.allSatisfy { $0.watch == watch && !$0.overflowed })
        #expect(Set(events.filter { $0.mask & UInt32(IN_CLOSE_WRITE) != 0 }.map(\.name)) == Set(names))
        #expect(events.contains { $0.name == "moved" && $0.mask & UInt32(IN_MOVED_TO) != 0 })
        inotify.unwatch(watch)
        folder.write("after", [1])
        #expect(!inotify.drain().contains { $0.name == "after" }, "unwatched")
    }
}
