#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the admin API needs from the running server, so the API itself stays free of sockets.
package protocol AdminHost: Sendable {
    /// The catalog being served.
    var currentCatalog: StubCatalog { get }
    /// Whether the last load succeeded, and when the served stubs were loaded.
    var health: HealthReport { get }
    /// Reloads the stub directory now; on failure the last good stubs stay in service.
    func reloadNow() -> Result<StubCatalog, StubLoadFailure>
    /// How many times each connection limit was hit since start, by name (for health).
    var limitsHit: [(name: String, count: Int)] { get }
}

extension AdminHost {
    /// A host without connection limits reports none.
    package var limitsHit: [(name: String, count: Int)] { [] }
}
