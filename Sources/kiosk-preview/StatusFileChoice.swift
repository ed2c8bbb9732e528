import Glibc

/// Where the preview writes the status file. The config's `status_file` (a device path such as
/// /run/kiosk/status.json) is kept when its folder can be written; otherwise the status goes to
/// the user's runtime folder, so a preview on a desktop still writes one.
struct StatusFileChoice: CustomStringConvertible {
    /// The path to use instead of the config's; nil: the config's.
    let override: String?
    private let shown: String

    init(requested: String?, configured: String) {
        if let requested {
            override = requested
        } else if configured.isEmpty || Self.folderIsWritable(of: configured) {
            override = nil
        } else {
            override = Self.desktopPath()
        }
        shown = override ?? configured
    }

    var description: String { shown.isEmpty ? "status file: none (status_file is empty)" : "status file: \(shown)" }

    private static func folderIsWritable(of path: String) -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return access(".", W_OK) == 0 }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        // A folder that does not exist yet is made by the status writer if its parent allows it.
        if access(folder, F_OK) != 0 { return folderIsWritable(of: folder) }
        return access(folder, W_OK) == 0
    }

    /// $XDG_RUNTIME_DIR/kiosk-preview/status.json, else /tmp/kiosk-preview-UID/status.json.
    private static func desktopPath() -> String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty, access(runtime, W_OK) == 0 {
            return "\(runtime)/kiosk-preview/status.json"
        }
        return "/tmp/kiosk-preview-\(getuid())/status.json"
    }
}
