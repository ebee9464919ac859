#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Overrides, sequences and sessions in the store: written by the replica that was asked, read
/// back by every replica into its local copy.
extension RedisControlState {
    @discardableResult
    func write(_ override: RouteOverride?, routeID: String, scope: Scope) -> Bool {
        let key = FleetKeys.overrides(scope)
        var commands: [[String]]
        if let override {
            let value = (override.stepToken ?? "") + "\n" + override.storedJSON.serialized()
            commands = [["HSET", key, routeID, value], ["SADD", FleetKeys.scopes, FleetKeys.scopeKey(scope)]]
            if let token = override.stepToken { commands.append(["SET", FleetKeys.step(token), "0", "EX", String(stepLifetime)]) }
            commands += sessionCommands(scope)
        } else {
            commands = [["HDEL", key, routeID]]
        }
        return announce(commands) != nil
    }

    @discardableResult
    func reset(_ scope: Scope) -> Bool {
        // What the replicas still hold is sent first, as for a read: sent after the DEL, the
        // entries of requests answered before the reset would come back.
        awaitJournals()
        var commands = [["DEL", FleetKeys.overrides(scope)], ["SREM", FleetKeys.scopes, FleetKeys.scopeKey(scope)],
                        ["DEL", FleetKeys.journal(scope)]]
        if case .session(let name) = scope { commands.append(["ZREM", FleetKeys.sessions, name]) }
        guard announce(commands) != nil else { return false }
        releaseAll(in: scope)
        return true
    }

    func takeStep(token: String, then: @escaping @Sendable (Int?) -> Void) {
        perform { [self] in then(call { c throws(StoreError) in try c.command(["INCR", FleetKeys.step(token)]).int } ?? nil) }
    }

    func touched(session: String) {
        touchedSessions.withLock { _ = $0.insert(session) }
    }

    /// Seconds a sequence's step counter outlives its last use.
    var stepLifetime: Int { Int(boundControl?.sessionPolicy.ttlSeconds ?? 600) + 86_400 }

    /// A session scope's expiry and place in the session cap.
    func sessionCommands(_ scope: Scope) -> [[String]] {
        guard case .session(let name) = scope, let policy = boundControl?.sessionPolicy else { return [] }
        return [["EXPIRE", FleetKeys.overrides(scope), String(Int(policy.ttlSeconds))],
                ["ZADD", FleetKeys.sessions, String(Int(Date().timeIntervalSince1970 * 1000)), name]]
    }

    /// Runs `commands`, then counts a new version and announces it; nil when the store did not take
    /// them. Guarded (`RedisConnection.guarded`): a change answered 503 never runs later.
    func announce(_ commands: [[String]]) -> Int? {
        let version = call { c throws(StoreError) in try c.guarded(commands + [["INCR", FleetKeys.version]]).last?.int }
        guard let version = version ?? nil else { return nil }
        writtenVersion.update(ordering: .relaxed) { max($0, version) }
        // Taken, whatever becomes of the notice: one lost is found by the replicas' version check.
        _ = call { c throws(StoreError) in try c.command(["PUBLISH", FleetKeys.changes, String(version)]) }
        enforceSessionCap()
        awaitReplicas(version)
        return version
    }

    /// Waits (at most 250 ms) until every other live replica serves `version`, so a caller that
    /// changes something through one replica finds it on all of them, as with one process. A
    /// replica without a report is gone or not started: nothing to wait for.
    func awaitReplicas(_ version: Int) {
        awaitReports(FleetKeys.applied, atLeast: version, withinMs: 250, others: true, missingIsDone: true)
    }

    /// Drops the least recently used sessions beyond the cap, fleet-wide.
    func enforceSessionCap() {
        guard let policy = boundControl?.sessionPolicy else { return }
        let evicted = call { c throws(StoreError) -> [String] in
            guard let count = try c.command(["ZCARD", FleetKeys.sessions]).int, count > policy.maxSessions else { return [] }
            return try c.guarded([["ZPOPMIN", FleetKeys.sessions, String(count - policy.maxSessions)]])[0].elements.enumerated()
                .compactMap { $0.offset % 2 == 0 ? $0.element.text : nil }
        } ?? []
        guard !evicted.isEmpty else { return }
        let scopes = evicted.map { Scope.session($0) }
        _ = announce(scopes.flatMap { [["DEL", FleetKeys.overrides($0)], ["SREM", FleetKeys.scopes, FleetKeys.scopeKey($0)]] })
    }

