import Foundation
import Glibc
@testable import KioskConfiguration
import Testing
@testable import Kiosk

/// The PIN lockout kept on disk: a restart (a new `PinLock` on the same folder) with the wall and
/// monotonic clocks and the boot set by hand. The PIN is "739146".
@Suite struct PinLockPersistenceTests {
    static let pin = "739146"
    static let config = LockConfig(attempts: 3, lockout: 60)

    /// The wall clock and boot a store sees, moved by the test.
    final class Clock: @unchecked Sendable {
        var wall = 1_700_000_000.0
        var boot = "0b5e0b5e-0000-4000-8000-000000000001"
        var lockClock: PinLockClock { PinLockClock(wall: { self.wall }, bootID: boot) }
        func newBoot(_ n: Int) { boot = "0b5e0b5e-0000-4000-8000-00000000000\(n)" }
    }

    final class Folder {
        let path: String
        /// Removed with its contents at the end, unless it lies inside another test's folder.
        private var owned = true
        /// A folder not made here (the store makes it), inside another Folder.
        init(inside path: String) {
            self.path = path
            owned = false
        }
        init() {
            var template = Array("/tmp/kiosk-pinlock-test-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }
        deinit { if owned { try? FileManager.default.removeItem(atPath: path) } }
        var state: String { path + "/pin-lock.state" }
        var marker: String { path + "/pin-lock.created" }
        func text(_ file: String) -> String? { try? String(contentsOfFile: file, encoding: .utf8) }
        func mode(_ file: String) -> mode_t {
            var info = stat()
            return stat(file, &info) == 0 ? info.st_mode & 0o7777 : 0
        }
    }

    /// A kiosk process: its lock on the folder, started at monotonic time `now`.
    final class Process {
        var lock: PinLock
        init(_ folder: Folder, _ clock: Clock, now: Double, config: LockConfig = PinLockPersistenceTests.config) {
            lock = PinLock(config, store: PinLockStore(directory: folder.path, clock: clock.lockClock), now: now)
        }
        func type(_ digits: String, now: Double, verify: (String) -> Bool = { $0 == PinLockPersistenceTests.pin }) -> PinLock.Outcome {
            for c in digits.utf8 { _ = lock.press(.digit(c - 0x30), now: now, verify: verify) }
            return lock.press(.ok, now: now, verify: verify)
        }
        func advance(now: Double) -> Bool { lock.advance(now: now) }
    }

    @Test func firstStartRecordsNoFailuresAndMakesPrivateFiles() throws {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 10)
        #expect(p.lock.lockedOutUntil == nil && p.lock.wrongInARow == 0)
        let text = try #require(folder.text(folder.state))
        #expect(try PinLockRecord(parsing: text) == PinLockRecord())
        #expect(folder.text(folder.marker) != nil)
        #expect(folder.mode(folder.state) == 0o600)
        #expect(folder.mode(folder.marker) == 0o600)
    }

    @Test func missingFolderIsMadePrivate() throws {
        let folder = Folder(), clock = Clock()
        let inner = folder.path + "/state"
        _ = PinLock(Self.config, store: PinLockStore(directory: inner, clock: clock.lockClock), now: 0)
        #expect(folder.mode(inner) == 0o700)
        #expect(folder.text(inner + "/pin-lock.state") != nil)
    }

