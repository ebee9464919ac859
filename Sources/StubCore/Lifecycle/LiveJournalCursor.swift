/// Where a live journal stream is: the bytes of the batch being sent, the last entry id sent (so
/// an entry both in the starting backlog and the feed goes out once), when the next batch may go
/// (batches are at least `batchGapNs` apart), and when a keep-alive comment is due (so a client
/// or proxy that drops idle connections keeps this one).
package struct LiveJournalCursor {
    /// Seconds of silence before a keep-alive comment.
    static let keepAliveNs: UInt64 = 15_000_000_000
    /// The least time between two batches: under load, entries gather for this long and go out
    /// together, so a busy server wakes the stream 20 times a second, not once per request.
    static let batchGapNs: UInt64 = 50_000_000
    /// Entries sent in one batch at most (2,000 a second): a person reads far fewer, and each
    /// costs the server a rendering; the rest are counted by status class instead.
    static let maxPerBatch = 100

    let live: LiveJournal
    private var pending: [UInt8] = []
    private var offset = 0
    private var lastSentID = 0
    private var keepAliveDue: UInt64 = 0
    private var started = false
    /// No batch before this; the wait until then is not cut short by new entries.
    private var nextBatchAt: UInt64 = 0
    /// True while waiting out `batchGapNs`; the connection is then not parked with the feed.
    private(set) var gathering = false

    init(_ live: LiveJournal) {
        self.live = live
    }

    /// Copies what is ready into `buffer`, or says how long to wait for more.
    mutating func pull(into buffer: PullBuffer, now: UInt64) -> PullResult {
        gathering = false
        if offset >= pending.count {
            if started, now < nextBatchAt {
                gathering = true
                return .wait(until: nextBatchAt)
            }
            if !refill(now: now) { return .wait(until: keepAliveDue) }
        }
        let count = min(buffer.count, pending.count - offset)
        buffer.copy(pending, from: offset, count: count)
        offset += count
        return .copied(count)
    }

    /// Takes the next batch (the starting backlog first), or a keep-alive when one is due.
    private mutating func refill(now: UInt64) -> Bool {
        var batch: JournalFeed.Batch
        if !started {
            started = true
            batch = JournalFeed.Batch(entries: live.initial, dropped: live.initialDropped)
            let bytes = live.prelude + fresh(&batch)
            return fill(bytes, now: now)
        }
        batch = live.feed.take(live.reader)
        batch.keepNewest(LiveJournalCursor.maxPerBatch)
        let bytes = fresh(&batch)
        if !bytes.isEmpty {
            nextBatchAt = now &+ LiveJournalCursor.batchGapNs
            return fill(bytes, now: now)
        }
        guard now >= keepAliveDue else { return false }
        return fill(Array(": keep-alive\n\n".utf8), now: now)
    }

    /// The batch's events, without entries sent already.
    private mutating func fresh(_ batch: inout JournalFeed.Batch) -> [UInt8] {
        let lastSent = lastSentID
        batch.entries.removeAll { $0.id <= lastSent }
        if let last = batch.entries.last { lastSentID = last.id }
        return batch.isEmpty ? [] : LiveJournal.events(batch)
    }

    private mutating func fill(_ bytes: [UInt8], now: UInt64) -> Bool {
        pending = bytes
        offset = 0
        keepAliveDue = now &+ LiveJournalCursor.keepAliveNs
        return true
    }

    /// The connection waits under `ticket`; woken at once when something arrived meanwhile.
    func parked(ticket: UInt64, control: StubControl) {
        if gathering { return }
        if !live.feed.park(live.reader, ticket: ticket) { control.wake([ticket]) }
    }
}
