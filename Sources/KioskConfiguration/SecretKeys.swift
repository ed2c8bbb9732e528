/// Config keys whose values are secrets: a syntax error on their line is told without the text,
/// which would otherwise reach the banner on the public screen, the status file and the log.
enum SecretKeys {
    /// A PIN hash is brute-forced offline in moments (a PIN has 4 to 8 digits).
    static let names: Set<String> = ["pin_hash"]

    /// The secret key assigned on 1-based `line` of `text` (`pin_hash = …`, also dotted or quoted:
    /// `screens.service."pin_hash" = …`), if any.
    static func key(onLine line: Int, of text: String) -> String? {
        guard line >= 1 else { return nil }
        let rows = text.split(separator: "\n", maxSplits: line, omittingEmptySubsequences: false)
        guard rows.count >= line, let equals = rows[line - 1].firstIndex(of: "=") else { return nil }
        let last = rows[line - 1][..<equals].split(separator: ".").last ?? ""
        let name = last.trimmingCharacters(in: " \t\"'")
        return names.contains(name) ? name : nil
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}
