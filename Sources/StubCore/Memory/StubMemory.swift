import StubSystem

/// The one owner of what stubs remember: state values and collections, kept per scope in a
/// `MemoryStore` (this process's, or a fleet's), with the rules for changing them in one place.
/// Planning reaches it only for routes that remember (`Route.memory`); the admin API reads,
/// replaces and resets it; a scope's reset and a dropped session put the seeds back.
public final class StubMemory: Sendable {
    /// Where the values are kept.
    package let store: any MemoryStore
    /// Bounds on what requests may store.
    package let limits: MemoryLimits
    /// The seed of every generated value when neither the request nor its session gives one.
    package let seed: UInt64
    /// Per scope and route: renders so far (the `{{counter}}`, and which draw of the seed).
    private let draws = Locked([Scope: [String: Int]]())
    /// Seeds sessions set (`PUT /__stubd/seed`).
    private let scopeSeeds = Locked([Scope: UInt64]())
    /// When sessions that remember go (`--session-ttl`, `--max-sessions`), as overrides do.
    private let sessions: Locked<SessionExpiry>
    private let clock: @Sendable () -> Double

    /// A memory over `store`; sessions idle for `sessionTTLSeconds`, or beyond `maxSessions`, lose
    /// what they remember (a fleet's store lets them expire after the same time).
    package init(store: any MemoryStore = LocalMemoryStore(), limits: MemoryLimits = MemoryLimits(), seed: UInt64 = 1,
                 sessionTTLSeconds: Double = StubControl.defaultSessionTTLSeconds, maxSessions: Int = StubControl.defaultMaxSessions,
                 clock: @escaping @Sendable () -> Double = StubControl.monotonicSeconds) {
        self.store = store
        self.limits = limits
        self.seed = seed
        sessions = Locked(SessionExpiry(policy: .init(ttlSeconds: max(1, sessionTTLSeconds), maxSessions: max(1, maxSessions))))
        self.clock = clock
        store.expireSessions(afterSeconds: Int(max(1, sessionTTLSeconds).rounded(.up)))
    }

    /// Notes that a session used its memory; sessions idle too long (or past the cap) are reset.
    func touch(_ scope: Scope) {
        guard case .session(let name) = scope, !store.isRemote else { return }
        let now = clock()
        let dropped = sessions.withLock { $0.touch(name, now: now) }
        for expired in dropped { try? reset(.session(expired)) }
    }

    /// Seconds a session's values live in a fleet's store after its last change.
    package var sessionTTLSeconds: Double { sessions.withLock { $0.policy.ttlSeconds } }

    /// The next render's number (1 for the first) for a route in a scope.
    func nextDraw(scope: Scope, routeID: String) -> Int {
        draws.withLock { all in
            let n = (all[scope]?[routeID] ?? 0) + 1
            all[scope, default: [:]][routeID] = n
            return n
        }
    }

    /// The seed of a scope: its own when set, else the server's.
    package func seed(of scope: Scope) -> UInt64 {
        scopeSeeds.withLock { $0[scope] } ?? seed
    }

    /// Sets (nil: clears) a scope's seed; its counters start again so the same requests draw the
    /// same values.
    package func setSeed(_ value: UInt64?, scope: Scope) {
        scopeSeeds.withLock { $0[scope] = value }
        draws.withLock { $0[scope] = nil }
    }

    /// Puts a scope's seeds back: what requests stored, counters and the scope's seed.
    package func reset(_ scope: Scope) throws(MemoryError) {
        try store.reset(scope, space: nil)
        draws.withLock { $0[scope] = nil }
        scopeSeeds.withLock { $0[scope] = nil }
    }

    /// Runs `body` until its commit is not a conflict (at most `limits.retries` times); each
    /// try reads afresh. Replicas changing one value at once each get their turn, none lost.
    func retrying<T>(_ body: () throws(MemoryError) -> (CommitOutcome, T)) throws(MemoryError) -> T {
        for _ in 0..<limits.retries {
            let (outcome, value) = try body()
            if outcome == .done { return value }
        }
        throw MemoryError("the value changed under \(limits.retries) tries in a row; try again")
    }
}

/// How much requests may store, each a setting in the table.
package struct MemoryLimits: Sendable, Equatable {
    /// Objects in one collection per scope (`--max-collection-objects`).
    package var maxObjects = 100_000
    /// Bytes of state values per service and scope (`--max-state-bytes`).
    package var maxStateBytes = 1 << 20
    /// Bytes of one object sent to a collection.
    package var maxObjectBytes = 1 << 20
    /// Commits retried on a conflict before the request gets a 503.
    package var retries = 1000

    /// The defaults.
    package init(maxObjects: Int = 100_000, maxStateBytes: Int = 1 << 20) {
        self.maxObjects = maxObjects
        self.maxStateBytes = maxStateBytes
    }
}
