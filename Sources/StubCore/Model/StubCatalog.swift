#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every route loaded from one stub directory: an immutable snapshot that a reload replaces whole.
public final class StubCatalog: Sendable {
    /// The directory the stubs were loaded from.
    public let directory: String
    /// Routes in a stable order (service, then folder name).
    public let routes: [Route]
    /// When this snapshot was loaded.
    public let loadedAt: Date
    /// What loaded but deserves a word: links that leave the stub directory.
    public let warnings: [StubProblem]
    /// Finds routes for a request; built once per catalog.
    package let matcher: RouteMatcher
    /// Finds the operation routes of requests to GraphQL endpoints.
    package let graphql: GraphQLEndpoints
    /// Per route: the key of its first variant in the flat list of all variants (route order,
    /// then variant order), where the transport keeps one prepared response per variant, and
    /// where planning's first reads of it lie (`RouteHint`).
    private let hints: [RouteHint]
    /// Initial state values and collections.
    package let memory: MemoryCatalog
    private let indexByID: [String: Int]

    /// Makes a catalog from routes that have already been validated.
    public convenience init(directory: String, routes: [Route], warnings: [StubProblem] = [], loadedAt: Date = Date()) {
        self.init(directory: directory, routes: routes, warnings: warnings, loadedAt: loadedAt, graphQLManifests: [:])
    }

    /// Makes a catalog whose GraphQL endpoints have operation manifests (by endpoint path).
    package init(directory: String, routes: [Route], warnings: [StubProblem] = [], loadedAt: Date = Date(),
                 graphQLManifests: [String: [String: GraphQLEndpoints.PersistedOperation]], stateSeeds: [String: [String: JSONValue]] = [:]) {
        self.directory = directory
        self.warnings = warnings
        self.routes = routes
        self.loadedAt = loadedAt
        self.matcher = RouteMatcher(routes: routes)
        self.graphql = GraphQLEndpoints(routes: routes, manifests: graphQLManifests)
        memory = MemoryCatalog(stateSeeds: stateSeeds, routes: routes)
        var hints: [RouteHint] = []
        hints.reserveCapacity(routes.count)
        var next = 0
        for route in routes {
            hints.append(RouteHint(route, firstVariantKey: next))
            next += route.variants.count
        }
        self.hints = hints
        indexByID = Dictionary(routes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every variant of every route, in key order.
    public var allVariants: [Variant] { routes.flatMap(\.variants) }

    /// The key of a route's variant in `allVariants`.
    public func variantKey(route: Int, variant: Int) -> Int {
        hints[route].firstVariantKey + variant
    }

    /// Asks for the memory planning the route at `index` reads first (see `RouteHint`).
    @inline(__always)
    func prefetchRoute(_ index: Int) {
        hints[index].prefetch()
    }

    /// The route with the given id (`service/folder`, or `folder` for routes outside a service).
    public func route(id: String) -> (index: Int, route: Route)? {
        guard let i = indexByID[id] else { return nil }
        return (i, routes[i])
    }

    /// The route with the given id, or the error that lists the ids there are.
    public func requireRoute(id: String) throws(ControlError) -> Route {
        guard let found = route(id: id) else { throw .unknownRoute(id, known: routes.map(\.id)) }
        return found.route
    }
}
