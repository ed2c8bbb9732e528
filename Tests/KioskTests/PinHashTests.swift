@testable import KioskConfiguration
import Testing
@testable import Kiosk

@Suite struct PinHashTests {
    @Test func madeHashIsYescryptAndVerifies() throws {
        let hash = try PinHash.make(pin: "2468")
        #expect(hash.text.hasPrefix("$y$"))
        #expect(!hash.text.contains("2468"))
        #expect(hash.matches("2468"))
        #expect(!hash.matches("2469"))
        #expect(!hash.matches("24680"))
        #expect(!hash.matches(""))
    }

    @Test func saltsDiffer() throws {
        #expect(try PinHash.make(pin: "1234") != PinHash.make(pin: "1234"))
    }

    /// `openssl passwd -6 -salt saltsalt 1234`: a hash made outside libcrypt.
    @Test func sha512CryptFromElsewhereVerifies() throws {
        let hash = try PinHash("$6$saltsalt$/alWecYH7Ry7BmdtYwV3ObFkYwJ96i4zoGSMR09J7xkAoFGB7iwoQytRgpR6rkCCVBVNkvTdkdDjhKYVJ8L2T.")
        #expect(hash.matches("1234"))
        #expect(!hash.matches("1235"))
    }

    @Test(arguments: ["", "1234", "$1$abc$def", "$y$", "$6$", "$y$j9T$", "$6$saltsalt$short", "plain", "$2b$10$abc"])
    func malformedHashesAreRefused(_ text: String) {
        #expect(throws: PinError.malformedHash) { try PinHash(text) }
    }

    @Test func badPinsAreRefusedWithoutRepeatingThem() {
        #expect(throws: PinError.empty) { try PinHash.validate(pin: "") }
        #expect(throws: PinError.notDigits) { try PinHash.validate(pin: "12a4") }
        #expect(throws: PinError.notDigits) { try PinHash.validate(pin: "１２３４") }
        #expect(throws: PinError.length(3)) { try PinHash.validate(pin: "123") }
        #expect(throws: PinError.length(13)) { try PinHash.validate(pin: "1234567890123") }
        #expect(!PinError.notDigits.description.contains("12a4"))
        #expect(throws: Never.self) { try PinHash.validate(pin: "000000000000") }
    }
}
