/// How `{{now}}` writes a time: `{{now}}` or `{{now iso}}`, `{{now unix}}`, `{{now unixms}}`,
/// `{{now http}}`, `{{now date}}`.
package enum TimeFormat: String, Sendable, Equatable, CaseIterable {
    /// ISO 8601 in UTC to the second: `2026-12-06T19:15:28Z`.
    case iso
    /// Whole seconds since 1970: `1796584528`.
    case unix
    /// Whole milliseconds since 1970: `1796584528123`.
    case unixms
    /// An HTTP date (IMF-fixdate, RFC 9110 §5.6.7): `Sun, 06 Dec 2026 19:15:28 GMT`.
    case http
    /// The UTC calendar date: `2026-12-06`.
    case date

    /// The earliest time written: 0001-01-01T00:00:00Z, so the year keeps its four digits.
    static let earliest: Double = -62_135_596_800
    /// The latest time written: the last millisecond of 9999-12-31.
    static let latest: Double = 253_402_300_799.999

    /// "iso, unix, unixms, http or date", for error messages.
    static var names: String {
        let all = allCases.map(\.rawValue)
        return all.dropLast().joined(separator: ", ") + " or " + all[all.count - 1]
    }

    /// `seconds` since 1970 (fractions allowed) in this format. A time that is not finite counts
    /// as 1970, and one outside the years 1 to 9999 is held at the nearer end, so no input traps.
    package func format(_ seconds: Double) -> String {
        let time = seconds.isFinite ? min(max(seconds, TimeFormat.earliest), TimeFormat.latest) : 0
        let whole = Int((time).rounded(.down))
        switch self {
        case .unix: return String(whole)
        case .unixms: return String(Int((time * 1000).rounded(.down)))
        case .http: return HTTPDate.format(whole)
        case .iso, .date:
            let (day, second) = whole.quotientAndRemainder(dividingBy: 86_400)
            let (days, inDay) = second < 0 ? (day - 1, second + 86_400) : (day, second)
            let (year, month, dayOfMonth) = ISO8601.civil(fromDays: Int64(days))
            let date = "\(TimeFormat.digits(Int(year), 4))-\(TimeFormat.digits(Int(month), 2))-\(TimeFormat.digits(Int(dayOfMonth), 2))"
            guard self == .iso else { return date }
            return date + "T\(TimeFormat.digits(inDay / 3600, 2)):\(TimeFormat.digits(inDay / 60 % 60, 2)):\(TimeFormat.digits(inDay % 60, 2))Z"
        }
    }

    /// `n` (not negative) with leading zeros to `width` digits.
    private static func digits(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
