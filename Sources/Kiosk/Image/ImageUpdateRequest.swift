import Glibc
import KioskSystem

/// The kiosk's side of installing a disk image update. The kiosk may not write a disk, so it asks:
/// it writes a small request file into its own runtime folder, and root's kiosk-update.path starts
/// the image's `update --request`, which moves the file away, checks the signed folder it names,
/// installs, and writes each step where `ImageDisk` reads it. What is decided here is whether to ask.
public final class ImageUpdateRequests {
    /// The panel counts as in use this long after its last input: an update, and the restart
    /// that may follow it, never starts under someone's hand unless forced.
    public static let idleBeforeUpdate = 60.0
    /// Longest folder path taken.
    static let maximumSourceBytes = 1024

    private let disk: ImageDisk
    /// The image as last read (nil: not a Kiosk image).
    private let image: () -> ImageStatus?
    /// True while a program the menu started has the display (`exec`): someone is using it.
    var displayHandedOver: () -> Bool = { false }
    /// A request was written: the image is read again at the next pass.
    var requested: (() -> Void)?

    init(disk: ImageDisk, image: @escaping () -> ImageStatus?) {
        self.disk = disk
        self.image = image
    }

    var status: ImageStatus? { image() }

    /// Asks root to install the update in the folder `source`; `idleFor`: seconds since the
    /// panel's last input.
    func request(source: String, reboot: Bool, force: Bool, idleFor: Double) throws(ControlError) {
        guard let image = image() else { throw .notAnImage }
        guard source.utf8.count <= Self.maximumSourceBytes else {
            throw .badArgument("the source has \(source.utf8.count) bytes; at most \(Self.maximumSourceBytes)")
        }
        guard source.hasPrefix("/"), !source.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 || $0 == 127 } == true }) else {
            throw .badArgument("the source must be a folder's absolute path (/media/usb/update), one line")
        }
        if let update = image.update, update.isRunning {
            throw .updateRunning("an update is already \(update.state.rawValue)" + (update.version.map { " (\($0))" } ?? ""))
        }
        if image.trial { throw .updateRunning("this boot of \(image.version) is still on trial: update once it is called good") }
        if !force {
            if displayHandedOver() { throw .inUse("a program the menu started has the display") }
            if idleFor < Self.idleBeforeUpdate {
                throw .inUse("the panel was used (or the kiosk started) \(Int(idleFor)) s ago; an update waits for \(Int(Self.idleBeforeUpdate)) s without input")
            }
        }
        // Written whole, then renamed: root never reads half a request.
        do {
            try writeFileAtomically(disk.updateRequest, "source=\(source)\nreboot=\(reboot ? "yes" : "no")\n")
        } catch {
            throw .requestFailed("cannot write the request \(disk.updateRequest): \(error)")
        }
        Log.notice("update from \(source) asked for" + (reboot ? ", restarting once installed" : ""))
        requested?()
    }
}
