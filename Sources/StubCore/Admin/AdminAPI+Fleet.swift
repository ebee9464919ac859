#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The admin API in a fleet (`serve --state`): the journal every replica wrote, and changes
/// refused while the store is away (they would reach this replica only).
extension AdminAPI {
    /// The fleet's journal entries that `filter` picks, oldest first; nil outside a fleet or while
    /// the store is unreachable (the local journal answers then).
    func fleetJournal(session: String?, filter: JournalFilter) -> [JSONValue]? {
        guard let shared = control.shared, shared.isReachable,
              let all = shared.journalEntries(scope: filter.allSessions ? nil : Scope(session)) else { return nil }
        let matching = all.filter { AdminAPI.entry($0, matches: filter) }
        if let limit = filter.limit, matching.count > limit { return Array(matching.suffix(limit)) }
        return matching
    }

    /// `filter` applied to an entry in the admin API's JSON form.
    static func entry(_ json: JSONValue, matches filter: JournalFilter) -> Bool {
        func text(_ key: String) -> String? {
            if case .string(let s)? = json[key] { return s }
            return nil
        }
        return filter.matches(route: text("route"), operation: text("operation"), method: text("method"), path: text("path"),
                              id: json["id"]?.wholeNumber(in: Int.min...Int.max) ?? 0, time: text("time").flatMap(ISO8601.parse))
    }

    /// A 503 for a change asked of a replica whose store is unreachable; nil when it may go ahead.
    func refusedWhileStoreAway(_ method: String) -> Reply? {
        guard method != "GET", method != "HEAD", let shared = control.shared, !shared.isReachable else { return nil }
        return storeAwayReply
    }

    /// The 503 for a change the store is not there to take (checked before, or found during the call).
    var storeAwayReply: Reply {
        .error(503, "state store unreachable", [
            ("hint", .string("a change made now would reach this replica only; retry once GET /__stubd/health says ok")),
        ], headers: [HTTPHeader("Retry-After", "1")])
    }

    /// Health's `store` member, and whether it degrades health.
    func fleetHealth() -> (degraded: Bool, member: (key: String, value: JSONValue))? {
        guard let shared = control.shared else { return nil }
        let (degraded, report) = shared.health()
        return (degraded, ("store", report))
    }
}
