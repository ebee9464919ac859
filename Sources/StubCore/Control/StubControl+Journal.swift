/// The journal: answered requests recorded, read by scope and filter, cleared; live readers told.
extension StubControl {
    /// The id of the last request journaled (0 before the first), for a live reader's `hello`.
    package var lastJournalID: Int { state.withLock { $0.journal.lastID } }

    /// True when the journal keeps entries (`--journal-size` above 0).
    public var keepsJournal: Bool { journalCapacity > 0 }

    /// Records an answered request in the journal.
    public func record(_ record: consuming RequestRecord) {
        guard keepsJournal else { return }
        record.credentialsKept = keepsCredentials
        RequestJournal.trim(&record)
        // Moved into the lock's closure through an optional, not copied; the dropped entry is
        // freed here, after the lock is released.
        var pending: RequestRecord? = consume record
        var woken: [UInt64] = []
        let dropped = state.withLock { s -> RequestJournal.Entry? in
            let dropped = s.journal.append(pending.take()!)
            // Published under the journal's lock, so live readers get entries in id order, and a
            // reader opened while this runs finds the entry either in the journal or in its backlog.
            if feed.hasReaders, let entry = s.journal.last { woken = feed.publish(entry) }
            return dropped
        }
        _ = dropped
        if !woken.isEmpty { wake(woken) }
    }

    /// Tells live readers that overrides, holds, sessions or the stub set changed.
    package func noteChange() {
        guard feed.hasReaders else { return }
        wake(feed.changed())
    }

    /// Journal entries of one scope, oldest first, filtered.
    public func journal(session: String?, filter: JournalFilter = JournalFilter()) -> [RequestJournal.Entry] {
        let all = state.withLock { $0.journal.entries }
        let matching = all.filter { (filter.allSessions || $0.record.session == session) && filter.matches($0) }
        if let limit = filter.limit, matching.count > limit { return Array(matching.suffix(limit)) }
        return matching
    }

    /// Clears the journal of one scope.
    public func clearJournal(session: String?) {
        shared?.clearJournal(Scope(session))
        state.withLock { $0.journal.removeAll { $0.record.session == session } }
    }
}