    /// Reads every scope's overrides (with their sequences' step counts) and the version they are
    /// at; `unreadable` names those the store holds that this replica cannot read (`scope route`),
    /// for health: an override left out must not pass unseen.
    static func readOverrides(_ c: RedisConnection) throws(StoreError)
        -> (version: Int, overrides: [Scope: [String: RouteOverride]], unreadable: [String]) {
        let head = try c.pipeline([["GET", FleetKeys.version], ["SMEMBERS", FleetKeys.scopes]])
        let version = head[0].int ?? 0
        let scopes = head[1].elements.compactMap { $0.text }.compactMap { key in FleetKeys.scope(key).map { (key, $0) } }
        let hashes = try c.pipeline(scopes.map { ["HGETALL", FleetKeys.overrides($0.1)] })
        var found: [Scope: [String: RouteOverride]] = [:]
        var gone: [String] = []
        var unreadable: [String] = []
        for ((key, scope), reply) in zip(scopes, hashes) {
            let items = reply.elements
            if items.isEmpty { gone.append(key) }
            for pair in stride(from: 0, to: items.count - 1, by: 2) {
                guard let route = items[pair].text, case .string(let value) = items[pair + 1],
                      let newline = value.firstIndex(of: 10), var o = RouteOverride.stored(Array(value[(newline + 1)...])) else {
                    unreadable.append("\(key) \(items[pair].text ?? "(a field that is not text)")")
                    continue
                }
                let token = String(decoding: value[..<newline], as: UTF8.self)
                o.stepToken = token.isEmpty ? nil : token
                found[scope, default: [:]][route] = o
            }
        }
        // Sessions that expired in the store leave its list of scopes too.
        if !gone.isEmpty { _ = try c.command(["SREM", FleetKeys.scopes] + gone) }
        let tokens = found.values.flatMap { $0.values.compactMap(\.stepToken) }
        if !tokens.isEmpty {
            let counts = try c.command(["MGET"] + tokens.map(FleetKeys.step)).elements.map { $0.int ?? 0 }
            let served = Dictionary(zip(tokens, counts), uniquingKeysWith: { a, _ in a })
            for (scope, routes) in found {
                for (id, o) in routes { if let token = o.stepToken { found[scope]?[id]?.served = min(o.sequence.count, served[token] ?? 0) } }
            }
        }
        return (version, found, unreadable)
    }

    /// Replaces the store's overrides with this replica's copy, at `version` (the store came back
    /// with less than this replica had seen). Guarded: one that timed out cannot overwrite later changes.
    static func writeBack(_ overrides: [Scope: [String: RouteOverride]], version: Int, on c: RedisConnection) throws(StoreError) {
        let stale = try c.command(["SMEMBERS", FleetKeys.scopes]).elements.compactMap { $0.text.flatMap(FleetKeys.scope) }
        var commands: [[String]] = stale.map { ["DEL", FleetKeys.overrides($0)] } + [["DEL", FleetKeys.scopes]]
        for (scope, routes) in overrides {
            for (id, o) in routes {
                commands.append(["HSET", FleetKeys.overrides(scope), id, (o.stepToken ?? "") + "\n" + o.storedJSON.serialized()])
                if let token = o.stepToken { commands.append(["SET", FleetKeys.step(token), String(o.served)]) }
            }
            commands.append(["SADD", FleetKeys.scopes, FleetKeys.scopeKey(scope)])
        }
        commands.append(["SET", FleetKeys.version, String(version)])
        _ = try c.guarded(commands)
        _ = try c.command(["PUBLISH", FleetKeys.changes, String(version)])
    }
}
