import Glibc
import KioskSystem

/// The status file at the config's `status_file`: written whole to a temporary file and renamed
/// over the old one (a reader never sees half of it; a missing folder is made: `PublishedFile`),
/// and only when the status differs from the one last written there. The one writer of the file.
final class StatusFile {
    let path: String
    private var written: KioskStatus?

    init(path: String) { self.path = path }

    /// Writes `status` if it changed since the last write here.
    func update(_ status: KioskStatus) {
        guard status != written, !path.isEmpty else { return }
        do {
            try PublishedFile(path: path).write(status.json)
            written = status
        } catch {
            Log.debug("status file \(path): \(error)")
        }
    }
}
