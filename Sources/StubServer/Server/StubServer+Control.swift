import StubCore
import StubSystem

/// Steering from Swift tests without HTTP round trips: the same `StubControl` the admin API uses.
extension StubServer {
    /// Serves `variant` (and/or a delay or fault) for `route` until cleared.
    /// `route` is the route id, `service/folder` (see `stubd routes`).
    public func override(route: String, variant: String? = nil, delayMs: Int? = nil, fault: Fault? = nil, session: String? = nil) throws(ControlError) {
        if let delayMs, !(0...Limits.maxDelayMs).contains(delayMs) { throw .invalidDelay(delayMs) }
        try control.setOverride(RouteOverride(variant: variant, delay: delayMs.map { .fixed(ms: $0) }, fault: fault),
                                for: lookup(route), session: session)
    }

    /// Serves `variants` in order to the next requests of `route`, then normal selection resumes.
    public func sequence(route: String, _ variants: [String], session: String? = nil) throws(ControlError) {
        try control.setOverride(RouteOverride(sequence: variants), for: lookup(route), session: session)
    }

    /// Removes the override or sequence of `route`.
    public func clearOverride(route: String, session: String? = nil) {
        control.clearOverride(routeID: route, session: session)
    }

    /// The journal: requests received, oldest first; only those matched to `route`, or naming the
    /// GraphQL `operation`, when given.
    public func journal(route: String? = nil, operation: String? = nil, session: String? = nil) -> [RequestRecord] {
        var filter = JournalFilter(route: route)
        filter.operation = operation
        return control.journal(session: session, filter: filter).map(\.record)
    }

    /// The old name of `journal(route:session:)`.
    @available(*, deprecated, renamed: "journal(route:session:)")
    public func receivedRequests(route: String? = nil, session: String? = nil) -> [RequestRecord] {
        journal(route: route, session: session)
    }

    /// Waits until the journal holds at least `count` requests (matched to `route`, or naming the
    /// GraphQL `operation`, when given) and returns them, like OkHttp MockWebServer's
    /// `takeRequest()`; after `timeout` seconds it returns what arrived so far, so the test's own
    /// expectation reports the shortfall.
    public func waitForRequests(route: String? = nil, operation: String? = nil, count: Int = 1, timeout: Double = 5,
                                session: String? = nil) async -> [RequestRecord] {
        let deadline = MonotonicClock.now() + UInt64(max(0, timeout) * 1_000_000_000)
        while true {
            let received = journal(route: route, operation: operation, session: session)
            if received.count >= count || MonotonicClock.now() >= deadline { return received }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Clears overrides, sequences and the journal of a session (nil: the global scope).
    public func reset(session: String? = nil) {
        control.reset(session: session)
    }

    private func lookup(_ id: String) throws(ControlError) -> Route {
        try catalog.requireRoute(id: id)
    }
}
