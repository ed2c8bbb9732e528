import Glibc

/// A printf-style number format (`format = "%.1f"`): one conversion of a number (`d i f F e E g G`)
/// with optional flags, width and precision, and any text around it (`%%` is a `%`). Checked
/// when the config is read, so that formatting a reading cannot fail or read past its argument.
public struct ValueFormat: Sendable, Equatable, CustomStringConvertible {
    public let text: String
    private let prefix: String
    private let spec: String
    private let suffix: String
    private let integer: Bool

    public var description: String { text }

    /// Throws a message saying what is wrong with `text`.
    public init(_ text: String) throws(ValueFormatError) {
        self.text = text
        var before = "", after = "", spec = ""
        var found = false, integer = false
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            i = text.index(after: i)
            guard c == "%" else {
                if found { after.append(c) } else { before.append(c) }
                continue
            }
            guard i < text.endIndex else { throw ValueFormatError("ends with a lone \"%\"; write %% for a percent sign") }
            if text[i] == "%" {
                if found { after.append("%") } else { before.append("%") }
                i = text.index(after: i)
                continue
            }
            if found { throw ValueFormatError("has more than one conversion; a value is one number") }
            var s = "%"
            while i < text.endIndex, "-+ 0#".contains(text[i]) { s.append(text[i]); i = text.index(after: i) }
            var width = ""
            while i < text.endIndex, text[i].isASCII, text[i].isNumber { width.append(text[i]); i = text.index(after: i) }
            s += width
            var precision = ""
            if i < text.endIndex, text[i] == "." {
                i = text.index(after: i)
                while i < text.endIndex, text[i].isASCII, text[i].isNumber { precision.append(text[i]); i = text.index(after: i) }
                s += "." + precision
            }
            if (Int(width) ?? 0) > 64 || (Int(precision) ?? 0) > 17 {
                throw ValueFormatError("width at most 64 and precision at most 17")
            }
            guard i < text.endIndex else { throw ValueFormatError("\"\(s)\" has no conversion letter; e.g. %.1f or %d") }
            let conversion = text[i]
            i = text.index(after: i)
            switch conversion {
            case "d", "i": integer = true; s += "lld"
            case "f", "F", "e", "E", "g", "G": s.append(conversion)
            default: throw ValueFormatError("%\(conversion) is not a number conversion; use d, i, f, e or g")
            }
            spec = s
            found = true
        }
        guard found else { throw ValueFormatError("has no conversion; e.g. \"%.1f\" or \"%d\"") }
        prefix = before
        suffix = after
        self.spec = spec
        self.integer = integer
    }

    /// `number` written as the format says (an integer conversion rounds it).
    public func format(_ number: Double) -> String {
        prefix + (integer ? Self.print(spec, Int64(clamping: number.rounded())) : Self.print(spec, number)) + suffix
    }

    /// snprintf of one checked conversion: the one C call.
    private static func print(_ spec: String, _ argument: CVarArg) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let n = withVaList([argument]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, spec, args) }
        }
        guard n >= 0 else { return "?" }
        return String(decoding: buffer.prefix(min(Int(n), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

private extension Int64 {
    init(clamping d: Double) {
        if !d.isFinite { self = 0 } else if d >= 9.2e18 { self = .max } else if d <= -9.2e18 { self = .min } else { self = Int64(d) }
    }
}

public struct ValueFormatError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
