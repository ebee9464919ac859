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
        // The fleet's list first: a replica that finds a ticket here and not there takes it as released.
        shared?.holdStarted(ticket: ticket, routeID: routeID, scope: Scope(session))
        holds.withLock { $0.add(ticket, routeID: routeID, session: session) }
        noteChange()
    }

    /// A held request runs again; true when it was still held (woken by the hold cap or a
    /// shutdown), false when a release let it go.
    package func holdEnded(ticket: UInt64) -> Bool {
        guard let key = holds.withLock({ $0.remove(ticket) }) else { return false }
        shared?.holdEnded(ticket: ticket, routeID: key.routeID, scope: key.scope)
        noteChange()
        return true
    }

    /// Releases the oldest `count` held requests of a route in a session (all when nil); they then
    /// go through normal selection, delay and fault. Returns how many were released.
    @discardableResult
    public func release(routeID: String, session: String?, count: Int? = nil) -> Int {
        // In a fleet the store knows every replica's held requests, oldest first.
        if let shared, let fleet = shared.release(routeID: routeID, scope: Scope(session), count: count) {
            releaseHeld(fleet.local)
            return fleet.released
        }
        let tickets = holds.withLock { $0.pop(routeID: routeID, session: session, count: count) }
        wake(tickets)
        if !tickets.isEmpty { noteChange() }
        return tickets.count
    }

    /// Wakes those of `tickets` still held here (another replica released them through the store).
    package func releaseHeld(_ tickets: [UInt64]) {
        let held = holds.withLock { h in tickets.filter { h.remove($0) != nil } }
        wake(held)
        if !held.isEmpty { noteChange() }
    }

    /// Requests of a route held now in a session (across the fleet when the store answers).
    public func heldCount(routeID: String, session: String?) -> Int {
        if let shared, let count = shared.heldCount(routeID: routeID, scope: Scope(session)) { return count }
        return holds.withLock { $0.count(routeID: routeID, session: session) }
    }

    func wake(_ tickets: [UInt64]) {
        guard !tickets.isEmpty, let wake = releaser.withLock({ $0 }) else { return }
        wake(tickets)
    }
}
