#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the admin API needs from the running server, so the API itself stays free of sockets.
public protocol AdminHost: Sendable {
    /// The catalog being served.
    var currentCatalog: StubCatalog { get }
    /// Whether the last load succeeded, and when the served stubs were loaded.
    var health: HealthReport { get }
    /// Reloads the stub directory now; on failure the last good stubs stay in service.
    func reloadNow() -> Result<StubCatalog, StubLoadFailure>
}

/// The state `/__stubd/health` reports.
public struct HealthReport: Sendable {
    /// When the stubs being served were loaded.
    public var loadedAt: Date
    /// Problems of the last failed reload; empty when the last load succeeded.
    public var problems: [StubProblem]

    /// Makes a report.
    public init(loadedAt: Date, problems: [StubProblem] = []) {
        self.loadedAt = loadedAt
        self.problems = problems
    }
}

enum ISO8601 {
    static func format(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
