/// Held requests: a route with `{"hold": true}` keeps each matching request waiting before its
/// response until a test releases it (or the hold cap passes, or the server stops), so a UI test
/// can assert a loading state for as long as it needs.
extension StubControl {
    /// Sets how held requests are woken (the transport resumes their connections by ticket).
    package func setReleaser(_ wake: @escaping @Sendable ([UInt64]) -> Void) {
        releaser.withLock { $0 = wake }
    }

    /// The transport holds a request to `routeID` in `session` under `ticket`.
    package func holdStarted(ticket: UInt64, routeID: String, session: String?) {
        holds.withLock { $0.add(ticket, routeID: routeID, session: session) }
        noteChange()
    }

    /// A held request runs again; true when it was still held (woken by the hold cap or a
    /// shutdown), false when a release let it go.
    package func holdEnded(ticket: UInt64) -> Bool {
        let wasHeld = holds.withLock { $0.remove(ticket) }
        if wasHeld { noteChange() }
        return wasHeld
    }

    /// Releases the oldest `count` held requests of a route in a session (all when nil); they then
    /// go through normal selection, delay and fault. Returns how many were released.
    @discardableResult
    public func release(routeID: String, session: String?, count: Int? = nil) -> Int {
        let tickets = holds.withLock { $0.pop(routeID: routeID, session: session, count: count) }
        wake(tickets)
        if !tickets.isEmpty { noteChange() }
        return tickets.count
    }

    /// Requests of a route held now in a session.
    public func heldCount(routeID: String, session: String?) -> Int {
        holds.withLock { $0.count(routeID: routeID, session: session) }
    }

    func wake(_ tickets: [UInt64]) {
        guard !tickets.isEmpty, let wake = releaser.withLock({ $0 }) else { return }
        wake(tickets)
    }
}
