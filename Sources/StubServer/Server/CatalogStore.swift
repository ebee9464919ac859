#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds the catalog being served and swaps it whole on reload; a failed reload keeps the last
/// good one and is reported by health. The admin API reaches the server through this.
final class CatalogStore: AdminHost, Sendable {
    let directory: URL
    private let prepared: Locked<PreparedCatalog>
    private let report: Locked<HealthReport>
    private let reloadLock = PlainLock()
    /// Prints reload outcomes to standard error (the daemon); quiet in-process by default.
    let announceReloads: Bool

    /// True when a folder with no routes loads (a proxy answers everything).
    let allowEmpty: Bool
    /// Called after each reload, good or bad, with its outcome (live dashboards and the fleet hear of it).
    let reloaded: @Sendable (Result<StubCatalog, StubLoadFailure>) -> Void
    /// Connection limits hit so far, by name; set once the admission control exists.
    let limits = Locked<(@Sendable () -> [(name: String, count: Int)])?>(nil)

    init(directory: URL, catalog: StubCatalog, announceReloads: Bool, allowEmpty: Bool = false, reloaded: @escaping @Sendable (Result<StubCatalog, StubLoadFailure>) -> Void = { _ in }) {
        self.allowEmpty = allowEmpty
        self.reloaded = reloaded
        self.directory = directory
        self.prepared = Locked(PreparedCatalog(catalog))
        self.report = Locked(HealthReport(loadedAt: catalog.loadedAt))
        self.announceReloads = announceReloads
    }

    /// The prepared catalog a new request should use.
    var current: PreparedCatalog { prepared.withLock { $0 } }

    var currentCatalog: StubCatalog { current.catalog }

    var health: HealthReport { report.withLock { $0 } }

    var limitsHit: [(name: String, count: Int)] { limits.withLock { $0 }?() ?? [] }

    func reloadNow() -> Result<StubCatalog, StubLoadFailure> {
        reloadLock.withLock {
            let result = StubLoader.load(directory: directory.path, allowEmpty: allowEmpty)
            switch result {
            case .success(let catalog):
                let next = PreparedCatalog(catalog)
                // In-flight requests hold the old PreparedCatalog until they finish.
                prepared.withLock { $0 = next }
                report.withLock { $0 = HealthReport(loadedAt: catalog.loadedAt) }
                if announceReloads {
                    let warnings = catalog.warnings.map { "stubd: warning: \($0)\n" }.joined()
                    StandardStreams.write("stubd: reloaded \(directory.path) (\(catalog.routes.count) routes)\n\(warnings)", to: STDERR_FILENO)
                }
            case .failure(let failure):
                report.withLock { $0.problems = failure.problems }
                if announceReloads {
                    StandardStreams.write("stubd: reload failed, still serving the stubs loaded at \(health.loadedAt):\n\(failure)\n", to: STDERR_FILENO)
                }
            }
            reloaded(result)
            return result
        }
    }
}
