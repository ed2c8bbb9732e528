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

    /// An update asked for or run on this boot (the image's `update` writes each step).
    public struct Update: Equatable, Sendable {
        public enum State: String, Sendable {
            /// Asked for; root's kiosk-update.service has not begun.
            case requested
            /// From a web server (`UpdateSource.isURL`): the signed list checked, the files being fetched.
            case downloading
            case checking, installing, verifying
            /// Written: it starts at the next boot (on trial).
            case installed
            /// Nothing newer than what is installed.
            case current
            /// Not installed, nothing written: bad signature, a file that does not match, too large...
            case refused
            /// Writing or reading back failed: the version cannot boot.
            case failed
        }

        public var state: State
        public var version: String?
        public var source: String?
        public var message: String?
        /// The step's percentage while downloading and installing (root's `update` writes it);
        /// nil for steps that do not count.
        public var progress: Int?

        public init(state: State, version: String? = nil, source: String? = nil, message: String? = nil, progress: Int? = nil) {
            self.state = state
            self.progress = progress
            self.version = version
            self.source = source
            self.message = message
        }

        /// Asked for or under way: another request is refused meanwhile.
        public var isRunning: Bool {
            switch state {
            case .requested, .downloading, .checking, .installing, .verifying: true
            case .installed, .current, .refused, .failed: false
            }
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
    public var update: Update?
    /// The newest version `[control] update_source` offers: a folder's SHA256SUMS names it
    /// (unverified until installed), a web server's signed list as root's `update
    /// --check-request` last fetched it; nil: none offered, or the source is not there.
    public var offered: String?

    /// Home Assistant's `update` entity state: the running version, the newest offered (or the
    /// running one when nothing newer is), the last step's words, whether one is under way and
    /// how far its step is (`update_percentage`, null when the step does not count).
    public var homeAssistantUpdate: String {
        let latest = offered.map { ImageVersion.isNewer($0, than: version) ? $0 : version } ?? version
        let summary = update.flatMap { u in u.message.map { "\(u.state.rawValue): \($0)" } ?? u.state.rawValue }
            ?? rollback.map { "\($0.from) rolled back" + ($0.reason.map { ": \($0)" } ?? "") }
        return StatusValue.object([("installed_version", .string(version)), ("latest_version", .string(latest)),
                                   ("title", .string("Kiosk image")), ("release_summary", summary.map { .string(String($0.prefix(255))) } ?? .null),
                                   ("in_progress", .bool(update?.isRunning == true)),
                                   ("update_percentage", update.flatMap { $0.isRunning ? $0.progress : nil }.map { .int($0) } ?? .null)]).json
    }

    public init(version: String, slot: String?, trial: Bool, versions: [Installed], rollback: Rollback?, update: Update? = nil,
                offered: String? = nil) {
        self.update = update
        self.offered = offered
        self.version = version
        self.slot = slot
        self.trial = trial
        self.versions = versions
        self.rollback = rollback
    }
}
