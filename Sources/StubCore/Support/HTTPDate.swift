/// HTTP dates (RFC 9110 §5.6.7) as seconds since 1970: `Sun, 06 Nov 1994 08:49:37 GMT`, and the
/// two obsolete forms a recipient must still read (`Sunday, 06-Nov-94 08:49:37 GMT`,
/// `Sun Nov  6 08:49:37 1994`). For `Last-Modified` and `If-Modified-Since`.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// The seconds an HTTP date names, or nil when the text is none of the three forms.
    package static func parse(_ text: String) -> Int? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day: Int?, month: Int?, year: Int?, time: String?
        if words.count == 6, words[5] == "GMT" {
            // Sun, 06 Nov 1994 08:49:37 GMT
            (day, month, year, time) = (Int(words[1]), months.firstIndex(of: words[2]), Int(words[3]), words[4])
        } else if words.count == 4, words[3] == "GMT" {
            // Sunday, 06-Nov-94 08:49:37 GMT: two-digit years are taken as 19xx or 20xx, whichever
            // is not more than 50 years ahead (RFC 9110 §5.6.7).
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let short = Int(parts[2]) else { return nil }
            (day, month, year, time) = (Int(parts[0]), months.firstIndex(of: parts[1]), short < 70 ? 2000 + short : 1900 + short, words[2])
        } else if words.count == 5 {
            // Sun Nov  6 08:49:37 1994
            (day, month, year, time) = (Int(words[2]), months.firstIndex(of: words[1]), Int(words[4]), words[3])
        }
        guard let day, let month, let year, let time, (1...31).contains(day), year >= 1970 else { return nil }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        return daysSinceEpoch(year: year, month: month + 1, day: day) * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
    }

    /// `seconds` as an IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    package static func format(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (year, month, day) = ISO8601.civil(fromDays: Int64(days))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(HTTPDate.days[((days % 7) + 7) % 7]), \(two(Int(day))) \(months[Int(month) - 1]) \(year) \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) GMT"
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
