@testable import KioskConfiguration
import Testing
@testable import Kiosk

/// `[lock]` and `pin_hash`: the keys decode, and wrong types, ranges and hashes name their key.
@Suite struct LockConfigTests {
    /// `openssl passwd -6 -salt saltsalt 1234`.
    static let hash1234 = "$6$saltsalt$/alWecYH7Ry7BmdtYwV3ObFkYwJ96i4zoGSMR09J7xkAoFGB7iwoQytRgpR6rkCCVBVNkvTdkdDjhKYVJ8L2T."

    /// Home opens "admin", which carries `screen`'s lines; `home` goes into the home screen.
    func check(screen: String = "", home: String = "", lock: String? = nil, scratch: ScratchDirectory) -> ConfigCheck {
        let text = """
            home = "main"
            [screens.main]
            style = "arc"
            \(home)
            [[screens.main.items]]
            label = "Admin"
            action = "screen"
            screen = "admin"

            [screens.admin]
            style = "arc"
            \(screen)

            [[screens.admin.items]]
            label = "Back"
            action = "back"

            """ + (lock.map { "[lock]\n" + $0 + "\n" } ?? "")
        return ConfigReader(path: scratch.write("k.toml", text), displayName: "k.toml").check()
    }

    /// A PIN hash written without quotes (or broken) is a syntax error told without the hash:
    /// the banner is on the public screen, and a 4-digit PIN falls to its hash in moments.
    @Test func pinHashNeverQuoted() {
        let scratch = ScratchDirectory()
        let tail = String(Self.hash1234.suffix(20))
        for line in ["pin_hash = \(Self.hash1234)", "pin_hash = \"\(Self.hash1234)", "  \"pin_hash\"=\(Self.hash1234)",
                     "pin_hash = \"\(Self.hash1234)\\q\""] {
            let problems = check(screen: line, scratch: scratch).problems.map(\.description)
            #expect(problems.count == 1 && problems[0].contains("TOML syntax error") && problems[0].contains("the value of pin_hash is not shown"), "\(problems)")
            #expect(!problems.contains { $0.contains(tail) }, "\(problems)")
        }
        // Other keys still quote what they found, which helps the author.
        let other = check(screen: "title = Admin", scratch: scratch).problems.map(\.description)
        #expect(other.first?.contains("`Admin` is not a value for `title`") == true, "\(other)")
    }

    @Test func lockKeysDecode() throws {
        let scratch = ScratchDirectory()
        let plain = try #require(check(scratch: scratch).config)
        #expect(plain.lock == LockConfig(attempts: 5, lockout: 60, relockAfter: 60))
        #expect(plain.screens[0].pinHash == nil)
        let c = try #require(check(screen: "pin_hash = \"\(Self.hash1234)\"", lock: "attempts = 3\nlockout = 30\nrelock_after = 0", scratch: scratch).config)
        #expect(c.lock == LockConfig(attempts: 3, lockout: 30, relockAfter: 0))
        #expect(c.screens[1].pinHash?.matches("1234") == true)
    }

    @Test func badLockValuesNameTheKey() {
        let scratch = ScratchDirectory()
        func problems(_ lock: String) -> [String] { check(lock: lock, scratch: scratch).problems.map(\.description) }
        #expect(problems("attempts = 0") == ["k.toml:18:12: lock.attempts: 0 is out of range 1...100"])
        #expect(problems("attempts = 101") == ["k.toml:18:12: lock.attempts: 101 is out of range 1...100"])
        #expect(problems("attempts = 2.5") == ["k.toml:18:12: lock.attempts: expected an integer, got a float (2.5)"])
        #expect(problems("lockout = 0") == ["k.toml:18:11: lock.lockout: 0 is out of range 1...86400"])
        #expect(problems("lockout = \"1m\"") == [#"k.toml:18:11: lock.lockout: expected a number, got a string ("1m")"#])
        #expect(problems("relock_after = -1") == ["k.toml:18:16: lock.relock_after: -1 is out of range 0...86400"])
        #expect(problems("relock_after = 86401") == ["k.toml:18:16: lock.relock_after: 86401 is out of range 0...86400"])
        #expect(problems("relock = 5") == ["k.toml:18:1: lock.relock: unknown key (known here: attempts, lockout, relock_after)"])
    }

    @Test func homeCannotBeLocked() {
        let problems = check(home: "pin_hash = \"\(Self.hash1234)\"", scratch: ScratchDirectory()).problems.map(\.description)
        #expect(problems == ["k.toml:4:12: screens.main.pin_hash: the home screen cannot be locked: it is shown at start, never opened; lock the screens it opens"])
    }

    @Test func malformedPinHashNamesTheKey() {
        let scratch = ScratchDirectory()
        for bad in ["\"1234\"", "\"$1$abc$def\"", "\"$y$\"", "1234"] {
            let problems = check(screen: "pin_hash = \(bad)", scratch: scratch).problems.map(\.description)
            #expect(problems.count == 1)
            #expect(problems.first?.hasPrefix("k.toml:12:12: screens.admin.pin_hash: ") == true, "\(problems)")
        }
    }
}
