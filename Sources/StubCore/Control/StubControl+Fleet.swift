import StubSystem

/// What a fleet's store calls back: the overrides other replicas set, and their journal's form.
extension StubControl {
    /// Replaces the local copy of every scope's overrides with the store's. Steps taken here that
    /// the store has not counted yet are kept (the larger count wins).
    package func adoptShared(_ overrides: [Scope: [String: RouteOverride]]) {
        let changed = state.withLock { s -> Bool in
            var next = overrides
            for (scope, routes) in next {
                for (id, o) in routes {
                    guard let mine = s.overrides[scope]?[id], mine.stepToken == o.stepToken else { continue }
                    next[scope]?[id]?.served = max(o.served, mine.served)
                }
            }
            guard next != s.overrides else { return false }
            s.overrides = next
            mayHaveOverrides.store(!next.isEmpty, ordering: .releasing)
            return true
        }
        if changed { noteChange() }
    }

    /// The journal entries recorded after `id` (every scope, oldest first), the last id, and the
    /// oldest id still kept: what a fleet's store has not been sent yet, read from the one journal.
    package func journalEntries(after id: Int) -> (entries: [RequestJournal.Entry], lastID: Int, firstID: Int?) {
        state.withLock { s in (s.journal.entries(after: id), s.journal.lastID, s.journal.firstID) }
    }

    /// Every scope's overrides as this replica holds them (written back to a store that lost them).
    package var allOverrides: [Scope: [String: RouteOverride]] { withState { $0.overrides } }

    /// Appends a journal entry as the admin API shows it, with the replica that served it, as JSON bytes.
    package static func writeFleetEntry(_ record: RequestRecord, id: Int, replica: String, into out: inout [UInt8]) {
        JournalEntryWriter.write(record, id: id, replica: replica, into: &out)
    }
}

extension StubControl {
    /// How long an unused session's state lives, and how many sessions may hold state.
    package var sessionPolicy: (ttlSeconds: Double, maxSessions: Int) {
        withState { ($0.sessions.policy.ttlSeconds, $0.sessions.policy.maxSessions) }
    }
}
