/// How a control harness reads its input: records separated by 0x1E (ASCII's record separator),
/// each a head line and a body (after the first `\n`). Plain text on purpose: the corpora in
/// `Tests/fuzz` read as what they send, and libFuzzer's mutations keep the shape often enough.
public enum FuzzRecords {
    public static let separator: UInt8 = 0x1E

    public struct Record {
        /// Up to the first newline (the whole record when it has none).
        public let head: [UInt8]
        /// After the first newline.
        public let body: [UInt8]

        /// The body's lines (a D-Bus call's arguments).
        public var lines: [[UInt8]] {
            body.isEmpty ? [] : body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        }
    }

    /// At most `limit` records: an input of many tiny records costs what a few would.
    public static func split(_ bytes: [UInt8], limit: Int = 64) -> [Record] {
        bytes.split(separator: separator, omittingEmptySubsequences: true).prefix(limit).map { slice in
            let record = Array(slice)
            guard let newline = record.firstIndex(of: UInt8(ascii: "\n")) else { return Record(head: record, body: []) }
            return Record(head: Array(record[..<newline]), body: Array(record[(newline + 1)...]))
        }
    }
}
