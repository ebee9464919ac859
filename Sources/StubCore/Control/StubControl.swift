#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tests steer at run time: per-route overrides and sequences, and the request journal,
/// each scoped by session (`X-Stub-Session`; nil is the global scope). The admin API and the
/// Swift API on `StubServer` both call this one implementation.
public final class StubControl: OverrideSource, Sendable {
    /// Requests held by admin holds (see `StubControl+Holds.swift`).
    let holds = Locked(HeldRequests())
    /// Wakes held requests by ticket; set by the transport.
    let releaser = Locked<(@Sendable ([UInt64]) -> Void)?>(nil)
    /// Live readers of the journal and of control changes (`GET /__stubd/journal/stream`).
    package let feed = JournalFeed()
    /// The WebSocket conversations, open and recently ended, with their messages.
    package let conversations: ConversationBook
    /// Requests that broke the API contract so far (`serve --openapi`).
    private let violations = Locked(0)

    /// Counts one request that broke the contract.
    package func countContractViolation() { violations.withLock { $0 += 1 } }

    /// Requests that broke the API contract since start.
    public var contractViolationCount: Int { violations.withLock { $0 } }

    struct State {
        var overrides: [Scope: [String: RouteOverride]] = [:]  // scope → route id → override
        var journal: RequestJournal
        var sessions: SessionExpiry

        /// Notes that a session's state was used, and drops expired sessions' state (the global
        /// scope never expires). Not while a fleet's store answers (`inStore`): it expires them,
        /// and the local copy follows at the next read.
        mutating func touch(_ scope: Scope, now: Double, inStore: Bool) {
            guard case .session(let session) = scope, !inStore else { return }
            for expired in sessions.touch(session, now: now) { overrides[.session(expired)] = nil }
        }
    }

    // Internal, not private: the fleet extension (StubControl+Fleet.swift) replaces overrides under it.
    let state: Locked<State>
    /// False while no scope has an override, so most requests skip the lock (see `decision`).
    /// Written only under `state`'s lock: true when one is added, recomputed when one goes.
    let mayHaveOverrides = AtomicWord<Bool>(false)

    /// Reads the state under its lock.
    func withState<T>(_ body: (State) -> T) -> T { state.withLock { body($0) } }
    /// Entries the journal keeps (per scope in a fleet's store).
    package let journalCapacity: Int
    /// True when the journal (and the WebSocket conversations' record) gives secrets verbatim
    /// (`--journal-credentials`), not redacted (`CredentialRedaction`).
    public let keepsCredentials: Bool
    let clock: @Sendable () -> Double
    /// The fleet's store when replicas share control state (`--state`); nil for one process.
    package let shared: (any SharedControlState)?
    /// State values and collections, per scope (reset with the scope).
    package let memory: StubMemory

    /// Seconds a session's overrides and sequences survive without use (default 10 minutes).
    public static let defaultSessionTTLSeconds = 600.0
    /// Sessions holding overrides at once; the least recently used go first (default 10,000).
    public static let defaultMaxSessions = 10_000

    /// A control with a journal of `journalSize` entries (0 disables the journal), whose sessions
    /// expire after `sessionTTLSeconds` without use or beyond `maxSessions`. `clock` gives
    /// seconds on any steady scale (tests pass their own). With `sharedState`, overrides,
    /// sequences, sessions, holds and the journal are shared with the other replicas on that store.
    /// `keepsCredentials` journals secrets verbatim instead of redacted.
    public init(journalSize: Int, sessionTTLSeconds: Double = StubControl.defaultSessionTTLSeconds,
                maxSessions: Int = StubControl.defaultMaxSessions,
                clock: @escaping @Sendable () -> Double = StubControl.monotonicSeconds,
                sharedState: SharedStateStore? = nil, keepsCredentials: Bool = false, memory: StubMemory? = nil) {
        let policy = SessionExpiry.Policy(ttlSeconds: max(1, sessionTTLSeconds), maxSessions: max(1, maxSessions))
        state = Locked(State(journal: RequestJournal(capacity: journalSize), sessions: SessionExpiry(policy: policy)))
        journalCapacity = max(0, journalSize)
        self.clock = clock
        shared = sharedState?.backend
        self.memory = memory ?? StubMemory()
        self.keepsCredentials = keepsCredentials
        conversations = ConversationBook(keepsSecrets: keepsCredentials)
    }

