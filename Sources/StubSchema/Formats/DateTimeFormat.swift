/// RFC 3339 dates and times: `2026-01-31`, `23:59:60.5+01:00`, `2026-01-31T10:00:00Z` (`T` and
/// `Z` in either case), checked field by field, with 60 seconds only at 23:59 UTC.
enum DateTimeFormat {
    static func dateTime(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        return date(bytes[0..<10]) && time(bytes[11...])
    }

    static func time(_ s: String) -> Bool { time(Array(s.utf8)[...]) }

    static func date(_ b: ArraySlice<UInt8>) -> Bool {
        let b = Array(b)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2) else { return false }
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// `hh:mm:ss[.frac](Z|±hh:mm)`.
    static func time(_ slice: ArraySlice<UInt8>) -> Bool {
        let b = Array(slice)
        guard b.count >= 9, b[2] == UInt8(ascii: ":"), b[5] == UInt8(ascii: ":"),
              let hour = number(b, 0, 2), let minute = number(b, 3, 2), let second = number(b, 6, 2) else { return false }
        var i = 8
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, StringFormats.isDigit(b[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < b.count else { return false }
        var offset = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == b.count else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard b.count == i + 6, b[i + 3] == UInt8(ascii: ":"), let oh = number(b, i + 1, 2), let om = number(b, i + 4, 2), oh <= 23, om <= 59 else { return false }
            offset = (oh * 60 + om) * (b[i] == UInt8(ascii: "+") ? 1 : -1)
        default: return false
        }
        guard hour <= 23, minute <= 59, second <= 60 else { return false }
        if second == 60 {
            // A leap second is 23:59:60 in UTC.
            let utc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    private static func number(_ b: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at + count <= b.count else { return nil }
        var value = 0
        for byte in b[at..<at + count] {
            guard StringFormats.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
