import StubCore
import StubSystem

/// Held responses from Swift tests: hold a route, wait until the app has really asked, assert the
/// loading state, then release.
extension StubServer {
    /// Holds every request to `route` (in `session`) before its response until released.
    public func hold(route: String, session: String? = nil) throws(ControlError) {
        var o = control.override(routeID: route, session: session) ?? RouteOverride()
        o.hold = true
        try control.setOverride(o, for: catalog.requireRoute(id: route), session: session)
    }

    /// Releases the oldest `count` held requests of `route` (all when nil); returns how many.
    @discardableResult
    public func release(route: String, count: Int? = nil, session: String? = nil) -> Int {
        control.release(routeID: route, session: session, count: count)
    }

    /// Requests of `route` held now.
    public func heldCount(route: String, session: String? = nil) -> Int {
        control.heldCount(routeID: route, session: session)
    }

    /// Waits until at least `count` requests of `route` are held; false after `timeout` seconds.
    public func waitUntilHeld(route: String, count: Int = 1, timeout: Double = 5, session: String? = nil) async -> Bool {
        let deadline = MonotonicClock.now() + UInt64(max(0, timeout) * 1_000_000_000)
        while heldCount(route: route, session: session) < count {
            if MonotonicClock.now() >= deadline { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }
}
