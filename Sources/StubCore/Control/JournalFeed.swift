import StubSystem

/// Journal entries and control changes as they happen, for live readers
/// (`GET /__stubd/journal/stream`: the dashboard, scripts). With no reader, recording a request
/// pays one atomic load here and nothing else. Each reader has a bounded backlog: one that falls
/// behind loses its oldest entries and is told how many.
package final class JournalFeed: Sendable {
    /// What one reader has not read yet. A class, changed in place under the feed's lock: a
    /// publish appends to each backlog without copying the table or the backlog.
    final class Backlog: @unchecked Sendable {
        // @unchecked: every instance lives in `readers` and is read and changed only with its
        // lock held; none is handed out.
        /// Only entries of this scope; nil takes every scope.
        let scope: Scope?
        /// Only entries this filter matches (route, operation, method, path).
        let filter: JournalFilter
        var entries: [RequestJournal.Entry] = []
        var dropped = JournalFeed.Dropped()
        var changed = false
        /// The reader's suspended connection, woken when something arrives.
        var parked: UInt64?
        init(scope: Scope?, filter: JournalFilter) {
            self.scope = scope
            self.filter = filter
        }

        /// True when this reader wants `entry`.
        func wants(_ entry: RequestJournal.Entry, scope entryScope: Scope) -> Bool {
            (scope == nil || scope == entryScope) && filter.matches(entry)
        }

        var isEmpty: Bool { entries.isEmpty && dropped.total == 0 && !changed }

        /// Takes the parked ticket, if any, for the caller to wake.
        func unpark(into woken: inout [UInt64]) {
            if let ticket = parked { woken.append(ticket) }
            parked = nil
        }
    }

    /// Entries a reader did not get, counted by status class (`2`…`5`, `fault`), so a chart of
    /// the traffic stays true when the list cannot keep up.
    package struct Dropped: Sendable {
        package var byClass: [String: Int] = [:]
        package var total = 0

        package init() {}

        /// Counts one entry not sent.
        package mutating func add(_ entry: RequestJournal.Entry) {
            let status = entry.record.status
            byClass[entry.record.fault != nil || status < 100 ? "fault" : String(status / 100), default: 0] += 1
            total += 1
        }
    }

    /// What one take hands a reader.
    package struct Batch {
        /// New entries, oldest first.
        package var entries: [RequestJournal.Entry]
        /// Entries dropped since the last take because the reader fell behind.
        package var dropped: Dropped
        /// True when overrides, holds, sessions or the stub set changed since the last take.
        package var changed: Bool
        /// True when there is nothing to send.
        package var isEmpty: Bool { entries.isEmpty && dropped.total == 0 && !changed }

        package init(entries: [RequestJournal.Entry], dropped: Dropped = Dropped(), changed: Bool = false) {
            self.entries = entries
            self.dropped = dropped
            self.changed = changed
        }

        /// Keeps the newest `limit` entries and counts the rest as dropped.
        package mutating func keepNewest(_ limit: Int) {
            guard entries.count > limit else { return }
            for entry in entries.prefix(entries.count - limit) { dropped.add(entry) }
            entries.removeFirst(entries.count - limit)
        }
    }

    private let readerCount = AtomicWord<Int>(0)
    private let readers = Locked<[Int: Backlog]>([:])
    private let nextID = AtomicWord<Int>(1)
    let capacity: Int
    let backlogLimit: Int

    /// A feed for at most `capacity` readers at once, each keeping at most `backlog` entries.
    package init(capacity: Int = Limits.maxJournalStreams, backlog: Int = Limits.journalStreamBacklog) {
        self.capacity = max(1, capacity)
        backlogLimit = max(1, backlog)
    }

    /// True when some reader is open; the cheap test before `publish`.
    package var hasReaders: Bool { readerCount.load(ordering: .relaxed) > 0 }

    /// Adds a reader of one scope (`scope` nil: all) and of what `filter` matches (its `since`
    /// and `limit` are not used here); nil when `capacity` readers are open.
    package func open(scope: Scope?, filter: JournalFilter = JournalFilter()) -> Int? {
        var filter = filter
        filter.sinceID = nil
        filter.sinceTime = nil
        filter.limit = nil
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let added = readers.withLock { all -> Bool in
            guard all.count < capacity else { return false }
            all[id] = Backlog(scope: scope, filter: filter)
            return true
        }
        guard added else { return nil }
        readerCount.add(1, ordering: .relaxed)
        return id
    }

    /// Removes a reader.
    package func close(_ id: Int) {
        if readers.withLock({ $0.removeValue(forKey: id) }) != nil { readerCount.subtract(1, ordering: .relaxed) }
    }

    /// Hands a recorded entry to every reader of its scope; returns the parked connections to wake.
    func publish(_ entry: RequestJournal.Entry) -> [UInt64] {
        let scope = Scope(entry.record.session)
        return readers.withLock { all in
            var woken: [UInt64] = []
            for backlog in all.values where backlog.wants(entry, scope: scope) {
                if backlog.entries.count >= backlogLimit {
                    let cut = max(1, backlogLimit / 10)
                    for old in backlog.entries.prefix(cut) { backlog.dropped.add(old) }
                    backlog.entries.removeFirst(cut)
                }
                backlog.entries.append(entry)
                backlog.unpark(into: &woken)
            }
            return woken
        }
    }

    /// Tells every reader that control state changed; returns the parked connections to wake.
    func changed() -> [UInt64] {
        readers.withLock { all in
            var woken: [UInt64] = []
            for backlog in all.values {
                backlog.changed = true
                backlog.unpark(into: &woken)
            }
            return woken
        }
    }

    /// What reader `id` has not read yet, emptied.
    package func take(_ id: Int) -> Batch {
        readers.withLock { all in
            guard let backlog = all[id] else { return Batch(entries: []) }
            let batch = Batch(entries: backlog.entries, dropped: backlog.dropped, changed: backlog.changed)
            backlog.entries = []
            backlog.entries.reserveCapacity(min(256, backlogLimit))
            backlog.dropped = Dropped()
            backlog.changed = false
            return batch
        }
    }

    /// Reader `id` waits on the connection of `ticket`. False when something arrived since its
    /// last take: the caller wakes it at once instead.
    package func park(_ id: Int, ticket: UInt64) -> Bool {
        readers.withLock { all in
            guard let backlog = all[id], backlog.isEmpty else { return false }
            backlog.parked = ticket
            return true
        }
    }
}
