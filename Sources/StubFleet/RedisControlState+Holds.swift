import StubCore

/// Held requests across the fleet: each replica lists the requests it holds, oldest first, under
/// the route and scope; a release takes the oldest from that list, wakes this replica's own at
/// once and tells the others on the release channel.
extension RedisControlState {
    func holdStarted(ticket: UInt64, routeID: String, scope: Scope) {
        let list = FleetKeys.held(scope, routeID)
        perform { [self] in
            guard call({ c throws(StoreError) in try c.pipeline([["RPUSH", list, entry(ticket)], ["SADD", FleetKeys.heldLists, list]]) }) != nil else { return }
            listed.withLock { _ = $0[list, default: []].insert(ticket) }
        }
    }

    func holdEnded(ticket: UInt64, routeID: String, scope: Scope) {
        let list = FleetKeys.held(scope, routeID)
        // After the start on the same thread: the ticket is listed by then, or never was.
        perform { [self] in
            unlist(list, [ticket])
            _ = call { c throws(StoreError) in try c.command(["LREM", list, "1", entry(ticket)]) }
        }
    }

    private func unlist(_ list: String, _ tickets: [UInt64]) {
        listed.withLock { l in
            for ticket in tickets { l[list]?.remove(ticket) }
            if l[list]?.isEmpty == true { l[list] = nil }
        }
    }

    /// Wakes requests held here that their list no longer has (a release whose notice was
    /// missed); the worker runs this once a second.
    func reconcileHolds(on c: RedisConnection) throws(StoreError) {
        let snapshot = listed.withLock { $0 }
        guard !snapshot.isEmpty else { return }
        let lists = Array(snapshot.keys)
        let contents = try c.pipeline(lists.map { ["LRANGE", $0, "0", "-1"] })
        var gone: [UInt64] = []
        for (list, reply) in zip(lists, contents) {
            let present = Set(reply.elements.compactMap(\.text))
            let missing = snapshot[list, default: []].filter { !present.contains(entry($0)) }
            unlist(list, Array(missing))
            gone += missing
        }
        if !gone.isEmpty { boundControl?.releaseHeld(gone) }
    }

    /// Lists this replica's held requests again in a store that came back (it may have lost them);
    /// each goes to the end of its list.
    func relistHolds(on c: RedisConnection) throws(StoreError) {
        let snapshot = listed.withLock { $0 }
        let commands = snapshot.flatMap { list, tickets in
            tickets.sorted().flatMap { [["LREM", list, "0", entry($0)], ["RPUSH", list, entry($0)]] } + [["SADD", FleetKeys.heldLists, list]]
        }
        if !commands.isEmpty { _ = try c.pipeline(commands) }
    }

    func release(routeID: String, scope: Scope?, count: Int?) -> (released: Int, local: [UInt64])? {
        guard let scope, let taken = take(from: FleetKeys.held(scope, routeID), count: count) else { return nil }
        return (taken.count, announceRelease(taken))
    }

    func heldCount(routeID: String, scope: Scope) -> Int? {
        call { c throws(StoreError) in try c.command(["LLEN", FleetKeys.held(scope, routeID)]).int } ?? nil
    }

    /// Releases every request held in a scope, on every replica (a reset).
    func releaseAll(in scope: Scope) {
        let prefix = FleetKeys.heldPrefix(scope)
        guard let lists = call({ c throws(StoreError) in try c.command(["SMEMBERS", FleetKeys.heldLists]).elements.compactMap(\.text) }) else { return }
        var taken: [String] = []
        for list in lists where list.hasPrefix(prefix) { taken += take(from: list, count: nil) ?? [] }
        boundControl?.releaseHeld(announceRelease(taken))
    }

    /// Takes the oldest `count` entries of a held list (all when nil), atomically; guarded, so a
    /// take that timed out (this replica then releases its own alone) takes nothing later.
    private func take(from list: String, count: Int?) -> [String]? {
        let last = count.map { String($0 - 1) } ?? "-1"
        return call { c throws(StoreError) -> [String] in
            guard count != 0 else { return [] }
            let trim = count.map { ["LTRIM", list, String($0), "-1"] } ?? ["DEL", list]
            return try c.guarded([["LRANGE", list, "0", last], trim])[0].elements.compactMap(\.text)
        }
    }

    /// Tells the other replicas which of their requests to wake; returns this replica's tickets.
    private func announceRelease(_ taken: [String]) -> [UInt64] {
        var local: [UInt64] = []
        var others = false
        for item in taken {
            guard let tab = item.lastIndex(of: "\t") else { continue }
            if item[..<tab] == replica { local += UInt64(item[item.index(after: tab)...]).map { [$0] } ?? [] } else { others = true }
        }
        listed.withLock { l in for list in l.keys { for ticket in local { l[list]?.remove(ticket) } } }
        if others { _ = call { c throws(StoreError) in try c.command(["PUBLISH", FleetKeys.release, taken.joined(separator: "\n")]) } }
        return local
    }

    /// A held request as the lists keep it.
    func entry(_ ticket: UInt64) -> String { "\(replica)\t\(ticket)" }

    /// A release notice from another replica: wakes the requests of it that are held here.
    func heardRelease(_ payload: String) {
        var tickets: [UInt64] = []
        for line in payload.split(separator: "\n") {
            guard let tab = line.lastIndex(of: "\t"), line[..<tab] == replica, let ticket = UInt64(line[line.index(after: tab)...]) else { continue }
            tickets.append(ticket)
        }
        if !tickets.isEmpty { boundControl?.releaseHeld(tickets) }
    }
}
