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

/// The store's worker thread: every 10 ms it refreshes the local copy when a change was announced
/// (or a version check finds one missed) and sends waiting journal entries when a reader asked
/// for them or 200 ms have passed; once a second
/// it reports this replica and moves used sessions' expiry. While the store is away it
/// reconnects with backoff (100 ms doubling to 1 s) and, once back, re-reads everything.
final class FleetWorker: @unchecked Sendable {
    // @unchecked: the connection and the timers are used by the worker thread only (and by
    // `start`, before that thread exists).
    private let store: RedisControlState
    private var connection: RedisConnection?
    private var nextAttempt: UInt64 = 0
    private var backoffMs: UInt64 = 100
    private var lastCheck: UInt64 = 0
    private var lastFullRead: UInt64 = 0
    private var lastBeat: UInt64 = 0
    private var seenVersion = -1
    private var reportedEpoch = -1
    private var lastFlush: UInt64 = 0

    init(store: RedisControlState) {
        self.store = store
    }

    /// The loop; returns when `stopFD` becomes readable, after a last journal flush.
    func run(stopFD: Int32) {
        var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0), pollfd(fd: store.wake?.readFD ?? -1, events: Int16(POLLIN), revents: 0)]
        while true {
            // A failed or interrupted wait only makes this tick come early: the stop is seen next round.
            _ = poll(&fds, 2, 10)
            if fds[0].revents != 0 { break }
            if fds[1].revents != 0 { store.wake?.drain() }
            tick()
        }
        if let connection, let control = store.boundControl, control.keepsJournal { try? store.flushJournal(on: connection, control: control) }
    }

    /// One round of the loop.
    func tick() {
        let now = MonotonicClock.now() / 1_000_000
        guard let connection else {
            if now >= nextAttempt { reconnect(now: now) }
            return
        }
        guard let control = store.boundControl else { return }
        do {
            if store.refreshWanted.exchange(false, ordering: .relaxed) || now - lastCheck >= 250 {
                lastCheck = now
                try refresh(on: connection, control: control, full: now - lastFullRead >= 5000, now: now)
            }
            try flushJournal(on: connection, control: control, now: now)
            if now - lastBeat >= 1000 {
                lastBeat = now
                try store.heartbeat(on: connection)
                if seenVersion >= 0 { try store.reportApplied(seenVersion, on: connection) }
                try store.flushTouches(on: connection)
                try store.reconcileHolds(on: connection)
            }
        } catch {
            self.connection = nil
            store.markDown(error)
            nextAttempt = now + backoffMs
            return
        }
        // A call on another connection (a request's, an admin change's) found the store away
        // while this one still works: connect again, so the calls have a connection and the
        // store is in use once it answers them.
        if !store.isReachable && now >= nextAttempt { reconnect(now: now) }
    }

    /// Sends waiting journal entries, then says so for the journal epoch read before sending them:
    /// a reader that took that epoch then finds every request answered before it asked.
    private func flushJournal(on c: RedisConnection, control: StubControl, now: UInt64) throws(StoreError) {
        let epoch = try c.command(["GET", FleetKeys.journalEpoch]).int ?? 0
        guard epoch != reportedEpoch || now - lastFlush >= 200 else { return }
        lastFlush = now
        if control.keepsJournal { try store.flushJournal(on: c, control: control) }
        guard epoch != reportedEpoch else { return }
        _ = try c.command(["SET", FleetKeys.flushed(store.replica), String(epoch), "PX", "10000"])
        reportedEpoch = epoch
    }

    /// Reads the version, and everything when it moved (or `full`).
    private func refresh(on c: RedisConnection, control: StubControl, full: Bool, now: UInt64) throws(StoreError) {
        let version = try c.command(["GET", FleetKeys.version]).int ?? 0
        guard full || version != seenVersion else { return }
        let read = try RedisControlState.readOverrides(c)
        // A read older than a change made here would undo it locally for a moment: wait for the next.
        guard read.version >= store.writtenVersion.load(ordering: .relaxed) else {
            store.refreshWanted.store(true, ordering: .relaxed)
            return
        }
        seenVersion = read.version
        store.status.withLock { $0.unreadableOverrides = read.unreadable }
        if full { lastFullRead = now }
        control.adoptShared(read.overrides)
        try store.reportApplied(read.version, on: c)
    }

    /// Connects, writes the local state back if the store came back empty, re-reads everything.
    func reconnect(now: UInt64) {
        do throws(StoreError) {
            let c = try RedisConnection(store.url, timeoutMs: 2000, cutoff: store.cutoff)
            if let control = store.boundControl {
                // A store that came back with less than this replica saw (restarted empty, or from
                // an older snapshot) gets this replica's copy: the newest copy in the fleet wins.
                let known = max(seenVersion, store.writtenVersion.load(ordering: .relaxed))
                if known > 0, try c.command(["GET", FleetKeys.version]).int ?? 0 < known {
                    try RedisControlState.writeBack(control.allOverrides, version: known, on: c)
                }
                // Its journal too, when the store lost the entries this replica had sent.
                if store.sentUpTo.load(ordering: .relaxed) > 0, try c.command(["EXISTS", FleetKeys.journalSent(store.replica)]).int == 0 {
                    store.resendLocalJournal()
                }
                let read = try RedisControlState.readOverrides(c)
                seenVersion = read.version
                store.status.withLock { $0.unreadableOverrides = read.unreadable }
                control.adoptShared(read.overrides)
                try store.reportApplied(read.version, on: c)
                try store.relistHolds(on: c)
                try store.heartbeat(on: c)
            }
            guard store.connectCalls() else { throw StoreError(description: "the call connection failed") }
            connection = c
            // Report the journal epoch again: a store that restarted has lost the reports.
            reportedEpoch = -1
            backoffMs = 100
            lastFullRead = now
            store.markUp()
            store.refreshWanted.store(true, ordering: .relaxed)
        } catch {
            store.markDown(error)
            nextAttempt = now + backoffMs
            backoffMs = min(1000, backoffMs * 2)
        }
    }
}