    /// Seconds on CLOCK_MONOTONIC, the default clock of session expiry: idle times must not jump
    /// with the wall clock.
    @Sendable public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sessions holding overrides or sequences now.
    public var sessionCount: Int { state.withLock { $0.overrides.keys.filter { $0 != .global }.count } }

    /// Sets (replaces) the override of `route` after checking every variant name against it. In a
    /// fleet, `requireStore` (the admin API) refuses with `.storeUnavailable`, changing nothing,
    /// when the store does not take the change; without it (the Swift API) this replica applies it
    /// alone until the store is back.
    public func setOverride(_ override: RouteOverride, for route: Route, session: String?, requireStore: Bool = false) throws(ControlError) {
        for name in [override.variant].compactMap({ $0 }) + override.sequence where route.variantIndex(named: name) == nil {
            throw .unknownVariant(route: route.id, variant: name, known: route.variants.map(\.name))
        }
        var o = override
        o.served = 0
        // Each sequence set gets its own step counter in the fleet's store.
        o.stepToken = shared != nil && !o.sequence.isEmpty ? StubControl.newToken() : nil
        let stored = shared?.write(o, routeID: route.id, scope: Scope(session)) ?? true
        if requireStore && !stored { throw .storeUnavailable }
        let now = clock()
        let inStore = shared?.isReachable ?? false
        state.withLock { s in
            s.touch(Scope(session), now: now, inStore: inStore)
            s.overrides[Scope(session), default: [:]][route.id] = o
            mayHaveOverrides.store(true, ordering: .releasing)
        }
        // Turning a hold off lets its requests go.
        if !o.hold { release(routeID: route.id, session: session, count: nil) }
        noteChange()
    }

    /// Removes the override of one route; false, changing nothing, when `requireStore` and the
    /// fleet's store did not take it (as for `setOverride`).
    @discardableResult
    public func clearOverride(routeID: String, session: String?, requireStore: Bool = false) -> Bool {
        let stored = shared?.write(nil, routeID: routeID, scope: Scope(session)) ?? true
        if requireStore && !stored { return false }
        state.withLock { s in
            let key = Scope(session)
            _ = s.overrides[key]?.removeValue(forKey: routeID)
            if s.overrides[key]?.isEmpty == true {
                s.overrides[key] = nil
                if case .session(let name) = key { s.sessions.forget(name) }
            }
            mayHaveOverrides.store(!s.overrides.isEmpty, ordering: .releasing)
        }
        release(routeID: routeID, session: session, count: nil)
        noteChange()
        return true
    }

    /// The override of one route, if any.
    public func override(routeID: String, session: String?) -> RouteOverride? {
        state.withLock { $0.overrides[Scope(session)]?[routeID] }
    }

    /// Every override in a scope.
    public func overrides(session: String?) -> [String: RouteOverride] {
        state.withLock { $0.overrides[Scope(session)] ?? [:] }
    }

    /// Clears overrides, sequences, the journal, and state and collections of one scope. In a
    /// fleet, `requireStore` (the admin API) refuses, changing nothing, when the store did not take
    /// the reset (false).
    @discardableResult
    public func reset(session: String?, requireStore: Bool = false) -> Bool {
        let stored = shared?.reset(Scope(session)) ?? true
        if requireStore && !stored { return false }
        do { try memory.reset(Scope(session)) } catch { if requireStore { return false } }
        state.withLock { s in
            let scope = Scope(session)
            s.overrides[scope] = nil
            mayHaveOverrides.store(!s.overrides.isEmpty, ordering: .releasing)
            if case .session(let name) = scope { s.sessions.forget(name) }
            s.journal.removeAll { $0.record.session == session }
        }
        wake(holds.withLock { $0.popAll(session: session) })
        noteChange()
        return true
    }
}
