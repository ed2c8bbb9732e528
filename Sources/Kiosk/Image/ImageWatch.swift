/// Reads the image's state again now and then: the boot partition changes under a running kiosk
/// (a new version blessed a few seconds after its first frame, an update installed) with no
/// event to wait for, and reading it is a folder listing and a few small files.
final class ImageWatch {
    static let interval = 15.0
    /// Nil when this is not a Kiosk image (the first read said so): nothing more is read.
    private var disk: ImageDisk?
    private(set) var status: ImageStatus?
    private var readAt: Double?

    init(disk: ImageDisk?) { self.disk = disk }

    /// Reads again when due; true when the status changed.
    func advance(now: Double) -> Bool {
        guard let disk, readAt.map({ now - $0 >= Self.interval }) ?? true else { return false }
        readAt = now
        let next = disk.read()
        if next == nil, status == nil { self.disk = nil }
        guard next != status else { return false }
        status = next
        return true
    }

    var nextDeadline: Double? { disk == nil ? nil : readAt.map { $0 + Self.interval } }
}
