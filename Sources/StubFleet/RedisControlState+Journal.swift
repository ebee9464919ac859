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
/// across the fleet and naming the replica that served it. Entries wait here and go out every
/// 100 ms, or at once when a journal read anywhere asks for them (the journal epoch); only the
/// newest journal-size entries of each scope are sent, since the store would trim the rest.
extension RedisControlState {
    func journal(_ record: RequestRecord) {
        let limit = bufferLimit
        pending.withLock { p in
            if p.records.count >= limit {
                // Full: the oldest tenth goes, as the journal's ring would drop them. While the store
                // answers they are older than a journal's worth of newer ones (never sent anyway);
                // while it is away they are lost, and counted.
                let cut = max(1, limit / 10)
                p.records.removeFirst(cut)
                if !isReachable { p.dropped += cut }
            }
            p.records.append(record)
        }
    }

    /// Queues this replica's whole local journal again (the store came back without the entries
    /// sent before); it holds everything still waiting, so it replaces the buffer.
    func resendLocalJournal() {
        boundControl?.withLocalJournal { records in pending.withLock { $0.records = records } }
    }

    /// Entries kept while they wait: ten journals' worth, at least 10,000.
    var bufferLimit: Int { max(RedisControlState.journalBufferLimit, 10 * (boundControl?.journalCapacity ?? 0)) }

    /// Sends what is waiting: the newest `capacity` entries of each scope, in one round trip.
    func flushJournal(on c: RedisConnection, capacity: Int) throws(StoreError) {
        let waiting = pending.withLock { p -> [RequestRecord] in defer { p.records = [] }; return p.records }
        guard !waiting.isEmpty else { return }
        var perScope: [Scope: Int] = [:]
        var batch: [RequestRecord] = []
        for record in waiting.reversed() {
            let scope = Scope(record.session)
            guard perScope[scope, default: 0] < capacity else { continue }
            perScope[scope, default: 0] += 1
            batch.append(record)
        }
        batch.reverse()
        do {
            try send(batch, on: c, capacity: capacity)
            sentJournal.store(true, ordering: .relaxed)
        } catch {
            // Back in front of what came since, to go when the store answers again.
            let limit = bufferLimit
            pending.withLock { p in
                p.records.insert(contentsOf: batch, at: 0)
                let excess = p.records.count - limit
                if excess > 0 {
                    p.records.removeFirst(excess)
                    p.dropped += excess
                }
            }
            throw error
        }
    }

    private func send(_ batch: [RequestRecord], on c: RedisConnection, capacity: Int) throws(StoreError) {
        guard let last = try c.command(["INCRBY", FleetKeys.journalSequence, String(batch.count)]).int else {
            throw StoreError(description: "the store did not number journal entries")
        }
        // One stream item per scope per batch, an entry a line (`time<TAB>json`): the store's work
        // is per batch, not per request. Trimmed to about the journal size in entries.
        var lines: [Scope: [UInt8]] = [:]
        var counts: [Scope: Int] = [:]
        for (offset, record) in batch.enumerated() {
            let scope = Scope(record.session)
            // Written in place into the scope's buffer, sized once for the batch.
            lines[scope, default: RedisControlState.buffer(for: batch.count)].withTime(record.receivedAt) { line in
                StubControl.writeFleetEntry(record, id: last - batch.count + 1 + offset, replica: replica, into: &line)
            }
            counts[scope, default: 0] += 1
        }
        for (scope, bytes) in lines {
            let items = capacity / max(1, counts[scope] ?? 1) + 1
            try c.append(bytes: [Array("XADD".utf8), Array(FleetKeys.journal(scope).utf8), Array("MAXLEN".utf8), Array(String(items).utf8),
                                 [UInt8(ascii: "*")], [UInt8(ascii: "e")], bytes])
        }
        try c.append(["SADD", FleetKeys.journalScopes] + lines.keys.map(FleetKeys.scopeKey))
        _ = try c.replies(lines.count + 1)
    }

    /// An empty buffer with room for `entries` lines of a typical size.
    static func buffer(for entries: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries * 900)
        return bytes
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
                var kept: [(time: Double, id: Double, json: JSONValue)] = []
                for item in stream.elements {
                    guard case .string(let bytes)? = item.elements.last?.elements.last else { continue }
                    for line in bytes.split(separator: 10) {
                        guard let tab = line.firstIndex(of: 9), let json = try? JSONParser.parse(Array(line[(tab + 1)...])) else { continue }
                        let time = Double(String(decoding: line[..<tab], as: UTF8.self)) ?? 0
                        kept.append((time, json["id"]?.numberValue ?? 0, json))
                    }
                }
                // Trimming keeps a little more than the journal size; show the newest.
                entries += kept.suffix(capacity)
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

extension Array where Element == UInt8 {
    /// Appends one journal line: `time<TAB>` what `body` writes, then a newline.
    mutating func withTime(_ time: Date, _ body: (inout [UInt8]) -> Void) {
        append(contentsOf: String(time.timeIntervalSince1970).utf8)
        append(9)
        body(&self)
        append(10)
    }
}
