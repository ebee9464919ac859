#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `stubd manpage`: print the manual page stubd(1) in roff (`stubd manpage | man -l -`).
enum ManpageCommand {
    static let usage = """
    OVERVIEW: Print the manual page stubd(1) in roff, made from stubd's commands and settings.

    USAGE: stubd manpage [--date YYYY-MM-DD]

    Install it as PREFIX/share/man/man1/stubd.1 (make install and the Debian package do);
    read it without installing with: stubd manpage | man -l -

    OPTIONS:
      --date YYYY-MM-DD       The date in the page's header (default: SOURCE_DATE_EPOCH's day, else today)
      -h, --help              Show this help
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") { print(usage); return 0 }
        var date = defaultDate()
        var scanner = ArgumentScanner(arguments)
        do throws(UsageError) {
            while let option = scanner.nextOption() {
                guard option == "--date" else { throw ArgumentScanner.unknown(option) }
                let value = try scanner.value(for: option)
                guard isDate(value) else { throw UsageError(message: "--date: expected a date like 2026-01-31, got \"\(value)\"") }
                date = value
            }
            if let extra = scanner.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        } catch {
            StubdCommand.fail(error.message, usage: usage)
            return 2
        }
        print(ManPage.roff(date: date), terminator: "")
        return 0
    }

    /// SOURCE_DATE_EPOCH's day when it is set (reproducible packages), else today, as YYYY-MM-DD.
    static func defaultDate() -> String {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) ?? Date().timeIntervalSince1970
        // ISO 8601 in UTC: the day is its first ten characters.
        return String(Date(timeIntervalSince1970: seconds).ISO8601Format().prefix(10))
    }

    private static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2
            && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}
