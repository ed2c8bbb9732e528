/// How many elements an SVG document becomes once every internal reference (`<use href="#id">`,
/// and any other `href="#id"`) is followed: each element counts 1, and a reference counts the whole
/// subtree it names again, recursively. A "billion laughs" of `use` elements (ten levels of ten)
/// is 10^10 here after reading only its text; librsvg itself stops only after following 500,000
/// references, seconds of rendering. A reference cycle counts as unbounded. A plain scan of tags,
/// not an XML parser: comments, CDATA and processing instructions are skipped; what it cannot
/// read it does not count (librsvg then refuses the document or stops at its own limit).
enum SVGReferenceCount {
    /// The expanded element count, capped at `limit + 1` (nothing beyond it matters).
    static func expandedElements(in data: [UInt8], limit: Int) -> Int {
        // Each element: its id, the references directly inside it (its own and its descendants'),
        // and its descendants' element count.
        struct Element { var id: String?; var references: [String] = []; var size = 1 }
        var finished: [String: Element] = [:]
        var stack: [Element] = [Element()]  // a root that holds the document
        var i = 0
        let n = data.count
        func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
            let bytes = Array(name.utf8)
            var k = tag.startIndex
            while k + bytes.count < tag.endIndex {
                let before = k == tag.startIndex ? UInt8(ascii: " ") : tag[k - 1]
                if (before == 32 || before == 9 || before == 10 || before == 13 || before == UInt8(ascii: ":")),
                   Array(tag[k..<k + bytes.count]) == bytes {
                    var m = k + bytes.count
                    while m < tag.endIndex, tag[m] == 32 || tag[m] == 9 || tag[m] == 10 || tag[m] == 13 { m += 1 }
                    if m < tag.endIndex, tag[m] == UInt8(ascii: "=") {
                        m += 1
                        while m < tag.endIndex, tag[m] == 32 || tag[m] == 9 || tag[m] == 10 || tag[m] == 13 { m += 1 }
                        guard m < tag.endIndex, tag[m] == UInt8(ascii: "\"") || tag[m] == UInt8(ascii: "'") else { return nil }
                        let quote = tag[m]
                        let start = m + 1
                        var end = start
                        while end < tag.endIndex, tag[end] != quote { end += 1 }
                        return String(decoding: tag[start..<end], as: UTF8.self)
                    }
                }
                k += 1
            }
            return nil
        }
        func close() {
            guard stack.count > 1 else { return }
            let element = stack.removeLast()
            stack[stack.count - 1].references += element.references
            stack[stack.count - 1].size = min(limit + 1, stack[stack.count - 1].size + element.size)
            if let id = element.id { finished[id] = element }
        }
        while i < n {
            guard data[i] == UInt8(ascii: "<") else { i += 1; continue }
            if data[i...].starts(with: Array("<!--".utf8)) {
                i = skip(data, from: i + 4, past: Array("-->".utf8)); continue
            }
            if data[i...].starts(with: Array("<![CDATA[".utf8)) {
                i = skip(data, from: i + 9, past: Array("]]>".utf8)); continue
            }
            if i + 1 < n, data[i + 1] == UInt8(ascii: "?") || data[i + 1] == UInt8(ascii: "!") {
                i = skip(data, from: i + 2, past: [UInt8(ascii: ">")]); continue
            }
            var end = i + 1
            var quote: UInt8 = 0
            while end < n {
                let c = data[end]
                if quote != 0 { if c == quote { quote = 0 } } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c } else if c == UInt8(ascii: ">") { break }
                end += 1
            }
            let tag = data[(i + 1)..<min(end, n)]
            i = end + 1
            if tag.first == UInt8(ascii: "/") { close(); continue }
            var element = Element(id: attribute("id", in: tag))
            if let href = attribute("href", in: tag), href.hasPrefix("#") { element.references.append(String(href.dropFirst())) }
            stack.append(element)
            if tag.last == UInt8(ascii: "/") { close() }
        }
        while stack.count > 1 { close() }
        // Expanded size of each id, memoised; a cycle is unbounded.
        var memo: [String: Int] = [:]
        var visiting: Set<String> = []
        func expanded(_ id: String) -> Int {
            if let known = memo[id] { return known }
            guard let element = finished[id] else { return 0 }
            guard visiting.insert(id).inserted else { return limit + 1 }
            var total = element.size
            for reference in element.references where total <= limit { total = min(limit + 1, total + expanded(reference)) }
            visiting.remove(id)
            memo[id] = total
            return total
        }
        var total = stack[0].size
        for reference in stack[0].references where total <= limit { total = min(limit + 1, total + expanded(reference)) }
        return total
    }

    /// The index just past `terminator` from `start`, or the end.
    private static func skip(_ data: [UInt8], from start: Int, past terminator: [UInt8]) -> Int {
        var k = start
        while k + terminator.count <= data.count {
            if data[k] == terminator[0], Array(data[k..<k + terminator.count]) == terminator { return k + terminator.count }
            k += 1
        }
        return data.count
    }
}
