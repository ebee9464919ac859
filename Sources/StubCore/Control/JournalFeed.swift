import StubSystem
import Synchronization

/// Journal entries and control changes as they happen, for live readers
/// (`GET /__stubd/journal/stream`: the dashboard, scripts). With no reader, recording a request
/// pays one atomic load here and nothing else. Each reader has a bounded backlog: one that falls
/// behind loses its oldest entries and is told how many.
package final class JournalFeed: Sendable {
    /// What one reader has not read yet.
    struct Backlog {
        /// Only entries of this scope; nil takes every scope.
        let scope: Scope?
        var entries: [RequestJournal.Entry] = []
        var dropped = 0
        var changed = false
        /// The reader's suspended connection, woken when something arrives.
        var parked: UInt64?
        init(scope: Scope?) { self.scope = scope }
    }

    /// What one take hands a reader.
    package struct Batch {
        /// New entries, oldest first.
        package var entries: [RequestJournal.Entry]
        /// Entries dropped since the last take because the reader fell behind.
        package var dropped: Int
        /// True when overrides, holds, sessions or the stub set changed since the last take.
        package var changed: Bool
        /// True when there is nothing to send.
        package var isEmpty: Bool { entries.isEmpty && dropped == 0 && !changed }
    }

    private let readerCount = Atomic<Int>(0)
    private let readers = Locked<[Int: Backlog]>([:])
    private let nextID = Atomic<Int>(1)
    let capacity: Int
    let backlogLimit: Int

    /// A feed for at most `capacity` readers at once, each keeping at most `backlog` entries.
    package init(capacity: Int = Limits.maxJournalStreams, backlog: Int = Limits.journalStreamBacklog) {
        self.capacity = max(1, capacity)
        backlogLimit = max(1, backlog)
    }

    /// True when some reader is open; the cheap test before `publish`.
    package var hasReaders: Bool { readerCount.load(ordering: .relaxed) > 0 }

    /// Adds a reader of one scope (`scope` nil: all); nil when `capacity` readers are open.
    package func open(scope: Scope?) -> Int? {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let added = readers.withLock { all -> Bool in
            guard all.count < capacity else { return false }
            all[id] = Backlog(scope: scope)
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
            for (id, var backlog) in all where backlog.scope == nil || backlog.scope == scope {
                all[id] = nil  // Held apart while changed, so the array below is not copied.
                if backlog.entries.count >= backlogLimit {
                    backlog.entries.removeFirst(backlogLimit / 10)
                    backlog.dropped += backlogLimit / 10
                }
                backlog.entries.append(entry)
                if let ticket = backlog.parked { woken.append(ticket) }
                backlog.parked = nil
                all[id] = backlog
            }
            return woken
        }
    }

    /// Tells every reader that control state changed; returns the parked connections to wake.
    func changed() -> [UInt64] {
        readers.withLock { all in
            var woken: [UInt64] = []
            for id in all.keys {
                all[id]?.changed = true
                if let ticket = all[id]?.parked { woken.append(ticket) }
                all[id]?.parked = nil
            }
            return woken
        }
    }

    /// What reader `id` has not read yet, emptied.
    package func take(_ id: Int) -> Batch {
        readers.withLock { all in
            guard var backlog = all[id] else { return Batch(entries: [], dropped: 0, changed: false) }
            all[id] = nil
            let batch = Batch(entries: backlog.entries, dropped: backlog.dropped, changed: backlog.changed)
            backlog.entries = []
            backlog.entries.reserveCapacity(min(64, backlogLimit))
            backlog.dropped = 0
            backlog.changed = false
            all[id] = backlog
            return batch
        }
    }

    /// Reader `id` waits on the connection of `ticket`. False when something arrived since its
    /// last take: the caller wakes it at once instead.
    package func park(_ id: Int, ticket: UInt64) -> Bool {
        readers.withLock { all in
            guard let backlog = all[id] else { return false }
            if !backlog.entries.isEmpty || backlog.dropped > 0 || backlog.changed { return false }
            all[id]?.parked = ticket
            return true
        }
    }
}
