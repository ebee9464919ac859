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

    /// What `/__stubd/health` and the reload endpoint say of the stubs served.
    public enum Status: String, Sendable, CaseIterable {
        /// The last load succeeded.
        case ok
        /// The last reload failed; the stubs loaded before it are still served.
        case degraded
    }

    /// `.ok` when the last load succeeded, else `.degraded`.
    public var status: Status { problems.isEmpty ? .ok : .degraded }

    /// Makes a report.
    public init(loadedAt: Date, problems: [StubProblem] = []) {
        self.loadedAt = loadedAt
        self.problems = problems
    }
}
