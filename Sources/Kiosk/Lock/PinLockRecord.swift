import KioskSystem

/// What of the PIN lock must outlive the process (a restart, a power cut): wrong PINs in a row,
/// lockouts since the last unlock (for the doubling) and the running lockout. Never the PIN, nor
/// the digits entered. `PinLockStore` keeps it as a small text file.
public struct PinLockRecord: Sendable, Equatable {
    public var wrongInARow: Int
    public var lockouts: Int
    public var lockout: Lockout?

    public struct Lockout: Sendable, Equatable {
        /// When it ends on the wall clock (Unix seconds): all a new boot can go by.
        public var endsWall: Double
        /// Its full length: the most a restart gives back, whatever the wall clock says.
        public var seconds: Double
        /// The boot it was written in (`/proc/sys/kernel/random/boot_id`) and its end on that
        /// boot's monotonic clock: a restart in the same boot (the kiosk killed) counts on that
        /// clock, which setting the time does not move. Nil when the boot is unknown.
        public var boot: (id: String, endsMonotonic: Double)?

        public init(endsWall: Double, seconds: Double, boot: (id: String, endsMonotonic: Double)? = nil) {
            self.endsWall = endsWall
            self.seconds = seconds
            self.boot = boot
        }

        public static func == (a: Lockout, b: Lockout) -> Bool {
            a.endsWall == b.endsWall && a.seconds == b.seconds && a.boot?.id == b.boot?.id && a.boot?.endsMonotonic == b.boot?.endsMonotonic
        }

        /// Seconds left at a start: by the monotonic clock in the boot that wrote it, else by the
        /// wall clock; clamped to 0...`seconds`, so a clock set back (or to 1970 on a board without
        /// a real-time clock) cannot make it longer than it was, nor endless.
        public func remaining(wallNow: Double, monotonicNow: Double, bootID: String?) -> Double {
            let left = boot.flatMap { $0.id == bootID ? $0.endsMonotonic - monotonicNow : nil } ?? endsWall - wallNow
            return min(max(left, 0), seconds)
        }
    }

    public init(wrongInARow: Int = 0, lockouts: Int = 0, lockout: Lockout? = nil) {
        self.wrongInARow = wrongInARow
        self.lockouts = lockouts
        self.lockout = lockout
    }

    // MARK: The file

    static let header = "kiosk-pin-lock 1"
    /// Bounds a parsed value must lie in: wider than any config allows, narrow enough that a
    /// damaged number is caught rather than believed.
    static let wrongRange = 0...10_000
    static let lockoutsRange = 0...64

    /// The file's text: a header, then one `key value` per line.
    public var text: String {
        var lines = [Self.header, "wrong_in_a_row \(wrongInARow)", "lockouts \(lockouts)"]
        if let l = lockout {
            lines += ["lockout_seconds \(l.seconds)", "lockout_ends_wall \(l.endsWall)"]
            if let b = l.boot { lines += ["boot_id \(b.id)", "lockout_ends_monotonic \(b.endsMonotonic)"] }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `text` as `text` writes it; anything else (a line cut short, an unknown or repeated
    /// key, a number out of range) is refused, naming the line.
    public init(parsing text: String) throws(PinLockStateError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard lines.first == Substring(Self.header) else { throw .malformed(line: 1, "expected \"\(Self.header)\"") }
        var values: [String: Substring] = [:]
        for (i, line) in lines.enumerated().dropFirst() {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[1].isEmpty else { throw .malformed(line: i + 1, "expected \"key value\"") }
            let key = String(parts[0])
            guard ["wrong_in_a_row", "lockouts", "lockout_seconds", "lockout_ends_wall", "boot_id", "lockout_ends_monotonic"].contains(key) else {
                throw .malformed(line: i + 1, "unknown key \(key)")
            }
            guard values[key] == nil else { throw .malformed(line: i + 1, "\(key) repeated") }
            values[key] = parts[1]
        }
        func int(_ key: String, _ range: ClosedRange<Int>) throws(PinLockStateError) -> Int {
            guard let text = values[key] else { throw .malformed(line: nil, "no \(key)") }
            guard let v = Int(text), range.contains(v) else { throw .malformed(line: nil, "\(key) \(text) is not a whole number in \(range)") }
            return v
        }
        func double(_ key: String) throws(PinLockStateError) -> Double? {
            guard let text = values[key] else { return nil }
            guard let v = Double(text), v.isFinite else { throw .malformed(line: nil, "\(key) \(text) is not a finite number") }
            return v
        }
        wrongInARow = try int("wrong_in_a_row", Self.wrongRange)
        lockouts = try int("lockouts", Self.lockoutsRange)
        let seconds = try double("lockout_seconds"), ends = try double("lockout_ends_wall")
        let bootID = values["boot_id"].map(String.init), endsMonotonic = try double("lockout_ends_monotonic")
        guard (seconds == nil) == (ends == nil), (bootID == nil) == (endsMonotonic == nil), seconds != nil || bootID == nil else {
            throw .malformed(line: nil, "a lockout needs lockout_seconds and lockout_ends_wall, and boot_id goes with lockout_ends_monotonic")
        }
        if let seconds, let ends {
            guard seconds > 0, seconds <= PinLock.longestLockout else {
                throw .malformed(line: nil, "lockout_seconds \(seconds) is not in (0, \(Int(PinLock.longestLockout))]")
            }
            var boot: (id: String, endsMonotonic: Double)?
            if let bootID, let endsMonotonic {
                guard bootID.utf8.count <= 64, bootID.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }) else {
                    throw .malformed(line: nil, "boot_id is not a boot id")
                }
                boot = (bootID, endsMonotonic)
            }
            lockout = Lockout(endsWall: ends, seconds: seconds, boot: boot)
        } else {
            lockout = nil
        }
    }
}

/// Why the state file could not be used. Each is read as one lockout: a file an attacker could
/// damage or remove must not wipe the count.
public enum PinLockStateError: Error, Equatable, CustomStringConvertible {
    /// The file is gone although the kiosk wrote it before (the marker says so).
    case missing
    case unreadable(SystemError)
    case notRegularFile
    case tooLarge(Int)
    case malformed(line: Int?, String)

    public var description: String {
        switch self {
        case .missing: return "missing, although it was written before"
        case .unreadable(let e): return "unreadable (\(e))"
        case .notRegularFile: return "not a regular file"
        case .tooLarge(let n): return "\(n) bytes, more than the state ever takes"
        case .malformed(let line?, let why): return "corrupt at line \(line): \(why)"
        case .malformed(nil, let why): return "corrupt: \(why)"
        }
    }
}
