@testable import DRMOutput
import Foundation
import Glibc
@testable import Kiosk
@testable import KioskSystem
import Testing

/// `Directory.names`, the one directory listing, and its three users: the DRM cards, the input
/// event nodes' filter, and the backlight devices.
@Suite struct DirectoryTests {
    @Test func namesAreSortedWithoutDotEntries() throws {
        let scratch = ScratchDirectory()
        for name in ["b", "a", "card10"] { scratch.write(name, "") }
        #expect(try Directory.names(in: scratch.path) == ["a", "b", "card10"])
    }

    @Test func failuresNameTheCallAndThePath() throws {
        let scratch = ScratchDirectory()
        #expect(throws: SystemError("opendir \(scratch.path)/missing", errno: ENOENT)) { try Directory.names(in: scratch.path + "/missing") }
        let file = scratch.write("file", "")
        #expect(throws: SystemError("opendir \(file)", errno: ENOTDIR)) { try Directory.names(in: file) }
    }

    @Test func cardPathsInNumericOrder() throws {
        let scratch = ScratchDirectory()
        for name in ["card10", "card2", "renderD128", "card0", "cardX"] { scratch.write(name, "") }
        #expect(DRMCard.cardPaths(in: scratch.path) == ["card0", "card2", "card10"].map { scratch.path + "/" + $0 })
        #expect(DRMCard.cardPaths(in: scratch.path + "/none").isEmpty)
    }

    /// No backlight folder is "no device" (said once, as information); a folder that cannot be
    /// listed is a warning naming why.
    @Test func backlightFolderThatCannotBeListedIsAWarning() throws {
        let scratch = ScratchDirectory()
        var warnings: [String] = [], infos: [String] = []
        #expect(Backlight.open(.auto, classDirectory: scratch.path + "/none", warn: { warnings.append($0) }, info: { infos.append($0) }) == nil)
        #expect(warnings.isEmpty && infos.count == 1 && infos[0].hasPrefix("no backlight device"), "\(warnings) \(infos)")
        infos = []
        let file = scratch.write("backlight", "")
        #expect(Backlight.open(.auto, classDirectory: file, warn: { warnings.append($0) }, info: { infos.append($0) }) == nil)
        #expect(infos.isEmpty && warnings.count == 1 && warnings[0].contains("opendir \(file)"), "\(warnings) \(infos)")
    }
}
