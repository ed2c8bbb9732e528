/// Where a Kiosk disk image device stands with its versions (packaging/image: two root slots, a
/// unified kernel image per version on the boot partition, counted by systemd-boot): the one
/// value the status file, the metrics and `kiosk status` carry. Nil on any other machine.
public struct ImageStatus: Equatable, Sendable {
    /// One version on the boot partition, newest first in `versions`.
    public struct Installed: Equatable, Sendable {
        public enum State: String, Sendable {
            /// Blessed by a good boot, or written by the build (never counted).
            case good
            /// Installed, with boots left to prove itself.
            case trial
            /// Every try failed: systemd-boot starts an older version instead.
            case failed
        }

        public var version: String
        public var state: State
        /// Boots left and boots tried; nil for a version that is not counted.
        public var triesLeft: Int?
        public var triesDone: Int?
        /// What its last boot check said (`/var/lib/kiosk-image/boot-check/VERSION`).
        public var check: String?

        public init(version: String, state: State, triesLeft: Int? = nil, triesDone: Int? = nil, check: String? = nil) {
            self.version = version
            self.state = state
            self.triesLeft = triesLeft
            self.triesDone = triesDone
            self.check = check
        }
    }

    /// A newer version that failed all its tries, so the device went back to the running one.
    public struct Rollback: Equatable, Sendable {
        public var from: String
        /// Its last boot check's words; nil when no check ran (it never got that far).
        public var reason: String?

        public init(from: String, reason: String?) {
            self.from = from
            self.reason = reason
        }
    }

    /// The running version (os-release's `IMAGE_VERSION`).
    public var version: String
    /// The root slot it runs from, "a" or "b"; nil when the disk does not say.
    public var slot: String?
    /// True while this boot is one of the running version's tries.
    public var trial: Bool
    public var versions: [Installed]
    public var rollback: Rollback?

    public init(version: String, slot: String?, trial: Bool, versions: [Installed], rollback: Rollback?) {
        self.version = version
        self.slot = slot
        self.trial = trial
        self.versions = versions
        self.rollback = rollback
    }
}
