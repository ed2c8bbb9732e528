import TOML

/// Places a key path in the parsed document, so that problems found after parsing (wrong types,
/// out-of-range values, missing files) say `kiosk.toml:42:13:` as well as
/// `screens.main.items[3].command:`. Every TOML value carries its position, so this is a walk down
/// the tree, not a re-reading of the text.
struct SourceLocator: Sendable {
    let root: TOMLTable

    /// The value's line and column when `path` names a value in the file; otherwise (a missing
    /// key) the line of the nearest enclosing value that is there, or nothing.
    func location(of path: ConfigKeyPath) -> ConfigLocation {
        let (position, exact) = position(of: path)
        guard let position else { return ConfigLocation(keyPath: path) }
        return ConfigLocation(line: position.line, column: exact ? position.column : nil, keyPath: path)
    }

    /// The position of `path`'s value, or of the deepest enclosing value found, and whether it is
    /// the value itself.
    func position(of path: ConfigKeyPath) -> (TOMLPosition?, exact: Bool) {
        var found: TOMLPosition?
        var value: TOMLValue?
        for component in path.components {
            let next: TOMLValue?
            switch component {
            case .key(let key): next = value == nil ? root[key] : value?.table?[key]
            case .index(let i): next = value?.array.flatMap { $0.indices.contains(i) ? $0[i] : nil }
            }
            guard let next else { return (found, false) }
            value = next
            found = next.position
        }
        return (found, found != nil)
    }

    /// The line of `path`, or of its nearest enclosing value.
    func line(of path: ConfigKeyPath) -> Int? { position(of: path).0?.line }
}
