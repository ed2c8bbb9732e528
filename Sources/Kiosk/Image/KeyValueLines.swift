/// The `KEY=VALUE` line files a disk image device is told about by: os-release, and root's
/// update steps and offer check (`/run/kiosk-image`), written by the image's `update`.
enum KeyValueLines {
    /// Values unquoted ("..." or '...'); comments and other lines skipped; a key's last line wins.
    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            var value = line[line.index(after: eq)...]
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                value = value.dropFirst().dropLast()
            }
            fields[String(line[..<eq])] = String(value)
        }
        return fields
    }

    /// An empty value (`version=` before a version is known) is none.
    static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
