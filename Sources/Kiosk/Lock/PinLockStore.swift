import Glibc
import KioskSystem

/// The clocks a stored lockout is measured with, passed in so that tests set them by hand.
public struct PinLockClock: Sendable {
    /// Seconds since 1970 (CLOCK_REALTIME): the only time that goes on across a power cut.
    public var wall: @Sendable () -> Double
    /// This boot's id: the monotonic clock is only comparable within one boot. Nil: unknown.
    public var bootID: String?

    public init(wall: @escaping @Sendable () -> Double, bootID: String?) {
        self.wall = wall
        self.bootID = bootID
    }

    public static func system() -> PinLockClock {
        let id = try? PinLockStore.readSmallFile("/proc/sys/kernel/random/boot_id", limit: 64)
        let text = id.map { String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace } }
        return PinLockClock(wall: {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }, bootID: text?.isEmpty == false ? text : nil)
    }
}

/// Keeps `PinLockRecord` in a folder (the service's `StateDirectory=`, /var/lib/kiosk) as
/// `pin-lock.state`, mode 0600, written durably at each change so that a power cut right after a
/// wrong PIN cannot forget it. `pin-lock.created`, written once after the first state file, tells
/// a first start (neither file: no failures) from a state file deleted or lost later (the marker
/// without the file: treated as a lockout). Deleting the whole folder (a purge, a new image) is a
/// first start again, by design.
public struct PinLockStore: Sendable {
    public let directory: String
    let clock: PinLockClock
    /// A write failed and was logged: the next failures are not, until one succeeds.
    private var failing = false
    /// The marker is known to be on disk.
    private var marked = false

    public static let defaultDirectory = "/var/lib/kiosk"
    /// The most the file ever holds (it takes about 200 bytes).
    static let sizeLimit = 4096

    public init(directory: String, clock: PinLockClock = .system()) {
        self.directory = directory
        self.clock = clock
    }

    /// `--state-dir` when given, else systemd's `$STATE_DIRECTORY` (its first folder when it
    /// names several), else /var/lib/kiosk: the service gets the folder its sandbox lets it write,
    /// and a run by hand or a test names its own.
    public static func directory(option: String?, environment: String?) -> String {
        if let option, !option.isEmpty { return option }
        if let env = environment?.split(separator: ":").first, !env.isEmpty { return String(env) }
        return defaultDirectory
    }

    public var path: String { directory + "/pin-lock.state" }
    public var markerPath: String { directory + "/pin-lock.created" }

    public enum Loaded: Equatable {
        /// Neither the state file nor the marker: nothing was ever recorded here.
        case firstStart
        case saved(PinLockRecord)
        /// A state was recorded but cannot be read back.
        case lost(PinLockStateError)
        /// No folder to keep it in (not there and cannot be made): memory only.
        case unavailable(SystemError)
    }

    /// Reads the state, making the folder (0700) when it is missing, and its missing parents
    /// (0755) as systemd's `StateDirectory=` does: a small root without /var/lib must not make
    /// the lockout a memory-only count that a restart forgets.
    public func load() -> Loaded {
        var info = stat()
        if stat(directory, &info) != 0 {
            guard errno == ENOENT else { return .unavailable(.last("stat \(directory)")) }
            var made = directory.hasPrefix("/") ? "" : "."
            let parts = directory.split(separator: "/")
            for (i, part) in parts.enumerated() {
                made += "/" + part
                guard mkdir(made, i == parts.count - 1 ? 0o700 : 0o755) == 0 || errno == EEXIST else {
                    return .unavailable(.last("mkdir \(made)"))
                }
            }
        } else if info.st_mode & S_IFMT != S_IFDIR {
            return .unavailable(SystemError("stat \(directory)", errno: ENOTDIR))
        }
        do {
            let bytes = try Self.readSmallFile(path, limit: Self.sizeLimit)
            return .saved(try PinLockRecord(parsing: String(decoding: bytes, as: UTF8.self)))
        } catch .unreadable(let e) where e.errno == ENOENT {
            if access(markerPath, F_OK) == 0 { return .lost(.missing) }
            return errno == ENOENT ? .firstStart : .lost(.unreadable(.last("access \(markerPath)")))
        } catch {
            return .lost(error)
        }
    }

    /// Writes `record`, then the marker once. A failure is logged once per run of failures; the
    /// lock goes on in memory either way. True when written.
    @discardableResult
    public mutating func save(_ record: PinLockRecord) -> Bool {
        do throws(SystemError) {
            try writeFileDurably(path, record.text, mode: 0o600)
            if !marked {
                try writeFileDurably(markerPath, "The kiosk has kept its PIN lockout state here since this file was made; without pin-lock.state beside it, the keypad starts locked out.\n", mode: 0o600)
                marked = true
            }
            if failing { Log.notice("PIN lockout state written to \(path) again") }
            failing = false
            return true
        } catch {
            if !failing {
                Log.warning("cannot keep the PIN lockout state in \(directory) (\(error)): wrong PINs and lockouts are counted in memory only until it can be written")
            }
            failing = true
            return false
        }
    }

    /// The record for the lock's values at `now` (its monotonic time): a lockout's end in wall
    /// time, and in this boot's monotonic time when the boot is known.
    public func record(wrongInARow: Int, lockouts: Int, lockout: (until: Double, seconds: Double)?, now: Double) -> PinLockRecord {
        PinLockRecord(wrongInARow: wrongInARow, lockouts: lockouts, lockout: lockout.map { l in
            PinLockRecord.Lockout(endsWall: clock.wall() + (l.until - now), seconds: l.seconds,
                                  boot: clock.bootID.map { ($0, l.until) })
        })
    }

    /// Seconds left of `lockout` at a start at monotonic time `now`.
    public func remaining(_ lockout: PinLockRecord.Lockout, now: Double) -> Double {
        lockout.remaining(wallNow: clock.wall(), monotonicNow: now, bootID: clock.bootID)
    }

    /// At most `limit` bytes of a regular file, never following a link nor blocking on a FIFO.
    static func readSmallFile(_ path: String, limit: Int) throws(PinLockStateError) -> [UInt8] {
        do {
            return try SmallFile.read(path, limit: limit, followLinks: false)
        } catch {
            switch error {
            case .unreadable(let e): throw .unreadable(e)
            case .notRegularFile: throw .notRegularFile
            case .tooLarge(let bytes): throw .tooLarge(bytes)
            }
        }
    }
}
