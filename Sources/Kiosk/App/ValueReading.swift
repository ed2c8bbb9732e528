import KioskConfiguration

/// What a command printed or a file held, made into the text a label shows: the first line,
/// trimmed, as a number when the source has a `format` or `scale`, bounded in length. Bytes that
/// are not text are refused, never drawn.
enum ValueReading {
    /// Characters of a value kept (a label is fitted or shortened when drawn anyway).
    static let maxCharacters = 120

    /// The shown text, or why there is none.
    static func parse(_ bytes: some Collection<UInt8>, for source: ValueSource) -> Result<String, ReadingProblem> {
        let raw: String
        switch firstLine(bytes) {
        case .success(let line): raw = line
        case .failure(let p): return .failure(p)
        }
        var text = raw
        if source.format != nil || source.scale != nil {
            guard var number = Double(raw), number.isFinite else { return .failure(.notANumber(bounded(raw, 40))) }
            if let scale = source.scale { number *= scale }
            text = source.format?.format(number) ?? shortest(number)
        }
        if let unit = source.unit, !unit.isEmpty { text += " " + unit }
        return .success(bounded(text, maxCharacters))
    }

    /// A toggle's state from a file: on, off, or why neither.
    static func toggleState(_ bytes: some Collection<UInt8>) -> Result<Bool, ReadingProblem> {
        switch firstLine(bytes) {
        case .failure(let p): return .failure(p)
        case .success(let line):
            switch line.lowercased() {
            case "1", "on", "true", "yes": return .success(true)
            case "0", "off", "false", "no": return .success(false)
            default: return .failure(.notAState(bounded(line, 40)))
            }
        }
    }

    /// A state command's exit status: 0 on, 1 off.
    static func toggleState(exitStatus: Int32) -> Result<Bool, ReadingProblem> {
        switch exitStatus {
        case 0: return .success(true)
        case 1: return .success(false)
        default: return .failure(.badExitStatus(exitStatus))
        }
    }

    private static func firstLine(_ bytes: some Collection<UInt8>) -> Result<String, ReadingProblem> {
        // A NUL or a control character other than whitespace: binary data, not a reading.
        if bytes.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0a && $0 != 0x0d || $0 == 0x7f }) { return .failure(.binary) }
        let line = bytes.split(separator: 0x0a, maxSplits: 1, omittingEmptySubsequences: false).first ?? Array(bytes)[...]
        guard let text = String(validating: Array(line), as: UTF8.self) else { return .failure(.binary) }
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return .failure(.empty) }
        return .success(trimmed)
    }

    static func bounded(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A number without a format: as Swift writes it, without a trailing `.0`.
    private static func shortest(_ number: Double) -> String {
        let text = "\(number)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

/// Why a reading gave no value: said in the status file and logged once.
enum ReadingProblem: Error, Equatable, CustomStringConvertible {
    case binary
    case empty
    case notANumber(String)
    case notAState(String)
    case badExitStatus(Int32)

    var description: String {
        switch self {
        case .binary: return "not text (binary data)"
        case .empty: return "empty"
        case .notANumber(let t): return "not a number: \"\(t)\""
        case .notAState(let t): return "neither on (1, on, true, yes) nor off (0, off, false, no): \"\(t)\""
        case .badExitStatus(let s): return "state command exited with status \(s) (0 means on, 1 off)"
        }
    }
}
