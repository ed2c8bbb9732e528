/// Reads the image's state again now and then: the boot partition changes under a running kiosk
/// (a new version blessed a few seconds after its first frame, an update installed) with no
/// event to wait for, and reading it is a folder listing and a few small files.
final class ImageWatch {
    static let interval = 15.0
    /// While an update is asked for or under way: its steps are followed closely.
    static let updateInterval = 1.0
    /// Nil when this is not a Kiosk image (the first read said so): nothing more is read.
    private var disk: ImageDisk?
    private(set) var status: ImageStatus?
    private var readAt: Double?

    init(disk: ImageDisk?) { self.disk = disk }

    /// The folder updates are offered in (`[control] update_source`), read with the rest.
    private var offer: String?

    /// Reads again when due (or at once when the offered folder changed); true when the status changed.
    func advance(now: Double, offer: String? = nil) -> Bool {
        if offer != self.offer {
            self.offer = offer
            readAt = nil
        }
        guard let disk, readAt.map({ now - $0 >= currentInterval }) ?? true else { return false }
        readAt = now
        let next = disk.read(offer: offer)
        if next == nil, status == nil { self.disk = nil }
        guard next != status else { return false }
        status = next
        return true
    }

    var nextDeadline: Double? { disk == nil ? nil : readAt.map { $0 + currentInterval } }

    private var currentInterval: Double { status?.update?.isRunning == true ? Self.updateInterval : Self.interval }

    /// Reads at the next pass (an update was just asked for).
    func readSoon() { readAt = nil }
}
