#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every route loaded from one stub directory: an immutable snapshot that a reload replaces whole.
public struct StubCatalog: Sendable {
    /// The directory the stubs were loaded from.
    public let directory: String
    /// Routes in a stable order (service, then folder name).
    public let routes: [Route]
    /// When this snapshot was loaded.
    public let loadedAt: Date
    /// Finds routes for a request; built once per catalog.
    public let matcher: RouteMatcher

    /// Makes a catalog from routes that have already been validated.
    public init(directory: String, routes: [Route], loadedAt: Date = Date()) {
        self.directory = directory
        self.routes = routes
        self.loadedAt = loadedAt
        self.matcher = RouteMatcher(routes: routes)
    }

    /// The route with the given id (`service/folder`, or `folder` for routes outside a service).
    public func route(id: String) -> (index: Int, route: Route)? {
        guard let i = routes.firstIndex(where: { $0.id == id }) else { return nil }
        return (i, routes[i])
    }

    /// The route with the given id, or the error that lists the ids there are.
    public func requireRoute(id: String) throws(ControlError) -> Route {
        guard let found = route(id: id) else { throw .unknownRoute(id, known: routes.map(\.id)) }
        return found.route
    }
}
