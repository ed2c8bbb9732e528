import KioskConfiguration

/// Reads the image's state again now and then: the boot partition changes under a running kiosk
/// (a new version blessed a few seconds after its first frame, an update installed) with no
/// event to wait for, and reading it is a folder listing and a few small files.
final class ImageWatch {
    static let interval = 15.0
    /// While an update is asked for or under way: its steps are followed closely.
    static let updateInterval = 1.0
    /// How often root is asked again which version a web server offers (and at once when the
    /// config names another one).
    static let offerCheckInterval = 3600.0
    /// Nil when this is not a Kiosk image (the first read said so): nothing more is read.
    private var disk: ImageDisk?
    private(set) var status: ImageStatus?
    private var readAt: Double?

    init(disk: ImageDisk?) { self.disk = disk }

    /// Where updates are offered (`[control] update_source`), read with the rest.
    private var offer: String?
    /// When root was last asked what the web server `offer` holds.
    private var offerAskedAt: Double?
    /// Asks root which version a web server offers (`ImageUpdateRequests.askWhatIsOffered`).
    var askWhatIsOffered: ((String) -> Void)?

    /// Reads again when due (or at once when the offer changed); true when the status changed.
    func advance(now: Double, offer: String? = nil) -> Bool {
        if offer != self.offer {
            self.offer = offer
            readAt = nil
            offerAskedAt = nil
        }
        guard let disk else { return false }
        var changed = false
        if readAt.map({ now - $0 >= currentInterval }) ?? true {
            readAt = now
            let next = disk.read(offer: offer)
            if next == nil, status == nil {
                self.disk = nil
                return false
            }
            changed = next != status
            status = next
        }
        // Root's answer is read with the rest, at a later read.
        if status != nil, let offer, UpdateSource.isURL(offer), offerAskedAt.map({ now - $0 >= Self.offerCheckInterval }) ?? true {
            offerAskedAt = now
            askWhatIsOffered?(offer)
        }
        return changed
    }

    var nextDeadline: Double? {
        guard disk != nil else { return nil }
        let ask = offer.flatMap { UpdateSource.isURL($0) ? offerAskedAt.map { $0 + Self.offerCheckInterval } : nil }
        return [readAt.map { $0 + currentInterval }, ask].compactMap { $0 }.min()
    }

    private var currentInterval: Double { status?.update?.isRunning == true ? Self.updateInterval : Self.interval }

    /// Reads at the next pass (an update was just asked for).
    func readSoon() { readAt = nil }
}
