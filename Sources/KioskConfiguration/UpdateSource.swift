/// Where a disk image update is taken from: a folder's absolute path (a USB stick, a copy pushed
/// over SSH) or the http(s) URL of such a folder on a web server. One rule for the config's
/// `update_source` and every request (`kiosk ctl update`, D-Bus, MQTT), which root's `update`
/// checks again before it reads anything.
public enum UpdateSource {
    /// Longest source taken, in bytes.
    public static let maximumBytes = 1024

    /// True for a web folder's URL (fetched by root, not read by the kiosk).
    public static func isURL(_ source: String) -> Bool {
        for scheme in ["http://", "https://"] where source.hasPrefix(scheme) {
            return source.utf8.count > scheme.utf8.count
        }
        return false
    }

    /// Why `source` is not taken; nil when it is.
    public static func problem(_ source: String) -> String? {
        if source.utf8.count > maximumBytes { return "the source has \(source.utf8.count) bytes; at most \(maximumBytes)" }
        // One line: root reads the request's `source=` line.
        if source.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 || $0.properties.isWhitespace && $0 != " " }) {
            return "the source has control characters or line breaks: one folder path or URL"
        }
        if isURL(source) {
            return source.contains(" ") ? "a URL has no spaces (write them %20)" : nil
        }
        guard source.hasPrefix("/") else {
            return "expected a folder's absolute path (\"/media/usb/kiosk-update\") or an http(s):// URL (\"https://updates.example.com/kiosk\")"
        }
        return nil
    }
}
