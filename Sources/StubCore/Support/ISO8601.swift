#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Times in the journal and health reports, as ISO 8601 with milliseconds.
package enum ISO8601 {
    package static func format(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    package static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
