import Glibc

/// The status file at the config's `status_file`: written whole to a temporary file and renamed
/// over the old one (a reader never sees half of it), and only when the status differs from the
/// one last written there. The one writer of the file.
final class StatusFile {
    let path: String
    private var written: KioskStatus?

    init(path: String) { self.path = path }

    /// Writes `status` if it changed since the last write here.
    func update(_ status: KioskStatus) {
        guard status != written, !path.isEmpty else { return }
        do {
            let slash = path.lastIndex(of: "/")
            if let slash, slash != path.startIndex {
                let dir = String(path[..<slash])
                if mkdir(dir, 0o755) != 0, errno != EEXIST { throw SystemError.last("mkdir \(dir)") }
            }
            try writeFileAtomically(path, status.json)
            written = status
        } catch {
            Log.debug("status file \(path): \(error)")
        }
    }
}
