import Glibc

/// A file the kiosk rewrites whole for others to read (the status file, the metrics file): the
/// one place that makes such a file's folder. A missing folder (say /run/kiosk, which is gone
/// after every boot) is made, one level deep, at the first write that needs it; each text
/// replaces the file atomically (`writeFileAtomically`).
public struct PublishedFile: Sendable, Equatable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The folder to make when it is missing; nil for a bare name or a file at the root.
    var folder: String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    public func write(_ text: String) throws(SystemError) {
        do {
            try writeFileAtomically(path, text)
        } catch where error.errno == ENOENT {
            guard let folder else { throw error }
            do {
                try retryingInterrupts("mkdir \(folder)") { mkdir(folder, 0o755) }
            } catch where error.errno == EEXIST {
                // Made meanwhile by someone else: the same as made here.
            }
            try writeFileAtomically(path, text)
        }
    }
}
