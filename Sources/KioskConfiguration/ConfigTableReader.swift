import TOML

/// Collects the problems found while decoding one file, each placed at the position of the value
/// it is about (or, for a missing key, at the line of the table that lacks it).
final class DecodingProblems {
    let file: String
    let locator: SourceLocator
    private(set) var problems: [ConfigProblem] = []

    init(file: String, locator: SourceLocator) {
        self.file = file
        self.locator = locator
    }

    func add(_ severity: ConfigProblem.Severity = .error, at path: ConfigKeyPath, _ message: String) {
        problems.append(ConfigProblem(severity, file: file, at: locator.location(of: path), message))
    }

    /// A problem about a key itself (an unknown key), placed at the key rather than its value.
    func add(at path: ConfigKeyPath, key position: TOMLPosition, _ message: String) {
        problems.append(ConfigProblem(.error, file: file, at: ConfigLocation(line: position.line, column: position.column, keyPath: path), message))
    }
}

/// Reads one TOML table key by key, checking types and remembering which keys were asked for, so
/// that `finish()` can report the rest as unknown (a typo must not be silently ignored).
/// Every accessor returns nil both for an absent key and for a wrong value; the latter is recorded.
final class ConfigTableReader {
    let source: TOMLTable
    let path: ConfigKeyPath
    let problems: DecodingProblems
    private var known: [String] = []

    init(_ table: TOMLTable, path: ConfigKeyPath, problems: DecodingProblems) {
        self.source = table
        self.path = path
        self.problems = problems
    }

    /// The raw value, marking the key as known.
    func value(_ key: String) -> TOMLValue? {
        if !known.contains(key) { known.append(key) }
        return source[key]
    }

    func has(_ key: String) -> Bool { source[key] != nil }

    func fail(_ key: String, _ message: String) { problems.add(at: path.appending(key), message) }

    /// Refuses `key`, which the kiosk does not support, saying why, rather than letting it pass
    /// unused or calling it unknown.
    func refuse(_ key: String, because reason: String) {
        guard value(key) != nil else { return }
        fail(key, "not supported; \(reason) — remove the key")
    }

    private func expect(_ key: String, _ expected: String, got value: TOMLValue) {
        fail(key, "expected \(expected), got \(value.kindDescription)")
    }

