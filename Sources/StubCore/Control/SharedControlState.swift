/// Where a fleet's control state lives when replicas share it (`serve --state redis://…`).
/// `StubControl` keeps a local copy of every override and answers plain requests from it; this
/// store is told of each change made here, hands out sequence steps so each is taken once across
/// the fleet, keeps held requests for every replica, sends the local journal's new entries on
/// (read from `StubControl`, off the request path), and refreshes the local copy when another
/// replica changes something. Every call falls back to local state, at once, while
/// the store is unreachable (`isReachable` false). No call made for a request runs on the
/// thread that serves it: those are queued to the store's own thread (`takeStep`, holds).
package protocol SharedControlState: AnyObject, Sendable {
    /// True while the store answers.
    var isReachable: Bool { get }
    /// Connects (once, before returning) and starts the store's threads for `control`, whose
    /// `routes` stubs come from `stubDirectory`.
    func start(control: StubControl, stubDirectory: String, routes: Int)
    /// Stops those threads; journal entries not yet sent are sent first when the store answers.
    func stop()

    /// Writes one route's override in a scope (nil clears it); true when the store took it. A
    /// store that does not is marked unreachable.
    @discardableResult
    func write(_ override: RouteOverride?, routeID: String, scope: Scope) -> Bool
    /// Removes a scope's overrides and journal; true when the store took it.
    @discardableResult
    func reset(_ scope: Scope) -> Bool
    /// Takes the next step of the sequence stored under `token` off the calling thread, in turn
    /// with the other calls made for requests: `then` gets 1 for the first, and so on; nil when
    /// the store is unreachable.
    func takeStep(token: String, then: @escaping @Sendable (Int?) -> Void)
    /// Runs `job`, which may call the store, on the store's own thread after the calls queued
    /// before it (an admin call: never on a thread that serves requests).
    func perform(_ job: @escaping @Sendable () -> Void)
    /// A session with overrides was used here (its expiry in the store moves on).
    func touched(session: String)

    /// A request is held here under `ticket`; the store hears of it on its own thread, in turn.
    func holdStarted(ticket: UInt64, routeID: String, scope: Scope)
    /// A request held here ran again without a release (the hold cap or a stop); told to the
    /// store as `holdStarted` is.
    func holdEnded(ticket: UInt64, routeID: String, scope: Scope)
    /// Releases the fleet's oldest `count` held requests of a route (all when nil): the others'
    /// are woken through the store, this replica's tickets are returned. Nil when unreachable.
    func release(routeID: String, scope: Scope?, count: Int?) -> (released: Int, local: [UInt64])?
    /// Requests of a route held across the fleet; nil when unreachable.
    func heldCount(routeID: String, scope: Scope) -> Int?

    /// The fleet's journal entries of a scope (every scope when nil), oldest first, as the admin
    /// API shows them; nil when unreachable.
    func journalEntries(scope: Scope?) -> [JSONValue]?
    /// Empties a scope's journal in the store.
    func clearJournal(_ scope: Scope)

    /// What `/__stubd/health` says of the store and the fleet, and whether that degrades health.
    func health() -> (degraded: Bool, report: JSONValue)
    /// The stub set was (re)loaded, or a reload failed (`ok` false).
    func catalogChanged(ok: Bool, routes: Int)
}

/// A state store for `StubServerConfiguration.sharedState`: replicas given stores on the same
/// Valkey or Redis share overrides, sequences, sessions, holds and the journal. Made by the
/// `StubFleet` module (`SharedStateStore.redis(…)`).
public final class SharedStateStore: Sendable {
    package let backend: any SharedControlState
    /// Where state values and collections are shared; nil keeps them per replica.
    package let memoryStore: (any MemoryStore)?

    /// Wraps a backend.
    package init(_ backend: any SharedControlState, memoryStore: (any MemoryStore)? = nil) {
        self.backend = backend
        self.memoryStore = memoryStore
    }

    /// True while the store answers.
    public var isReachable: Bool { backend.isReachable }
}
