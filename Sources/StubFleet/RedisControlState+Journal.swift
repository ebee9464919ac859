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

/// The fleet's journal: one stream per scope, capped near the journal size, each entry numbered
/// across the fleet and naming the replica that served it. Nothing is queued per request: every
/// 200 ms, or at once when a journal read anywhere asks, the worker sends what the local journal
/// recorded since the last send, the newest journal-size entries of each scope (the store would
/// trim the rest). While the store is away the local journal holds them; what it lets go unsent is
/// counted as dropped.
extension RedisControlState {
    /// Sends what the local journal recorded since the last send, in one round trip.
    func flushJournal(on c: RedisConnection, control: StubControl) throws(StoreError) {
        let since = sentUpTo.load(ordering: .relaxed)
        let (entries, lastID, firstID) = control.journalEntries(after: since)
        guard lastID > since else { return }
        var perScope: [Scope: Int] = [:]
        var batch: [RequestRecord] = []
        for entry in entries.reversed() {
            let scope = Scope(entry.record.session)
            guard perScope[scope, default: 0] < control.journalCapacity else { continue }
            perScope[scope, default: 0] += 1
            batch.append(entry.record)
        }
        if !batch.isEmpty { try send(batch.reversed(), on: c, capacity: control.journalCapacity) }
        // Entries the ring let go unsent while the store was away. (While it answers, those are
        // older than a journal's worth of newer ones: one process would not keep them either.)
        let outage = wasAway.exchange(false, ordering: .relaxed)
        if outage, let firstID, firstID > since + 1 { journalDropped.add(firstID - since - 1, ordering: .relaxed) }
        sentUpTo.store(lastID, ordering: .relaxed)
    }

    /// Sends the whole local journal again (the store came back without what this replica sent).
    func resendLocalJournal() {
        sentUpTo.store(0, ordering: .relaxed)
    }

    private func send(_ batch: ReversedCollection<[RequestRecord]>, on c: RedisConnection, capacity: Int) throws(StoreError) {
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
        // This replica's mark: a store without it has lost what was sent (see `resendLocalJournal`).
        try c.append(["SET", FleetKeys.journalSent(replica), "1"])
        // A store without streams (Redis before 5) refuses XADD: say so rather than lose entries quietly.
        if case .error(let why)? = try c.replies(lines.count + 2).first(where: { if case .error = $0 { true } else { false } }) {
            throw StoreError(description: "the store refused the journal: \(why) (Valkey or Redis 6.2 or later is needed)")
        }
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
    /// Every live replica reports within a tick of the new epoch, so a missing report is waited for.
    func awaitJournals() {
        guard let epoch = call({ c throws(StoreError) in try c.command(["INCR", FleetKeys.journalEpoch]).int }) ?? nil else { return }
        awaitReports(FleetKeys.flushed, atLeast: epoch, withinMs: 100, others: false, missingIsDone: false)
    }

    func clearJournal(_ scope: Scope) {
        awaitJournals()  // as in `reset`: nothing answered before the clear may come back after it
        // Guarded: a clear that timed out must not run later and take entries answered since.
        _ = call { c throws(StoreError) in try c.guarded([["DEL", FleetKeys.journal(scope)]]) }
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
