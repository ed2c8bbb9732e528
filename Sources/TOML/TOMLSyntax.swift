/// How keys and strings are written in TOML, for messages that quote them back to the reader.
public enum TOMLSyntax {
    /// `text` as a TOML basic string: in quotes, with `"`, `\` and every control character
    /// escaped (`\n`, `\r`, `\t`, others as `\uXXXX`). These escapes are JSON's too, and the
    /// characters escaped include all JSON requires, so the result is also a JSON string.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// One part of a dotted key as TOML would write it: bare when it may be, else quoted.
    public static func key(_ name: String) -> String {
        !name.isEmpty && name.utf8.allSatisfy(ASCII.isBareKey) ? name : quoted(name)
    }
}
