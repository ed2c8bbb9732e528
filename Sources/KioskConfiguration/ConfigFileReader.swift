import Glibc
import KioskSystem

/// Why a config file's bytes could not be taken as TOML text. Checked before parsing, so that a
/// huge, binary or unreadable file gets a plain message instead of a parser's guess.
public enum ConfigFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(SystemError)
    /// The file, or a folder on its way, is a symlink to nothing (a half-done or broken release swap).
    case danglingSymlink(link: String, target: String)
    case notRegularFile(kind: String)
    case tooLarge(bytes: Int, limit: Int)
    case empty
    /// A NUL byte: the file is binary (or was overwritten with zeros).
    case binary(line: Int, column: Int)
    case invalidUTF8(line: Int, column: Int, byte: UInt8)

    public var description: String {
        switch self {
        case .unreadable(let e):
            let text = strerror(e.errno).map { String(cString: $0) } ?? "errno \(e.errno)"
            return "cannot read the file (\(e.call.split(separator: " ").first ?? "open"): \(text))"
        case .danglingSymlink(let link, let target):
            return "cannot read the file: \(link) is a symlink to \"\(target)\", which does not exist"
        case .notRegularFile(let kind):
            return "is \(kind), not a regular file"
        case .tooLarge(let bytes, let limit):
            return "file is \(Self.size(bytes)); a kiosk config is at most \(Self.size(limit))"
        case .empty:
            return "file is empty; a config needs at least one screen with one item"
        case .binary:
            return "binary file: contains a NUL byte; a config is UTF-8 text"
        case .invalidUTF8(_, _, let byte):
            return "not UTF-8 text: invalid byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    /// Line and column of the offending byte, when there is one.
    public var position: (line: Int, column: Int)? {
        switch self {
        case .binary(let l, let c), .invalidUTF8(let l, let c, _): return (l, c)
        default: return nil
        }
    }

    package static func size(_ bytes: Int) -> String {
        let mib = 1 << 20
        if bytes >= mib {
            let tenths = (bytes * 10 + mib / 2) / mib
            return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
        }
        if bytes >= 1024 { return "\(bytes / 1024) KiB" }
        return "\(bytes) bytes"
    }
}

/// Reads a config file into a `String`, refusing anything that is not small UTF-8 text.
public enum ConfigFileReader {
    /// A kiosk config is a few KiB; 1 MiB leaves room for huge menus and stops a runaway file.
    public static let maximumSize = 1 << 20

    public static func read(path: String, maximumSize: Int = maximumSize) throws(ConfigFileError) -> String {
        let bytes = try readBytes(path: path, maximumSize: maximumSize)
        return try text(from: bytes)
    }

    /// At most `maximumSize` bytes of a regular file; a FIFO or device never blocks the caller.
    package static func readBytes(path: String, maximumSize: Int) throws(ConfigFileError) -> [UInt8] {
        do {
            return try SmallFile.read(path, limit: maximumSize)
        } catch {
            switch error {
            case .unreadable(let e):
                if e.errno == ENOENT, let dangling = ConfigSource.danglingLink(in: path) {
                    throw .danglingSymlink(link: dangling.link, target: dangling.target)
                }
                throw .unreadable(e)
            case .notRegularFile(let kind): throw .notRegularFile(kind: kind)
            case .tooLarge(let bytes): throw .tooLarge(bytes: bytes, limit: maximumSize)
            }
        }
    }

    /// The bytes as a `String` when they are non-empty UTF-8 without NUL; a leading BOM is dropped.
    public static func text(from bytes: [UInt8]) throws(ConfigFileError) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { throw .empty }
        if let nul = body.firstIndex(of: 0) {
            let (line, column) = position(of: nul, in: bytes)
            throw .binary(line: line, column: column)
        }
        var iterator = body.makeIterator()
        var decoder = UTF8()
        var offset = body.startIndex
        var text = String.UnicodeScalarView()
        text.reserveCapacity(body.count)
        while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let s):
                text.append(s)
                offset += UTF8.width(s)
            case .emptyInput:
                return String(text)
            case .error:
                let (line, column) = position(of: before, in: bytes)
                throw .invalidUTF8(line: line, column: column, byte: bytes[before])
            }
        }
    }

    /// 1-based line and column (in bytes) of `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1, lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }
}
