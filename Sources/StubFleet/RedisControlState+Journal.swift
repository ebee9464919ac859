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

/// Journal entries waiting to be sent to the store, and those that could not be kept.
struct PendingJournal: Sendable {
    var records: [RequestRecord] = []
    /// Entries dropped because the buffer was full (the store was away or slow).
    var dropped = 0
}

/// The fleet's journal: one stream per scope, capped near the journal size, each entry numbered
/// across the fleet and naming the replica that served it.
extension RedisControlState {
    func journal(_ record: RequestRecord) {
        pending.withLock { p in
            if p.records.count < RedisControlState.journalBufferLimit { p.records.append(record) } else { p.dropped += 1 }
        }
    }

    /// Sends what is waiting, in one round trip per batch of up to 1,000 entries.
    func flushJournal(on c: RedisConnection, capacity: Int) throws(StoreError) {
        while true {
            let batch = pending.withLock { p -> [RequestRecord] in
                let taken = Array(p.records.prefix(1000))
                p.records.removeFirst(taken.count)
                return taken
            }
            guard !batch.isEmpty else { return }
            do {
                try send(batch, on: c, capacity: capacity)
            } catch {
                // Back to the front of the buffer, to go when the store answers again.
                pending.withLock { p in
                    p.records.insert(contentsOf: batch, at: 0)
                    let excess = p.records.count - RedisControlState.journalBufferLimit
                    if excess > 0 {
                        p.records.removeLast(excess)
                        p.dropped += excess
                    }
                }
                throw error
            }
        }
    }

    private func send(_ batch: [RequestRecord], on c: RedisConnection, capacity: Int) throws(StoreError) {
        guard let last = try c.command(["INCRBY", FleetKeys.journalSequence, String(batch.count)]).int else {
            throw StoreError(description: "the store did not number journal entries")
        }
        var commands: [[String]] = []
        var scopes = Set<String>()
        for (offset, record) in batch.enumerated() {
            let scope = Scope(record.session)
            let json = StubControl.fleetEntryJSON(record, id: last - batch.count + 1 + offset, replica: replica)
            // `t`: when it was received, to list the fleet's entries in that order (ids follow the
            // order replicas sent their batches in).
            commands.append(["XADD", FleetKeys.journal(scope), "MAXLEN", "~", String(capacity), "*",
                             "t", String(record.receivedAt.timeIntervalSince1970), "e", json.serialized()])
            scopes.insert(FleetKeys.scopeKey(scope))
        }
        commands.append(["SADD", FleetKeys.journalScopes] + scopes.sorted())
        _ = try c.pipeline(commands)
    }

    func journalEntries(scope: Scope?) -> [JSONValue]? {
        let capacity = boundControl?.journalCapacity ?? 0
        awaitJournals()
        return call { c throws(StoreError) -> [JSONValue] in
            var scopes = scope.map { [$0] } ?? []
            if scope == nil { scopes = try c.command(["SMEMBERS", FleetKeys.journalScopes]).elements.compactMap { $0.text.flatMap(FleetKeys.scope) } }
            let streams = try c.pipeline(scopes.map { ["XRANGE", FleetKeys.journal($0), "-", "+"] })
            var entries: [(time: Double, id: Double, json: JSONValue)] = []
            for stream in streams {
                // Trimming with `~` keeps a little more than the journal size; show the newest.
                for item in stream.elements.suffix(capacity) {
                    let fields = item.elements.last?.elements ?? []
                    guard fields.count == 4, case .string(let bytes) = fields[3], let json = try? JSONParser.parse(bytes) else { continue }
                    entries.append((fields[1].text.flatMap(Double.init) ?? 0, json["id"]?.numberValue ?? 0, json))
                }
            }
            return entries.sorted { ($0.time, $0.id) < ($1.time, $1.id) }.map(\.json)
        }
    }

    /// Waits (at most 100 ms) until every replica has sent the entries it held when this read
    /// began, so a request answered before the read is in it, whichever replica answered it.
    func awaitJournals() {
        guard let epoch = call({ c throws(StoreError) in try c.command(["INCR", FleetKeys.journalEpoch]).int }) ?? nil else { return }
        let deadline = MonotonicClock.now() + 100_000_000
        while MonotonicClock.now() < deadline {
            let flushed = call { c throws(StoreError) -> [RedisReply] in
                let names = try c.command(["SMEMBERS", FleetKeys.replicas]).elements.compactMap(\.text)
                return names.isEmpty ? [] : try c.command(["MGET"] + names.map(FleetKeys.flushed)).elements
            }
            guard let flushed else { return }
            if flushed.allSatisfy({ $0.int.map { $0 >= epoch } ?? true }) { return }
            usleep(500)
        }
    }

    func clearJournal(_ scope: Scope) -> Bool {
        call { c throws(StoreError) in try c.command(["DEL", FleetKeys.journal(scope)]) } != nil
    }
}
