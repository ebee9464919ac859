#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Held responses: keep a route's requests waiting until the test has seen the loading state.
extension StubdClient {
    /// Holds every request to `route` (in `session`) before its response until released.
    public func hold(route: String, session: String? = nil) async throws {
        try await send("PUT", "routes/\(route)", json: ["hold": true], session: session)
    }

    /// Releases the oldest `count` held requests of `route` (all when nil); returns how many went.
    @discardableResult
    public func release(route: String, count: Int? = nil, session: String? = nil) async throws -> Int {
        try await call("POST", "routes/\(route)/release", json: count.map { ["count": $0] } ?? [:], session: session, as: Released.self).released
    }

    /// Requests of `route` held now.
    public func heldCount(route: String, session: String? = nil) async throws -> Int {
        try await call("GET", "routes/\(route)", session: session, as: RouteInfo.self).held ?? 0
    }

    /// Waits until at least `count` requests of `route` are held (the app has really asked);
    /// false after `timeout` seconds.
    public func waitUntilHeld(route: String, count: Int = 1, timeout: Double = 5, session: String? = nil) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))  // monotonic: the wall clock may step
        while try await heldCount(route: route, session: session) < count {
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return true
    }

    struct Released: Decodable {
        let released: Int
    }
}