    func string(_ key: String) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { expect(key, "a string", got: v); return nil }
        return s
    }

    func bool(_ key: String) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.bool else { expect(key, "true or false", got: v); return nil }
        return b
    }

    func int(_ key: String) -> Int? {
        guard let v = value(key) else { return nil }
        if let i = v.integer { return Int(i) }
        if let d = v.float, d.isFinite, d == d.rounded(), Swift.abs(d) < 1e15 {
            fail(key, "expected an integer, got a float (write \(Int(d)) without the decimal point)")
        } else {
            expect(key, "an integer", got: v)
        }
        return nil
    }

    /// A float; integers are accepted too (`radius = 1`). NaN and infinities are refused.
    func double(_ key: String) -> Double? {
        guard let v = value(key) else { return nil }
        let number: Double
        if let d = v.float { number = d } else if let i = v.integer { number = Double(i) } else {
            expect(key, "a number", got: v)
            return nil
        }
        guard number.isFinite else { fail(key, "expected a finite number, got \(number)"); return nil }
        return number
    }

    func table(_ key: String) -> ConfigTableReader? {
        guard let v = value(key) else { return nil }
        guard let t = v.table else { expect(key, "a table", got: v); return nil }
        return ConfigTableReader(t, path: path.appending(key), problems: problems)
    }

    /// Array elements with their key paths.
    func array(_ key: String) -> [(value: TOMLValue, path: ConfigKeyPath)]? {
        guard let v = value(key) else { return nil }
        guard let a = v.array else { expect(key, "an array", got: v); return nil }
        let base = path.appending(key)
        return a.indices.map { (a[$0], base.appending(index: $0)) }
    }

    func stringArray(_ key: String, hint: String? = nil) -> [String]? {
        guard let v = value(key) else { return nil }
        guard let a = v.array else {
            fail(key, "expected an array of strings, got \(v.kindDescription)" + (hint.map { "; \($0)" } ?? ""))
            return nil
        }
        var out: [String] = []
        for (i, element) in a.enumerated() {
            guard let s = element.string else {
                problems.add(at: path.appending(key).appending(index: i), "expected a string, got \(element.kindDescription)")
                return nil
            }
            out.append(s)
        }
        return out
    }

    func doubleArray(_ key: String) -> [Double]? {
        guard let items = array(key) else { return nil }
        var out: [Double] = []
        for (element, elementPath) in items {
            if let d = element.float, d.isFinite { out.append(d) } else if let i = element.integer { out.append(Double(i)) } else {
                problems.add(at: elementPath, "expected a finite number, got \(element.kindDescription)")
                return nil
            }
        }
        return out
    }

    /// Tables of an array of tables (`[[screens.main.items]]`), with their readers.
    func tables(_ key: String) -> [ConfigTableReader]? {
        guard let items = array(key) else { return nil }
        var out: [ConfigTableReader] = []
        for (element, elementPath) in items {
            guard let t = element.table else {
                problems.add(at: elementPath, "expected a table, got \(element.kindDescription)")
                continue
            }
            out.append(ConfigTableReader(t, path: elementPath, problems: problems))
        }
        return out
    }

    /// A string that must be one of `choices`.
    func choice(_ key: String, _ choices: [String]) -> String? {
        guard let s = string(key) else { return nil }
        guard choices.contains(s) else {
            fail(key, "expected one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(s)\""
                + didYouMean(s, among: choices))
            return nil
        }
        return s
    }

    /// Reports every key no accessor asked for, at the key.
    func finish() {
        for entry in source.entries.sorted(by: { $0.key < $1.key }) where !known.contains(entry.key) {
            let suggestion = didYouMean(entry.key, among: known)
            let listing = suggestion.isEmpty && !known.isEmpty ? " (known here: \(known.joined(separator: ", ")))" : ""
            problems.add(at: path.appending(entry.key), key: entry.keyPosition, "unknown key" + suggestion + listing)
        }
    }
}

/// ` (did you mean "x"?)` for the closest candidate within a small edit distance, else nothing.
func didYouMean(_ word: String, among candidates: [String]) -> String {
    let limit = max(1, min(3, word.count / 3))
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(word.lowercased(), c.lowercased(), limit: limit)
        if d <= limit, d < (best?.1 ?? .max) { best = (c, d) }
    }
    return best.map { " (did you mean \"\($0.0)\"?)" } ?? ""
}

/// Edit distance counting a swap of neighbours as one edit (optimal string alignment), since
/// `mian` for `main` is the typical typo; gives up (returning `limit + 1`) once it must exceed `limit`.
func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    if Swift.abs(x.count - y.count) > limit { return limit + 1 }
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var beforePrevious = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        current[0] = i
        var rowMin = i
        for j in 1...y.count {
            var d = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = Swift.min(d, beforePrevious[j - 2] + 1) }
            current[j] = d
            rowMin = Swift.min(rowMin, d)
        }
        if rowMin > limit { return limit + 1 }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[y.count]
}

extension TOMLValue {
    /// `a string ("/bin/sh -c x")`, `an integer (3)`, `a table`: for "expected X, got Y" messages.
    var kindDescription: String {
        switch content {
        case .string(let s): return "a string (\(TOMLSyntax.quoted(String(s.prefix(60)))))"
        case .integer(let i): return "an integer (\(i))"
        case .float(let d): return "a float (\(d))"
        case .boolean(let b): return "a boolean (\(b))"
        case .dateTime(let d): return "\(d.kindName) (\(d))"
        case .table, .array: return kindName
        }
    }
}
