import Glibc
@testable import KioskSystem
import TestSupport
import Testing

/// The one bounded reader of files the kiosk did not write: what it refuses (too large, not a
/// file, a link where none may be), what it cuts, and that a FIFO never blocks it.
@Suite struct SmallFileTests {
    @Test func aFileWithinItsLimitIsReadWhole() throws {
        let f = TemporaryFolder("kiosk-small-file")
        let file = f.write("a", Array("state=installing\n".utf8))
        #expect(try SmallFile.read(file, limit: 17) == Array("state=installing\n".utf8))
        #expect(SmallFile.text(file, limit: 100) == "state=installing\n")
        #expect(try SmallFile.read(f.write("empty", []), limit: 0) == [])
    }

    @Test func whatIsRefusedAndWhatIsCut() throws {
        let f = TemporaryFolder("kiosk-small-file")
        let big = f.write("big", [UInt8](repeating: 65, count: 5000))
        #expect(throws: SmallFile.Failure.tooLarge(bytes: 5000)) { try SmallFile.read(big, limit: 4999) }
        #expect(SmallFile.text(big, limit: 10) == nil)
        #expect(try SmallFile.read(big, limit: 10, cut: true) == [UInt8](repeating: 65, count: 10))
        #expect(throws: SmallFile.Failure.notRegularFile(kind: "a directory")) { try SmallFile.read(f.path, limit: 10) }
        #expect(throws: SmallFile.Failure.notRegularFile(kind: "a device")) { try SmallFile.read("/dev/zero", limit: 10) }
        // A device read for what it has (a sensor's node): bounded, even an endless one.
        #expect(try SmallFile.read("/dev/zero", limit: 10, regularOnly: false) == [UInt8](repeating: 0, count: 10))
        guard case .unreadable(let missing)? = Result(catching: { () throws(SmallFile.Failure) in try SmallFile.read(f.path + "/none", limit: 1) }).failure,
              missing.errno == ENOENT else {
            Issue.record("a missing file is not unreadable (ENOENT)")
            return
        }
        // A link where only the kiosk's own file may be.
        symlink(big, f.path + "/link")
        #expect(throws: SmallFile.Failure.tooLarge(bytes: 5000)) { try SmallFile.read(f.path + "/link", limit: 10) }
        guard case .unreadable(let loop)? = Result(catching: { () throws(SmallFile.Failure) in
            try SmallFile.read(f.path + "/link", limit: 10, followLinks: false)
        }).failure, loop.errno == ELOOP else {
            Issue.record("a link was followed where none may be")
            return
        }
    }

    @Test func aFIFONeverBlocks() throws {
        let f = TemporaryFolder("kiosk-small-file")
        let fifo = f.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SmallFile.Failure.notRegularFile(kind: "a pipe")) { try SmallFile.read(fifo, limit: 10) }
        // Nobody writing: nothing there, at once.
        #expect(try SmallFile.read(fifo, limit: 10, regularOnly: false) == [])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
