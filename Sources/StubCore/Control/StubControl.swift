#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What tests steer at run time: per-route overrides and sequences, and the request journal,
/// each scoped by session (`X-Stub-Session`; nil is the global scope). The admin API and the
/// Swift API on `StubServer` both call this one implementation.
public final class StubControl: OverrideSource, Sendable {
    private struct State {
        var overrides: [String: [String: RouteOverride]] = [:]  // session key → route id → override
        var journal: RequestJournal
    }

    private let state: Locked<State>
    private let journalCapacity: Int

    /// A control with a journal of `journalSize` entries (0 disables the journal).
    public init(journalSize: Int) {
        state = Locked(State(journal: RequestJournal(capacity: journalSize)))
        journalCapacity = max(0, journalSize)
    }

    static func key(_ session: String?) -> String { session ?? "" }

    /// Sets (replaces) the override of `route` after checking every variant name against it.
    public func setOverride(_ override: RouteOverride, for route: Route, session: String?) throws(ControlError) {
        for name in [override.variant].compactMap({ $0 }) + override.sequence where route.variantIndex(named: name) == nil {
            throw .unknownVariant(route: route.id, variant: name, known: route.variants.map(\.name))
        }
        var o = override
        o.served = 0
        state.withLock { $0.overrides[StubControl.key(session), default: [:]][route.id] = o }
    }

    /// Removes the override of one route.
    public func clearOverride(routeID: String, session: String?) {
        state.withLock { _ = $0.overrides[StubControl.key(session)]?.removeValue(forKey: routeID) }
    }

    /// The override of one route, if any.
    public func override(routeID: String, session: String?) -> RouteOverride? {
        state.withLock { $0.overrides[StubControl.key(session)]?[routeID] }
    }

    /// Every override in a scope.
    public func overrides(session: String?) -> [String: RouteOverride] {
        state.withLock { $0.overrides[StubControl.key(session)] ?? [:] }
    }

    /// For the planner: the next sequence step, else the sticky override. Advances the sequence
    /// only when `advance` is true (a request that picks its own variant does not use up a step).
    package func decision(forRoute routeID: String, session: String?, advance: Bool) -> OverrideDecision? {
        state.withLock { s -> OverrideDecision? in
            // Most requests come with no override anywhere: skip hashing the session and route.
            guard !s.overrides.isEmpty else { return nil }
            let key = StubControl.key(session)
            guard var o = s.overrides[key]?[routeID] else { return nil }
            var decision = OverrideDecision(variant: o.variant, delay: o.delay, fault: o.fault, throttleBytesPerSecond: o.throttleBytesPerSecond)
            if advance && o.served < o.sequence.count {
                decision.variant = o.sequence[o.served]
                decision.fromSequence = true
                o.served += 1
                s.overrides[key]?[routeID] = o
            }
            return decision
        }
    }

    /// True when the journal keeps entries (`--journal-size` above 0).
    public var keepsJournal: Bool { journalCapacity > 0 }

    /// Records an answered request in the journal.
    public func record(_ record: RequestRecord) {
        guard keepsJournal else { return }
        let trimmed = RequestJournal.trimmed(record)
        // The dropped entry is freed here, after the lock is released.
        let dropped = state.withLock { $0.journal.append(trimmed) }
        _ = dropped
    }

    /// Journal entries of one scope, oldest first, filtered.
    public func requests(session: String?, filter: JournalFilter = JournalFilter()) -> [RequestJournal.Entry] {
        let all = state.withLock { $0.journal.entries }
        let matching = all.filter { $0.record.session == session && filter.matches($0) }
        if let limit = filter.limit, matching.count > limit { return Array(matching.suffix(limit)) }
        return matching
    }

    /// Clears the journal of one scope.
    public func clearRequests(session: String?) {
        state.withLock { $0.journal.removeAll { $0.record.session == session } }
    }

    /// Clears overrides, sequences and the journal of one scope.
    public func reset(session: String?) {
        state.withLock { s in
            s.overrides[StubControl.key(session)] = nil
            s.journal.removeAll { $0.record.session == session }
        }
    }
}

/// Why a control call was refused.
public enum ControlError: Error, Sendable, Equatable {
    /// No route has this id.
    case unknownRoute(String, known: [String])
    /// The route has no variant of this name.
    case unknownVariant(route: String, variant: String, known: [String])
    /// A delay outside 0...3600000 ms.
    case invalidDelay(Int)
}

/// Filters for journal queries (`route`, `method`, `path`, `since`, `limit`).
public struct JournalFilter: Sendable {
    /// Route id.
    public var route: String?
    /// Method, case-insensitive.
    public var method: String?
    /// Exact request path.
    public var path: String?
    /// Only entries with a larger id.
    public var sinceID: Int?
    /// Only entries received at or after this time.
    public var sinceTime: Date?
    /// At most this many (the newest).
    public var limit: Int?

    /// Makes a filter; nil fields do not filter.
    public init(route: String? = nil, method: String? = nil, path: String? = nil, sinceID: Int? = nil, sinceTime: Date? = nil, limit: Int? = nil) {
        self.route = route
        self.method = method
        self.path = path
        self.sinceID = sinceID
        self.sinceTime = sinceTime
        self.limit = limit
    }

    func matches(_ entry: RequestJournal.Entry) -> Bool {
        let r = entry.record
        if let route, r.routeID != route { return false }
        if let method, r.request.method != method.uppercased() { return false }
        if let path, r.request.path != path { return false }
        if let sinceID, entry.id <= sinceID { return false }
        if let sinceTime, r.receivedAt < sinceTime { return false }
        return true
    }
}
