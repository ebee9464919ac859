#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Times in the journal and health reports, as ISO 8601 with milliseconds.
package enum ISO8601 {
    /// `2026-12-01T20:41:46.373Z`: UTC, milliseconds cut (not rounded), as Foundation's style
    /// writes it. Computed here: the journal writes one per request, and the format style cost
    /// more than the rest of an entry.
    package static func format(_ date: Date) -> String {
        var out: [UInt8] = []
        write(date, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `format(date)`'s bytes to `out`, without making a string.
    package static func write(_ date: Date, into out: inout [UInt8]) {
        // From the reference date, as Date keeps it, then cut: the same millisecond Foundation
        // writes, so a time read back as `since` never falls after the entry it came from.
        let ms = Int64((date.timeIntervalSinceReferenceDate * 1000).rounded(.down)) + 978_307_200_000
        let (days, msOfDay) = ms.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, inDay) = msOfDay < 0 ? (days - 1, msOfDay + 86_400_000) : (days, msOfDay)
        let (y, m, d) = civil(fromDays: day)
        func digits(_ n: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = n
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(y, 4); out.append(UInt8(ascii: "-")); digits(m, 2); out.append(UInt8(ascii: "-")); digits(d, 2)
        out.append(UInt8(ascii: "T")); digits(inDay / 3_600_000, 2); out.append(UInt8(ascii: ":")); digits(inDay / 60_000 % 60, 2)
        out.append(UInt8(ascii: ":")); digits(inDay / 1000 % 60, 2); out.append(UInt8(ascii: ".")); digits(inDay % 1000, 3)
        out.append(UInt8(ascii: "Z"))
    }

    /// Year, month and day of a count of days since 1970-01-01 (proleptic Gregorian calendar).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
