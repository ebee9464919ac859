import StubSystem

/// Where the transport keeps its prepared answer of each route's default variant (its response
/// object and what that points at), so that a request to a route not asked for lately asks for
/// that memory together with the route's own (`StubCatalog.prefetchRoute`), long before the
/// transport reads it: with many routes, following the transport's pointers one after the other
/// waited for memory once per step. Addresses only, never references; the core does not know
/// what lies there.
// @unchecked Sendable: the table is written once per route by the transport, as it prepares the
// catalog, and read by requests; every word is written and read with relaxed atomic operations,
// and a word not written yet reads as 0 (no hint). The table never moves and lives as long as
// the catalog.
package final class TransportHints: @unchecked Sendable {
    /// Addresses kept per route: one cache line of them.
    package static let perRoute = 8
    private let table: UnsafeMutablePointer<UInt>
    private let routes: Int

    /// An empty table for `routes` routes.
    init(routes: Int) {
        self.routes = routes
        table = UnsafeMutablePointer<UInt>.allocate(capacity: max(1, routes * TransportHints.perRoute))
        table.initialize(repeating: 0, count: max(1, routes * TransportHints.perRoute))
    }

    deinit {
        table.deallocate()
    }

    /// Notes the addresses worth asking for when a request matches the route at `index` (at most
    /// `perRoute`; more are left out).
    package func set(route index: Int, _ addresses: [UInt]) {
        guard index >= 0 && index < routes else { return }
        for (i, address) in addresses.prefix(TransportHints.perRoute).enumerated() {
            Prefetch.storeAddress(address, at: table + index * TransportHints.perRoute + i)
        }
    }

    /// The addresses noted for the route at `index` (none for an index out of range).
    package func addresses(route index: Int) -> [UInt] {
        guard index >= 0 && index < routes else { return [] }
        return (0..<TransportHints.perRoute).map { Prefetch.loadAddress(at: table + index * TransportHints.perRoute + $0) }.filter { $0 != 0 }
    }

    /// Asks for the memory noted for the route at `index`.
    @inline(__always)
    func prefetch(route index: Int) {
        guard index < routes else { return }
        Prefetch.listed(table + index * TransportHints.perRoute, count: TransportHints.perRoute)
    }
}
