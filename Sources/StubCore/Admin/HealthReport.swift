#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
