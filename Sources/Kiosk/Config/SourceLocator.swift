/// Finds the line where a key path is written, so that decoding errors can say `kiosk.toml:42:`
/// as well as `screens.main.items[3].command:`. TOMLKit gives positions only for syntax errors,
/// so this re-reads the (already parsed, hence valid) text: table headers, arrays of tables and
/// `key = ` lines, including dotted and quoted keys. Keys inside inline tables and multi-line
/// arrays are not indexed; they map to the line of the enclosing key.
struct SourceLocator {
    private var lines: [ConfigKeyPath: Int] = [:]
    /// Each screen's name in order of first mention, for keeping the file's screen order.
    private(set) var firstMention: [String: Int] = [:]

    init(text: String) {
        var current: [ConfigKeyPath.Component] = []
        var arrayCounts: [ConfigKeyPath: Int] = [:]
        var inMultilineString: String?
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Substring(rawLine)
            if let delimiter = inMultilineString {
                if line.occurrences(of: delimiter) % 2 == 1 { inMultilineString = nil }
                continue
            }
            var scanner = KeyScanner(line)
            scanner.skipSpaces()
            if scanner.consume("[") {
                let isArray = scanner.consume("[")
                guard let keys = scanner.dottedKey() else { continue }
                // Resolve every prefix that names an array of tables to its latest element.
                var path: [ConfigKeyPath.Component] = []
                for (i, key) in keys.enumerated() {
                    path.append(.key(key))
                    let prefix = ConfigKeyPath(path)
                    if isArray && i == keys.count - 1 {
                        let n = arrayCounts[prefix, default: 0]
                        arrayCounts[prefix] = n + 1
                        path.append(.index(n))
                    } else if let n = arrayCounts[prefix] {
                        path.append(.index(n - 1))
                    }
                }
                current = path
                record(ConfigKeyPath(path), line: lineNumber)
                if isArray { record(ConfigKeyPath(path.dropLast()), line: lineNumber) }
            } else if let keys = scanner.dottedKey(), scanner.consume("=") {
                let path = ConfigKeyPath(current + keys.map { .key($0) })
                record(path, line: lineNumber)
                let rest = scanner.rest
                for delimiter in ["\"\"\"", "'''"] where rest.occurrences(of: delimiter) % 2 == 1 {
                    inMultilineString = delimiter
                }
            }
        }
    }

    private mutating func record(_ path: ConfigKeyPath, line: Int) {
        if lines[path] == nil { lines[path] = line }
        if path.components.count >= 2, path.components[0] == .key("screens"), case .key(let name) = path.components[1],
           firstMention[name] == nil {
            firstMention[name] = line
        }
    }

    /// The line of `path`, or of its nearest enclosing key that was found.
    func line(of path: ConfigKeyPath) -> Int? {
        var p = path.components[...]
        while !p.isEmpty {
            if let line = lines[ConfigKeyPath(Array(p))] { return line }
            p = p.dropLast()
        }
        return nil
    }
}

/// A cursor over one line for TOML keys: bare, "basic" (with simple escapes) and 'literal'.
private struct KeyScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ line: Substring) { scalars = Array(line.unicodeScalars) }

    var rest: String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[index...])
        return String(s)
    }

    mutating func skipSpaces() {
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
    }

    mutating func consume(_ c: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard index < scalars.count, scalars[index] == c else { return false }
        index += 1
        return true
    }

    mutating func dottedKey() -> [String]? {
        var keys: [String] = []
        repeat {
            skipSpaces()
            guard let key = simpleKey() else { return nil }
            keys.append(key)
        } while consume(".")
        return keys
    }

    private mutating func simpleKey() -> String? {
        guard index < scalars.count else { return nil }
        let q = scalars[index]
        if q == "\"" || q == "'" {
            index += 1
            var key = String.UnicodeScalarView()
            while index < scalars.count, scalars[index] != q {
                if q == "\"", scalars[index] == "\\", index + 1 < scalars.count {
                    index += 1
                    switch scalars[index] {
                    case "n": key.append("\n")
                    case "t": key.append("\t")
                    default: key.append(scalars[index])
                    }
                } else {
                    key.append(scalars[index])
                }
                index += 1
            }
            guard index < scalars.count else { return nil }
            index += 1
            return String(key)
        }
        var key = String.UnicodeScalarView()
        while index < scalars.count, ConfigKeyPath.isBare(String(scalars[index])) {
            key.append(scalars[index])
            index += 1
        }
        return key.isEmpty ? nil : String(key)
    }
}

extension StringProtocol {
    func occurrences(of needle: String) -> Int { ranges(of: needle).count }
}
