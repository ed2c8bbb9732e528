import Glibc
import KioskConfiguration
import KioskSystem

/// The kiosk's side of installing a disk image update. The kiosk may not write a disk, so it asks:
/// it writes a small request file into its own runtime folder, and root's kiosk-update.path starts
/// the image's `update --request`, which moves the file away, checks the signed folder it names
/// (or downloads one), installs, and writes each step where `ImageDisk` reads it. What is decided
/// here is whether to ask.
public final class ImageUpdateRequests {
    /// The panel counts as in use this long after its last input: an update, and the restart
    /// that may follow it, never starts under someone's hand unless forced.
    public static let idleBeforeUpdate = 60.0
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

    /// Asks root to install the update `source` offers (`UpdateSource`: a folder or a web
    /// server's URL); `idleFor`: seconds since the panel's last input.
    func request(source: String, reboot: Bool, force: Bool, idleFor: Double) throws(ControlError) {
        guard let image = image() else { throw .notAnImage }
        if let problem = UpdateSource.problem(source) { throw .badArgument(problem) }
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

    /// Asks root which version the web server `url` offers (the kiosk fetches nothing itself);
    /// the answer is read with the rest of the image (`ImageDisk.offeredVersion`). A failure is
    /// logged: the offer stays unknown until the next ask.
    func askWhatIsOffered(at url: String) {
        guard UpdateSource.isURL(url), UpdateSource.problem(url) == nil else { return }
        do {
            try writeFileAtomically(disk.offerCheckRequest, "source=\(url)\n")
        } catch {
            Log.warning("cannot ask which update \(url) offers (\(disk.offerCheckRequest)): \(error)")
        }
    }
}