    @Test func restartInMidLockoutKeepsWhatIsLeft() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 100)
        #expect(p.type("1111", now: 100) == .wrong(remaining: 2))
        #expect(p.type("2222", now: 101) == .wrong(remaining: 1))
        #expect(p.type("3333", now: 102) == .lockedOut(seconds: 60))
        // A power cut 20 s later; the new boot's monotonic clock starts low.
        clock.wall += 20
        clock.newBoot(2)
        let q = Process(folder, clock, now: 5)
        #expect(q.lock.lockoutRemaining(now: 5) == 40)
        #expect(q.lock.lockouts == 1)
        #expect(q.type(Self.pin, now: 30) == .refused)
        #expect(q.lock.nextDeadline(lastInput: 0) == 45)
        #expect(q.advance(now: 45))
        #expect(q.type(Self.pin, now: 46) == .unlocked)
    }

    @Test func wrongPinsInARowCarryAcrossARestart() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        #expect(p.type("1111", now: 1) == .wrong(remaining: 2))
        #expect(p.type("1111", now: 2) == .wrong(remaining: 1))
        clock.newBoot(2)
        let q = Process(folder, clock, now: 0)
        #expect(q.lock.wrongInARow == 2)
        #expect(q.type("1111", now: 1) == .lockedOut(seconds: 60))
    }

    @Test func doublingCarriesAcrossARestart() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        for _ in 0..<3 { _ = p.type("1111", now: 0) }
        #expect(p.lock.lockouts == 1)
        // Restarted after the lockout ended while the kiosk was down.
        clock.wall += 600
        clock.newBoot(2)
        let q = Process(folder, clock, now: 0)
        #expect(q.lock.lockoutRemaining(now: 0) == nil)
        #expect(q.type("1111", now: 1) == .wrong(remaining: 2))
        #expect(q.type("1111", now: 2) == .wrong(remaining: 1))
        #expect(q.type("1111", now: 3) == .lockedOut(seconds: 120))
        // And again, killed in the doubled lockout: the third is four times as long.
        clock.wall += 200
        clock.newBoot(3)
        let r = Process(folder, clock, now: 0)
        #expect(r.lock.lockoutRemaining(now: 0) == nil)
        for _ in 0..<2 { _ = r.type("1111", now: 1) }
        #expect(r.type("1111", now: 1) == .lockedOut(seconds: 240))
        // The right PIN resets the doubling, on disk too.
        clock.wall += 1000
        let s = Process(folder, clock, now: 300)
        #expect(s.type(Self.pin, now: 300) == .unlocked)
        let t = Process(folder, clock, now: 301)
        #expect(t.lock.lockouts == 0 && t.lock.wrongInARow == 0)
    }

    @Test func lockoutEndIsWrittenSoAClockSetBackDoesNotBringItBack() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        for _ in 0..<3 { _ = p.type("1111", now: 0) }
        clock.wall += 61
        #expect(p.advance(now: 61))
        clock.wall = 0
        clock.newBoot(2)
        let q = Process(folder, clock, now: 0)
        #expect(q.lock.lockedOutUntil == nil && q.lock.wrongInARow == 0 && q.lock.lockouts == 1)
    }

    @Test func clockSetBackCannotMakeALockoutLongerThanItWas() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        for _ in 0..<3 { _ = p.type("1111", now: 0) }
        // A board without a real-time clock boots in 1970.
        clock.wall = 0
        clock.newBoot(2)
        let q = Process(folder, clock, now: 7)
        #expect(q.lock.lockoutRemaining(now: 7) == 60)
        #expect(q.advance(now: 67))
    }

    @Test func clockJumpsWhileRunningDoNotMoveALockout() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        for _ in 0..<3 { _ = p.type("1111", now: 0) }
        // A day forward on the wall clock: the running lockout counts on the monotonic one.
        clock.wall += 86_400
        #expect(p.lock.lockoutRemaining(now: 10) == 50)
        #expect(p.type(Self.pin, now: 10) == .refused)
    }

    @Test func sameBootRestartCountsOnTheMonotonicClock() {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 1000)
        for _ in 0..<3 { _ = p.type("1111", now: 1000) }
        // Killed and restarted 10 s later in the same boot, the wall clock stepped a day forward meanwhile.
        clock.wall += 86_400
        let q = Process(folder, clock, now: 1010)
        #expect(q.lock.lockoutRemaining(now: 1010) == 50)
        // ... or a day back: still what is left, not more.
        clock.wall -= 2 * 86_400
        let r = Process(folder, clock, now: 1020)
        #expect(r.lock.lockoutRemaining(now: 1020) == 40)
    }

    @Test func clockJumpedForwardAcrossAPowerCutEndsTheLockoutAtMostAtItsEnd() {
        // Across boots only the wall clock is left: a lockout already over by it is over.
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        for _ in 0..<3 { _ = p.type("1111", now: 0) }
        clock.wall += 30
        clock.newBoot(2)
        #expect(Process(folder, clock, now: 0).lock.lockoutRemaining(now: 0) == 30)
        clock.wall += 3600
        clock.newBoot(3)
        #expect(Process(folder, clock, now: 0).lock.lockoutRemaining(now: 0) == nil)
    }

    @Test(arguments: [
        "", "\n", "kiosk-pin-lock 2\nwrong_in_a_row 0\nlockouts 0\n", "kiosk-pin-lock 1\nwrong_in_a_row 0\n",
        "kiosk-pin-lock 1\nwrong_in_a_row -1\nlockouts 0\n", "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 0\nlockouts 0\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 0\ncolour red\n", "kiosk-pin-lock 1\nwrong_in_a_row x\nlockouts 0\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 1\nlockout_seconds 60\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 1\nlockout_seconds nan\nlockout_ends_wall 1\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 1\nlockout_seconds 1e9\nlockout_ends_wall 1\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 1\nlockout_seconds 60\nlockout_ends_wall 1\nboot_id x\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlockouts 1\nlockout_seconds 60\nlockout_ends_wall 1\nboot_id $(x)\nlockout_ends_monotonic 5\n",
        "kiosk-pin-lock 1\nwrong_in_a_row 0\nlock",
        String(repeating: "x", count: 10_000),
    ])
    func corruptStateIsOneFullLockout(_ text: String) throws {
        let folder = Folder(), clock = Clock()
        _ = Process(folder, clock, now: 0)
        try text.write(toFile: folder.state, atomically: false, encoding: .utf8)
        let p = Process(folder, clock, now: 50, config: LockConfig(attempts: 3, lockout: 90))
        #expect(p.lock.lockoutRemaining(now: 50) == 90)
        #expect(p.lock.lockouts == 1)
        #expect(p.type(Self.pin, now: 100) == .refused)
        // Written back whole: a restart goes on with the lockout, not with "corrupt" again.
        let record = try PinLockRecord(parsing: try #require(folder.text(folder.state)))
        #expect(record.lockout?.seconds == 90 && record.lockouts == 1)
        // After it, the next lockout counts as the second.
        #expect(p.advance(now: 140))
        for _ in 0..<2 { _ = p.type("1111", now: 141) }
        #expect(p.type("1111", now: 141) == .lockedOut(seconds: 180))
    }

    /// A root without /var/lib (a small custom image, a run outside systemd): the folder is made
    /// with its parents, and a lockout survives the restart instead of being counted in memory.
    @Test func folderIsMadeWithItsParents() throws {
        let folder = Folder(), clock = Clock()
        let deep = Folder(inside: folder.path + "/var/lib/kiosk")
        let first = Process(deep, clock, now: 0)
        for _ in 0..<2 { _ = first.type("1111", now: 1) }
        #expect(first.type("1111", now: 1) == .lockedOut(seconds: 60))
        #expect(folder.mode(folder.path + "/var") == 0o755 && folder.mode(folder.path + "/var/lib") == 0o755)
        #expect(folder.mode(deep.path) == 0o700)
        // Killed and started again 10 s later in this boot: still locked out, the right PIN refused.
        clock.wall += 10
        let again = Process(deep, clock, now: 11)
        #expect(again.lock.lockoutRemaining(now: 11) == 50)
    }

    @Test func stateThatIsNotAFileIsOneLockout() throws {
        let folder = Folder(), clock = Clock()
        _ = Process(folder, clock, now: 0)
        unlink(folder.state)
        #expect(symlink("/etc/hostname", folder.state) == 0)
        #expect(Process(folder, clock, now: 0).lock.lockoutRemaining(now: 0) == 60)
        unlink(folder.state)
        #expect(mkdir(folder.state, 0o700) == 0)
        #expect(Process(folder, clock, now: 0).lock.lockoutRemaining(now: 0) == 60)
        rmdir(folder.state)
    }

    @Test func missingStateIsNoneOnlyOnTheFirstStart() {
        let folder = Folder(), clock = Clock()
        #expect(Process(folder, clock, now: 0).lock.lockedOutUntil == nil)
        #expect(folder.text(folder.marker) != nil)
        // Deleted afterwards (by hand, by a damaged file system): one lockout, not a clean slate.
        unlink(folder.state)
        let p = Process(folder, clock, now: 0)
        #expect(p.lock.lockoutRemaining(now: 0) == 60)
        #expect(folder.text(folder.state) != nil)
        // Both files gone (the folder emptied, as a purge leaves it): a first start again.
        unlink(folder.state)
        unlink(folder.marker)
        #expect(Process(folder, clock, now: 0).lock.lockedOutUntil == nil)
    }

    @Test func unwritableFolderKeepsTheLockInMemory() {
        let folder = Folder(), clock = Clock()
        // Root may write any folder: a directory in the temporary file's place makes every write fail.
        #expect(mkdir(folder.state + ".tmp", 0o700) == 0)
        var store = PinLockStore(directory: folder.path, clock: clock.lockClock)
        let saved = store.save(PinLockRecord())
        #expect(!saved)
        let p = Process(folder, clock, now: 0)
        #expect(folder.text(folder.state) == nil)
        #expect(p.type("1111", now: 0) == .wrong(remaining: 2))
        #expect(p.type("1111", now: 0) == .wrong(remaining: 1))
        #expect(p.type("1111", now: 0) == .lockedOut(seconds: 60))
        #expect(p.type(Self.pin, now: 30) == .refused)
        // Writable again: the next change is written.
        rmdir(folder.state + ".tmp")
        #expect(p.advance(now: 60))
        #expect(folder.text(folder.state) != nil)
    }

    @Test func noFolderToKeepItInKeepsTheLockInMemory() {
        let folder = Folder(), clock = Clock()
        let file = folder.path + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        for dir in [file, file + "/state", "/proc/kiosk-pin-lock-test"] {
            #expect(PinLockStore(directory: dir, clock: clock.lockClock).load().isUnavailable, "\(dir)")
            let p = PinLock(Self.config, store: PinLockStore(directory: dir, clock: clock.lockClock), now: 0)
            var q = p
            for _ in 0..<3 { _ = q.press(.digit(1), now: 0, verify: { _ in false }); _ = q.press(.ok, now: 0, verify: { _ in false }) }
            #expect(q.lockoutRemaining(now: 0) == 60)
        }
    }

    @Test func anAttemptIsOnDiskBeforeItsPinIsChecked() throws {
        let folder = Folder(), clock = Clock()
        let p = Process(folder, clock, now: 0)
        var seen: PinLockRecord?
        _ = p.type("1111", now: 0) { _ in
            seen = try? PinLockRecord(parsing: folder.text(folder.state) ?? "")
            return false
        }
        #expect(seen?.wrongInARow == 1)
        // The right PIN clears it again.
        _ = p.type(Self.pin, now: 0) { _ in
            seen = try? PinLockRecord(parsing: folder.text(folder.state) ?? "")
            return true
        }
        #expect(seen?.wrongInARow == 2)
        #expect(try PinLockRecord(parsing: try #require(folder.text(folder.state))).wrongInARow == 0)
        #expect(folder.text(folder.state)?.contains(Self.pin) == false)
    }

    @Test func theAppTakesUpTheStoredLockout() throws {
        let folder = Folder(), clock = Clock()
        let config = KeypadTests.config()
        let p = Process(folder, clock, now: 0, config: config.lock)
        for _ in 0..<config.lock.attempts { _ = p.type("1111", now: 0) }
        clock.newBoot(2)
        let store = PinLockStore(directory: folder.path, clock: clock.lockClock)
        let app = try KioskApp(config: config, lockStore: store, width: 800, height: 480, now: 0)
        #expect(app.pinLock.lockoutRemaining(now: 0) == Int(config.lock.lockout))
        let admin = try #require(config.screen(named: "admin"))
        #expect(Keypad.title(for: admin, lock: app.pinLock, now: 3) == "Locked: try again in \(Int(config.lock.lockout) - 3) s")
    }

    @Test func recordTextRoundTrips() throws {
        let records = [
            PinLockRecord(),
            PinLockRecord(wrongInARow: 4, lockouts: 0),
            PinLockRecord(wrongInARow: 0, lockouts: 3, lockout: .init(endsWall: 1_764_150_000.25, seconds: 240)),
            PinLockRecord(wrongInARow: 0, lockouts: 1,
                          lockout: .init(endsWall: 1e9, seconds: 60, boot: ("0b5e0b5e-0000-4000-8000-000000000001", 12_345.678))),
        ]
        for r in records { #expect(try PinLockRecord(parsing: r.text) == r) }
    }

    @Test func directoryFromOptionEnvironmentOrDefault() {
        #expect(PinLockStore.directory(option: "/tmp/s", environment: "/var/lib/kiosk") == "/tmp/s")
        #expect(PinLockStore.directory(option: nil, environment: "/var/lib/kiosk:/var/lib/other") == "/var/lib/kiosk")
        #expect(PinLockStore.directory(option: nil, environment: nil) == "/var/lib/kiosk")
        #expect(PinLockStore.directory(option: nil, environment: "") == "/var/lib/kiosk")
    }

    @Test func systemClockKnowsTheBoot() {
        let clock = PinLockClock.system()
        #expect(clock.bootID?.count == 36)
        #expect(abs(clock.wall() - Date().timeIntervalSince1970) < 5)
    }
}

extension PinLockStore.Loaded {
    var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
