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

/// What one replica reports to the others: its name and the stub set it serves.
struct ReplicaReport: Sendable, Equatable {
    var name: String
    /// A digest of the stub directory's files.
    var stubs: String
    /// `ok`, or `degraded` when its last reload failed.
    var reload: String
    var routes: Int

    var json: JSONValue {
        .object([("name", .string(name)), ("stubs", .string(stubs)), ("reload", .string(reload)), ("routes", .number(Double(routes)))])
    }

    static func read(_ json: JSONValue) -> ReplicaReport? {
        guard case .string(let name)? = json["name"], case .string(let stubs)? = json["stubs"], case .string(let reload)? = json["reload"] else { return nil }
        return ReplicaReport(name: name, stubs: stubs, reload: reload, routes: json["routes"]?.wholeNumber(in: 0...Int.max) ?? 0)
    }
}

/// Health in a fleet: the store's reachability, the journal entries lost, and whether the
/// replicas serve the same stubs.
extension RedisControlState {
    func health() -> (degraded: Bool, report: JSONValue) {
        let s = status.withLock { $0 }
        let waiting = max(0, (boundControl?.lastJournalID ?? 0) - sentUpTo.load(ordering: .relaxed))
        let dropped = journalDropped.load(ordering: .relaxed)
        let up = isReachable
        let sets = Set(s.replicas.map(\.stubs))
        var members: [(key: String, value: JSONValue)] = [
            ("url", .string(url.redacted)),
            ("status", .string(up ? "ok" : "unreachable")),
            ("replica", .string(replica)),
            ("replicas", .array(s.replicas.map(\.json))),
            ("sameStubs", .bool(sets.count <= 1)),
            ("journalWaiting", .number(Double(waiting))),
            ("journalDropped", .number(Double(dropped))),
        ]
        if let error = s.lastError { members.append(("error", .string(error))) }
        if let since = s.downSince, !up { members.append(("unreachableSince", .string(ISO8601.format(since)))) }
        if sets.count > 1 { members.append(("warning", .string("replicas serve different stub sets; see replicas[].stubs"))) }
        if !s.unreadableOverrides.isEmpty {
            // Served without them, so health says so: a test would otherwise see stubs it did not set.
            members.append(("unreadableOverrides", .array(s.unreadableOverrides.prefix(20).map { .string($0) })))
            members.append(("overridesWarning", .string("\(s.unreadableOverrides.count) override(s) in the store could not be read and are not served")))
        }
        return (!up || !s.unreadableOverrides.isEmpty, .object(members))
    }

    func catalogChanged(ok: Bool, routes: Int) {
        let directory = stubDirectory.withLock { $0 }
        let digest = StubDirectoryDigest.digest(directory)
        status.withLock { s in
            // A failed reload keeps serving the last good stubs: their digest and count stay.
            guard ok else { return s.stubs.reload = "degraded" }
            s.stubs = ReplicaReport(name: replica, stubs: digest, reload: "ok", routes: routes)
        }
    }

    /// Reports this replica and reads every replica's report (the worker, once a second).
    func heartbeat(on c: RedisConnection) throws(StoreError) {
        let mine = status.withLock { $0.stubs }
        let names = try c.pipeline([["SET", FleetKeys.replica(replica), mine.json.serialized(), "PX", "5000"],
                                    ["SADD", FleetKeys.replicas, replica], ["SMEMBERS", FleetKeys.replicas]])[2].elements.compactMap(\.text).sorted()
        guard !names.isEmpty else { return }
        let reports = try c.command(["MGET"] + names.map(FleetKeys.replica)).elements
        var alive: [ReplicaReport] = []
        var gone: [String] = []
        for (name, reply) in zip(names, reports) {
            if case .string(let bytes) = reply, let json = try? JSONParser.parse(bytes), let report = ReplicaReport.read(json) {
                alive.append(report)
            } else {
                gone.append(name)
            }
        }
        if !gone.isEmpty { _ = try c.command(["SREM", FleetKeys.replicas] + gone) }
        status.withLock { $0.replicas = alive }
    }

    /// Waits (at most `withinMs`) until every live replica's (or every other one's) number under
    /// `key` is at least `atLeast`; a replica without one counts as done when `missingIsDone`.
    func awaitReports(_ key: (String) -> String, atLeast: Int, withinMs: UInt64, others: Bool, missingIsDone: Bool) {
        let deadline = MonotonicClock.now() + withinMs * 1_000_000
        while MonotonicClock.now() < deadline {
            let reports = call { c throws(StoreError) -> [RedisReply] in
                let names = try c.command(["SMEMBERS", FleetKeys.replicas]).elements.compactMap(\.text).filter { !others || $0 != replica }
                return names.isEmpty ? [] : try c.command(["MGET"] + names.map(key)).elements
            }
            guard let reports else { return }
            if reports.allSatisfy({ $0.int.map { $0 >= atLeast } ?? missingIsDone }) { return }
            usleep(500)
        }
    }

    /// Says which version this replica serves now: the replica that made a change waits for every
    /// other to say it before it answers its caller. Said again every second, and kept 3 s: a
    /// replica that died stops being waited for within 3 s.
    func reportApplied(_ version: Int, on c: RedisConnection) throws(StoreError) {
        _ = try c.command(["SET", FleetKeys.applied(replica), String(version), "PX", "3000"])
    }

    /// Moves the expiry of the sessions used here since the last flush.
    func flushTouches(on c: RedisConnection) throws(StoreError) {
        let sessions = touchedSessions.withLock { t -> Set<String> in defer { t = [] }; return t }
        let commands = sessions.flatMap { sessionCommands(.session($0)) }
        if !commands.isEmpty { _ = try c.pipeline(commands) }
    }
}
