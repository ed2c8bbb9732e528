import CCrypt
import Glibc
import KioskSystem

/// Why a PIN or a PIN hash was refused. Messages never repeat the PIN itself.
public enum PinError: Error, Equatable, CustomStringConvertible {
    case empty
    case notDigits
    case length(Int)
    /// Not a `$y$` (yescrypt) or `$6$` (sha512-crypt) hash that libcrypt accepts.
    case malformedHash
    /// libcrypt failed (no random bytes for a salt, out of memory): its errno.
    case crypt(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .empty: return "the PIN is empty"
        case .notDigits: return "a PIN is digits only (0-9)"
        case .length(let n): return "a PIN has \(PinHash.lengths.lowerBound) to \(PinHash.lengths.upperBound) digits, this one has \(n)"
        case .malformedHash: return "expected a crypt(3) hash starting with \"$y$\" (yescrypt) or \"$6$\" (sha512-crypt), as `kiosk hash-pin` prints"
        case .crypt(let call, let errno): return SystemError(call, errno: errno).description
        }
    }
}

/// A PIN's crypt(3) hash, the format of /etc/shadow, so that a config file never holds the PIN.
/// The one owner of libcrypt calls: `crypt_rn` (reentrant, its state on the heap per call) to verify,
/// `crypt_gensalt_rn` for a fresh yescrypt salt.
public struct PinHash: Sendable, Equatable {
    public let text: String

    /// Accepted PIN lengths: short enough for a keypad, long enough to be worth a lock.
    public static let lengths = 4...12
    /// The hash methods accepted: yescrypt (Debian's default) and sha512-crypt.
    public static let prefixes = ["$y$", "$6$"]

    /// Accepts `text` only when it has a known prefix and is a whole hash: libcrypt hashing with it
    /// as the setting gives a string of its length and settings (a bare `$6$` is a setting, no hash).
    public init(_ text: String) throws(PinError) {
        guard Self.prefixes.contains(where: text.hasPrefix), let probe = Self.crypt("0000", setting: text),
              probe.utf8.count == text.utf8.count, Self.setting(of: probe) == Self.setting(of: text) else {
            throw .malformedHash
        }
        self.text = text
    }

    /// Up to the last `$`: method, parameters and salt.
    private static func setting(of hash: String) -> Substring {
        hash[..<(hash.lastIndex(of: "$") ?? hash.startIndex)]
    }

    /// A fresh yescrypt hash of `pin` (checked first with `validate`).
    public static func make(pin: String) throws(PinError) -> PinHash {
        try validate(pin: pin)
        var salt = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        errno = 0
        guard let made = crypt_gensalt_rn("$y$", 0, nil, 0, &salt, Int32(salt.count)) else {
            throw .crypt(call: "crypt_gensalt_rn", errno: errno)
        }
        let setting = String(cString: made)
        errno = 0
        guard let hashed = crypt(pin, setting: setting) else { throw .crypt(call: "crypt_rn", errno: errno) }
        return try PinHash(hashed)
    }

    /// Refuses what a keypad cannot enter or what would be too weak to lock with.
    public static func validate(pin: String) throws(PinError) {
        if pin.isEmpty { throw .empty }
        guard pin.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { throw .notDigits }
        guard lengths.contains(pin.utf8.count) else { throw .length(pin.utf8.count) }
    }

    /// True when `pin` hashes to this hash; the comparison takes the same time wherever the first
    /// difference is, so timing tells nothing about how close a guess was.
    public func matches(_ pin: String) -> Bool {
        guard let candidate = Self.crypt(pin, setting: text) else { return false }
        let a = Array(candidate.utf8), b = Array(text.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<min(a.count, b.count) { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// `crypt_rn` with its 32 KiB state on the heap, wiped before it is freed (it held the PIN).
    private static func crypt(_ phrase: String, setting: String) -> String? {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        let size = MemoryLayout<crypt_data>.size
        memset(data, 0, size)
        defer {
            explicit_bzero(data, size)
            data.deallocate()
        }
        guard let out = crypt_rn(phrase, setting, data, Int32(size)) else { return nil }
        return String(cString: out)
    }
}
