/// Requests held by an admin `hold`, per session and route, oldest first. The transport adds each
/// held request's wake-up ticket and removes it when the request runs again; a release pops
/// tickets and hands them to the transport's releaser, which wakes those requests.
package struct HeldRequests: Sendable {
    /// Held requests are kept per scope and route.
    struct Key: Hashable {
        let scope: Scope
        let routeID: String
    }

    private var tickets: [Key: [UInt64]] = [:]

    static func key(_ session: String?, _ routeID: String) -> Key { Key(scope: Scope(session), routeID: routeID) }

    mutating func add(_ ticket: UInt64, routeID: String, session: String?) {
        tickets[HeldRequests.key(session, routeID), default: []].append(ticket)
    }

    /// Removes `ticket`; its route and scope when it was still held (the hold cap or a shutdown
    /// woke it, not a release), else nil.
    mutating func remove(_ ticket: UInt64) -> Key? {
        for (key, list) in tickets {
            guard let index = list.firstIndex(of: ticket) else { continue }
            tickets[key]?.remove(at: index)
            if tickets[key]?.isEmpty == true { tickets[key] = nil }
            return key
        }
        return nil
    }

    /// Pops the oldest `count` (all when nil) of a route in a session.
    mutating func pop(routeID: String, session: String?, count: Int?) -> [UInt64] {
        let key = HeldRequests.key(session, routeID)
        let list = tickets[key] ?? []
        let taken = Array(list.prefix(count ?? list.count))
        let rest = Array(list.dropFirst(taken.count))
        tickets[key] = rest.isEmpty ? nil : rest
        return taken
    }

    func count(routeID: String, session: String?) -> Int {
        tickets[HeldRequests.key(session, routeID)]?.count ?? 0
    }

    /// Held requests per named session.
    func countsBySession() -> [String: Int] {
        var counts: [String: Int] = [:]
        for (key, list) in tickets { if case .session(let name) = key.scope { counts[name, default: 0] += list.count } }
        return counts
    }

    /// Every ticket of a session (for a reset).
    mutating func popAll(session: String?) -> [UInt64] {
        let scope = Scope(session)
        var taken: [UInt64] = []
        for key in tickets.keys where key.scope == scope { taken += tickets.removeValue(forKey: key) ?? [] }
        return taken
    }
}
