import CLinux
import Glibc

/// File system access rights Landlock can take away (linux/landlock.h's `LANDLOCK_ACCESS_FS_*`).
public struct LandlockAccess: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let execute = LandlockAccess(rawValue: 1 << 0)
    public static let writeFile = LandlockAccess(rawValue: 1 << 1)
    public static let readFile = LandlockAccess(rawValue: 1 << 2)
    public static let readDirectory = LandlockAccess(rawValue: 1 << 3)
    public static let removeDirectory = LandlockAccess(rawValue: 1 << 4)
    public static let removeFile = LandlockAccess(rawValue: 1 << 5)
    public static let makeCharacterDevice = LandlockAccess(rawValue: 1 << 6)
    public static let makeDirectory = LandlockAccess(rawValue: 1 << 7)
    public static let makeRegularFile = LandlockAccess(rawValue: 1 << 8)
    public static let makeSocket = LandlockAccess(rawValue: 1 << 9)
    public static let makeFIFO = LandlockAccess(rawValue: 1 << 10)
    public static let makeBlockDevice = LandlockAccess(rawValue: 1 << 11)
    public static let makeSymlink = LandlockAccess(rawValue: 1 << 12)
    /// ABI 2: link or rename a file into another folder.
    public static let refer = LandlockAccess(rawValue: 1 << 13)
    /// ABI 3: truncate a file.
    public static let truncate = LandlockAccess(rawValue: 1 << 14)

    /// Every right that changes the file system, as far as the kernel's `abi` knows them.
    public static func writes(abi: Int) -> LandlockAccess {
        var all: LandlockAccess = [.writeFile, .removeDirectory, .removeFile, .makeCharacterDevice, .makeDirectory, .makeRegularFile,
                                   .makeSocket, .makeFIFO, .makeBlockDevice, .makeSymlink]
        if abi >= 2 { all.insert(.refer) }
        if abi >= 3 { all.insert(.truncate) }
        return all
    }

    /// The rights a rule on a file (not a folder) may give.
    public static let onFiles: LandlockAccess = [.execute, .writeFile, .readFile, .truncate]
}

/// What a Landlock domain may not reach outside itself (`LANDLOCK_SCOPE_*`, ABI 6, Linux 6.12).
public struct LandlockScope: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Connect to an abstract Unix socket made outside the domain.
    public static let abstractUnixSockets = LandlockScope(rawValue: 1 << 0)
    /// Signal a process outside the domain (the kiosk that started it, say).
    public static let signals = LandlockScope(rawValue: 1 << 1)

    /// Every scope the kernel's `abi` knows.
    public static func all(abi: Int) -> LandlockScope { abi >= 6 ? [.abstractUnixSockets, .signals] : [] }
}

/// Landlock, the kernel's unprivileged sandbox: a thread takes rights away from itself and from
/// every process it starts afterwards, for good. Each call goes through one thin function here.
public enum Landlock {
    /// The kernel's Landlock ABI version; nil where the kernel has none (older than 5.13, or not
    /// enabled in its `lsm=` list) or refuses it.
    public static var abi: Int? {
        let version = kiosk_landlock_abi()
        return version > 0 ? Int(version) : nil
    }

    /// A ruleset that handles `handled`: once applied, each of those rights is refused except
    /// beneath what a rule allows. Closed when the owner goes.
    public final class Ruleset {
        let descriptor: OwnedDescriptor
        public let handled: LandlockAccess

        /// `scoped`: what the domain may not reach outside itself; only what the kernel's ABI
        /// knows (`LandlockScope.all(abi:)`), or the kernel refuses the ruleset.
        public init(handling handled: LandlockAccess, scoped: LandlockScope = []) throws(SystemError) {
            self.handled = handled
            descriptor = OwnedDescriptor(taking: try retryingInterrupts("landlock_create_ruleset") {
                kiosk_landlock_create_ruleset(handled.rawValue, scoped.rawValue)
            })
        }

        /// Allows `access` (within `handled`; on a file, within `LandlockAccess.onFiles`) beneath
        /// `path`, which is opened without following a final symbolic link.
        public func allow(_ access: LandlockAccess, beneath path: String) throws(SystemError) {
            let fd = try retryingInterrupts("open \(path)") { open(path, kiosk_O_PATH | O_CLOEXEC | O_NOFOLLOW) }
            defer { close(fd) }
            try retryingInterrupts("landlock_add_rule \(path)") {
                kiosk_landlock_allow_beneath(descriptor.rawValue, fd, access.intersection(handled).rawValue)
            }
        }

        /// Applies the ruleset to the calling thread (and every process it starts from now on),
        /// after setting its no-new-privileges flag, which Landlock requires of an unprivileged thread.
        public func restrictCallingThread() throws(SystemError) {
            try retryingInterrupts("prctl PR_SET_NO_NEW_PRIVS") { kiosk_prctl(PR_SET_NO_NEW_PRIVS, 1) }
            try retryingInterrupts("landlock_restrict_self") { kiosk_landlock_restrict_self(descriptor.rawValue) }
        }
    }
}
