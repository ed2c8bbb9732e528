import Glibc

/// Finds an icon by name as the freedesktop Icon Theme Specification says: in the theme the
/// config names (`theme.icon_theme`, "Adwaita" unless set), then the themes it inherits
/// (`Inherits=` in its index.theme, depth first), then "hicolor", then the pixmaps folder; in each
/// theme's base directories ($HOME/.icons, each $XDG_DATA_DIRS/icons, /usr/share/pixmaps) and each
/// of the theme's `Directories`. The kiosk draws an icon at whatever size its rows have, so it
/// takes the theme's scalable (SVG) one first and otherwise the largest PNG. A name with no icon
/// is retried as "NAME-symbolic" (Debian 13's Adwaita ships most actions only as symbolic icons).
/// Reading index.theme files is all it does; it is made per config load, off the event loop.
struct IconTheme {
    /// The folders themes live in, most important first.
    let baseDirectories: [String]
    /// Parsed index.theme files by theme name (nil: the theme is not installed).
    private var indexes: [String: ThemeIndex?] = [:]

    /// The spec's base directories from the environment.
    static func standardBaseDirectories() -> [String] {
        var dirs: [String] = []
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { dirs.append(home + "/.icons") }
        let data = getenv("XDG_DATA_DIRS").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dirs += data.split(separator: ":").map { String($0) + "/icons" }
        dirs.append("/usr/share/pixmaps")
        return dirs
    }

    init(baseDirectories: [String] = IconTheme.standardBaseDirectories()) {
        self.baseDirectories = baseDirectories
    }

    /// True when `icon` (as written in the config) is an icon name, not a file: no "/" and no
    /// ".png"/".svg" ending.
    static func isName(_ icon: String) -> Bool {
        let lower = icon.lowercased()
        return !icon.isEmpty && !icon.contains("/") && !lower.hasSuffix(".png") && !lower.hasSuffix(".svg")
    }

    /// The file for `name` in `theme` or what it falls back to, or nil.
    mutating func find(_ name: String, theme: String) -> String? {
        guard Self.isName(name) else { return nil }
        for candidate in [name, name + "-symbolic"] {
            if let found = findExact(candidate, theme: theme) { return found }
        }
        return nil
    }

    /// The themes searched, in order: `theme`, what it inherits, hicolor.
    mutating func chain(_ theme: String) -> [String] {
        var order: [String] = []
        func visit(_ name: String) {
            guard !order.contains(name), order.count < 32 else { return }
            order.append(name)
            for parent in index(name)?.inherits ?? [] { visit(parent) }
        }
        visit(theme)
        if !order.contains("hicolor") { order.append("hicolor") }
        return order.filter { index($0) != nil }
    }

    private mutating func findExact(_ name: String, theme: String) -> String? {
        for themeName in chain(theme) {
            guard let index = index(themeName) else { continue }
            for dir in index.directoriesBySize {
                for base in baseDirectories {
                    for ext in dir.scalable ? ["svg", "png"] : ["png", "svg"] {
                        let path = "\(base)/\(themeName)/\(dir.path)/\(name).\(ext)"
                        if Self.isFile(path) { return path }
                    }
                }
            }
        }
        for base in baseDirectories where base.hasSuffix("/pixmaps") {
            for ext in ["svg", "png"] where Self.isFile("\(base)/\(name).\(ext)") { return "\(base)/\(name).\(ext)" }
        }
        return nil
    }

    private mutating func index(_ theme: String) -> ThemeIndex? {
        if let cached = indexes[theme] { return cached }
        var found: ThemeIndex?
        for base in baseDirectories {
            if let text = Self.readSmallFile("\(base)/\(theme)/index.theme") {
                found = ThemeIndex(parsing: text)
                break
            }
        }
        indexes[theme] = .some(found)
        return found
    }

    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// An index.theme's text; nil when missing or over 1 MiB (Adwaita's is 30 KB).
    private static func readSmallFile(_ path: String) -> String? {
        guard let bytes = try? ConfigFileReader.readBytes(path: path, maximumSize: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What the kiosk reads of one index.theme: the inherited themes and the icon directories with
/// their size and type.
struct ThemeIndex {
    struct Directory {
        var path: String
        var size: Int
        var scalable: Bool
    }

    var inherits: [String] = []
    /// Scalable directories first, then fixed ones from the largest size down.
    var directoriesBySize: [Directory] = []

    init(parsing text: String) {
        var sections: [String: [String: String]] = [:]
        var current = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingPrefix(while: \.isWhitespace)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast())
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<eq]).trimmingSuffix(), value = String(line[line.index(after: eq)...]).trimmingSuffix()
            sections[current, default: [:]][key] = value
        }
        let head = sections["Icon Theme"] ?? [:]
        inherits = Self.list(head["Inherits"])
        let names = Self.list(head["Directories"]) + Self.list(head["ScaledDirectories"])
        var dirs: [Directory] = []
        for name in names where !dirs.contains(where: { $0.path == name }) {
            let entry = sections[name] ?? [:]
            let size = Int(entry["Size"] ?? "") ?? 0
            let scale = Int(entry["Scale"] ?? "") ?? 1
            dirs.append(Directory(path: name, size: size * scale, scalable: entry["Type"] == "Scalable"))
        }
        directoriesBySize = dirs.filter(\.scalable) + dirs.filter { !$0.scalable }.sorted { $0.size > $1.size }
    }

    private static func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { String($0).trimmingSuffix() }.filter { !$0.isEmpty }
    }
}

private extension String {
    func trimmingSuffix() -> String {
        var s = Substring(self).trimmingPrefix(while: \.isWhitespace)
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
