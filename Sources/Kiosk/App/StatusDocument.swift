import Glibc

/// The status file: what the kiosk shows and did, for a fleet's monitoring. Written whole to a
/// temporary file and renamed over the old one, so a reader never sees half of it.
public struct StatusDocument: Sendable {
    public var fields: [(String, StatusValue)]

    public var json: String { StatusValue.object(fields).json + "\n" }

    public func write(to path: String) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        if let slash, slash != path.startIndex {
            let dir = String(path[..<slash])
            if mkdir(dir, 0o755) != 0, errno != EEXIST { throw .last("mkdir \(dir)") }
        }
        try writeFileAtomically(path, json)
    }
}
