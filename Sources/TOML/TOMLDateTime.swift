/// A TOML date, time or date-time, validated (real calendar dates, hours 0–23, and so on) and kept
/// as its parts: the kiosk's config has no use for them, but a file that contains one must parse.
public struct TOMLDateTime: Hashable, Sendable, CustomStringConvertible {
    public struct Date: Hashable, Sendable {
        public var year: Int
        public var month: Int
        public var day: Int

        public init(year: Int, month: Int, day: Int) {
            (self.year, self.month, self.day) = (year, month, day)
        }
    }

    public struct Time: Hashable, Sendable {
        public var hour: Int
        public var minute: Int
        /// 0...60: RFC 3339 allows a leap second.
        public var second: Int
        /// Fraction digits beyond nanoseconds are dropped.
        public var nanosecond: Int

        public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
            (self.hour, self.minute, self.second, self.nanosecond) = (hour, minute, second, nanosecond)
        }
    }

    public var date: Date?
    public var time: Time?
    /// Minutes east of UTC; nil for local date-times, dates and times. `Z` is 0.
    public var offsetMinutes: Int?

    /// `an offset date-time`, `a local date-time`, `a local date` or `a local time`.
    public var kindName: String {
        switch (date != nil, time != nil, offsetMinutes != nil) {
        case (true, true, true): "an offset date-time"
        case (true, true, false): "a local date-time"
        case (true, false, _): "a local date"
        default: "a local time"
        }
    }

    /// RFC 3339 form, `1979-05-27T07:32:00.5-07:00`.
    public var description: String {
        var text = ""
        if let date { text += pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) }
        if let time {
            if date != nil { text += "T" }
            text += pad(time.hour, 2) + ":" + pad(time.minute, 2) + ":" + pad(time.second, 2)
            if time.nanosecond > 0 {
                var fraction = pad(time.nanosecond, 9)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                text += "." + fraction
            }
        }
        if let offsetMinutes {
            if offsetMinutes == 0 { text += "Z" } else {
                let m = abs(offsetMinutes)
                text += (offsetMinutes < 0 ? "-" : "+") + pad(m / 60, 2) + ":" + pad(m % 60, 2)
            }
        }
        return text
    }

    private func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Parses RFC 3339 as TOML 1.0 allows it (`T`, `t` or one space between date and time;
    /// seconds required). The error is a reason to append to the value's text.
    static func parse(_ s: [UInt8]) -> Result<TOMLDateTime, DateTimeFailure> {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var v = 0
            for k in i..<i + n {
                guard s[k] >= 0x30, s[k] <= 0x39 else { return nil }
                v = v * 10 + Int(s[k] - 0x30)
            }
            i += n
            return v
        }
        func consume(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        var result = TOMLDateTime()
        let isDate = s.count >= 5 && s[4] == UInt8(ascii: "-")
        if isDate {
            guard let y = digits(4), consume(UInt8(ascii: "-")), let m = digits(2), consume(UInt8(ascii: "-")), let d = digits(2) else {
                return .failure(.shape)
            }
            guard (1...12).contains(m) else { return .failure(.range("month \(m) is not 1 to 12")) }
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
            guard (1...days).contains(d) else { return .failure(.range("day \(d) does not exist in month \(m) of \(y)")) }
            result.date = Date(year: y, month: m, day: d)
            if i == s.count { return .success(result) }
            guard consume(UInt8(ascii: "T")) || consume(UInt8(ascii: "t")) || consume(UInt8(ascii: " ")) else { return .failure(.shape) }
        }
        guard let h = digits(2), consume(UInt8(ascii: ":")), let mi = digits(2), consume(UInt8(ascii: ":")), let sec = digits(2) else {
            return .failure(.shape)
        }
        guard h <= 23 else { return .failure(.range("hour \(h) is not 0 to 23")) }
        guard mi <= 59 else { return .failure(.range("minute \(mi) is not 0 to 59")) }
        guard sec <= 60 else { return .failure(.range("second \(sec) is not 0 to 60")) }
        var nanos = 0
        if consume(UInt8(ascii: ".")) {
            var count = 0
            while i < s.count, s[i] >= 0x30, s[i] <= 0x39 {
                if count < 9 { nanos = nanos * 10 + Int(s[i] - 0x30) }
                count += 1
                i += 1
            }
            guard count > 0 else { return .failure(.shape) }
            for _ in count..<max(count, 9) { nanos *= 10 }
        }
        result.time = Time(hour: h, minute: mi, second: sec, nanosecond: nanos)
        if isDate {
            if consume(UInt8(ascii: "Z")) || consume(UInt8(ascii: "z")) {
                result.offsetMinutes = 0
            } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                let negative = s[i] == UInt8(ascii: "-")
                i += 1
                guard let oh = digits(2), consume(UInt8(ascii: ":")), let om = digits(2) else { return .failure(.shape) }
                guard oh <= 23, om <= 59 else { return .failure(.range("offset \(oh):\(om) is not a valid time offset")) }
                result.offsetMinutes = (negative ? -1 : 1) * (oh * 60 + om)
            }
        }
        return i == s.count ? .success(result) : .failure(.shape)
    }

    enum DateTimeFailure: Error {
        /// Not laid out as any of the four forms.
        case shape
        /// Laid out right, with a field out of its range.
        case range(String)
    }
}
