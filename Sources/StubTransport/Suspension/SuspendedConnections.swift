import StubCore
import StubSystem

/// The one owner of the rule "no connection is suspended when the daemon stops" (libmicrohttpd
/// aborts the process otherwise). It alone holds the stopping flag and the count of suspended
/// connections, owns the timer that resumes them and the watcher that notices clients leaving
/// while suspended. Every wait (delays, hangs, holds, deferred replies, paced bodies and faults)
/// suspends through `suspend` and reports back through `resumed` or `ended`. Handles are plain
/// bits and the suspend and resume actions are given once, at init, so its tests run without
/// libmicrohttpd.
package final class SuspendedConnections: Sendable {
    /// Taken to suspend and to begin a drain, so that no suspend slips in after the drain began.
    private let gate = PlainLock()
    /// Written only with `gate` held; read without it by connections that run again after a resume.
    private let stopping = AtomicWord<Bool>(false)
    private let suspended = AtomicWord<Int>(0)
    private let scheduler: DelayScheduler
    private let suspendAction: @Sendable (SuspensionHandle) -> Void
    /// Tickets whose client the watcher saw leave, until their connection runs again.
    private let gone: Locked<Set<UInt64>>
    private let watcher: HangupWatcher?

    /// `suspend` and `resume` act on a handle; `resume` is called from the timer thread, from
    /// `resumeEarly`'s caller, or from `drain`. `watchHangups` turns on the watcher (epoll when
    /// `useEpoll`, else the portable scan).
    package init(suspend: @escaping @Sendable (SuspensionHandle) -> Void, resume: @escaping @Sendable (SuspensionHandle) -> Void,
         watchHangups: Bool = true, useEpoll: Bool = true) throws(SystemCallError) {
        suspendAction = suspend
        let scheduler = try DelayScheduler(resume: resume)
        self.scheduler = scheduler
        let gone = Locked<Set<UInt64>>([])
        self.gone = gone
        do {
            watcher = watchHangups ? try HangupWatcher(useEpoll: useEpoll) { ticket in
                gone.withLock { _ = $0.insert(ticket) }
                if !scheduler.resumeEarly(ticket) { gone.withLock { _ = $0.remove(ticket) } }
            } : nil
        } catch {
            scheduler.shutdown()
            throw error
        }
    }

    /// Suspends `handle` and resumes it at `deadline` (monotonic ns; `.max` waits for
    /// `resumeEarly` or shutdown), or as soon as its client is seen leaving (`fd` is watched).
    /// Returns the ticket, or nil when the server is stopping: then nothing was suspended and the
    /// caller closes the connection.
    package func suspend(_ handle: SuspensionHandle, fd: Int32?, mark: inout SuspensionMark, until deadline: UInt64) -> UInt64? {
        let accepted = gate.withLock { () -> Bool in
            // Checking `stopping` and suspending are one step: a suspend after the drain began
            // would never be resumed.
            guard !stopping.load(ordering: .acquiring) else { return false }
            suspended.add(1, ordering: .relaxed)
            mark.isSuspended = true
            suspendAction(handle)
            return true
        }
        guard accepted else { return nil }
        // Scheduled after the suspend: the timer thread may resume at once.
        let ticket = scheduler.schedule(handle, at: deadline)
        mark.ticket = ticket
        if let watcher, let fd {
            mark.fd = fd
            watcher.watch(fd, ticket: ticket)
        }
        return ticket
    }

    /// Resumes the connection of `ticket` now, unless the timer, the watcher or a drain already did.
    @discardableResult
    package func resumeEarly(_ ticket: UInt64) -> Bool {
        scheduler.resumeEarly(ticket)
    }

    /// The one report of a resume: the connection of `mark` runs again. True when it was woken
    /// because its client left. Does nothing (false) for a mark that is not suspended.
    package func resumed(_ mark: inout SuspensionMark) -> Bool {
        guard mark.isSuspended else { return false }
        release(&mark)
        return watcher != nil && gone.withLock { $0.remove(mark.ticket) != nil }
    }

    /// The connection of `mark` ended (its response was freed, or it closed) while it may still
    /// have been suspended. Safe on every path that may follow a suspend.
    package func ended(_ mark: inout SuspensionMark) {
        guard mark.isSuspended else { return }
        release(&mark)
        if watcher != nil { gone.withLock { _ = $0.remove(mark.ticket) } }
    }

    private func release(_ mark: inout SuspensionMark) {
        mark.isSuspended = false
        suspended.subtract(1, ordering: .relaxed)
        if mark.fd >= 0 {
            watcher?.unwatch(mark.fd)
            mark.fd = -1
        }
    }

    /// True once a drain has begun: resumed connections close instead of answering.
    package var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Connections suspended and not yet run again.
    package var count: Int { suspended.load(ordering: .relaxed) }

    /// Stops new suspends, resumes every waiting connection, and waits until each has run again,
    /// for at most `timeoutMs`. False when some are still suspended at the deadline.
    package func drain(timeoutMs: Int) -> Bool {
        gate.withLock { stopping.store(true, ordering: .releasing) }
        let deadline = MonotonicClock.now() + UInt64(max(0, timeoutMs)) * 1_000_000
        repeat {
            scheduler.resumeAll()
            if count <= 0 { return true }
            usleepMs(1)
        } while MonotonicClock.now() < deadline
        return count <= 0
    }

    /// Shuts the sockets of the connections still suspended (a drain ran out of time), as the
    /// hang-up watcher knows them: the next read or write libmicrohttpd makes on one fails, and it
    /// closes the connection. (Without the watcher, which only tests turn off, none is shut.)
    package func shutSuspendedSockets() {
        watcher?.shutWatched()
        scheduler.resumeAll()
    }

    /// Stops the timer and watcher threads. Call after a successful drain and before the daemon
    /// is freed: the timer may still be inside a resume call for the last connection it woke.
    package func shutdown() {
        gate.withLock { stopping.store(true, ordering: .releasing) }
        scheduler.shutdown()
        watcher?.stop()
    }
}

/// Whether one connection is suspended now, under which ticket, and which socket is watched.
/// Only `SuspendedConnections` sets it, so the count it keeps and the marks always agree.
package struct SuspensionMark {
    package fileprivate(set) var isSuspended = false
    fileprivate(set) var ticket: UInt64 = 0
    fileprivate(set) var fd: Int32 = -1

    package init() {}
}

/// A suspended connection as the owner and its timer see it: the connection's address bits
/// (`MHDConnection.handle`), or any number in tests.
package typealias SuspensionHandle = UInt
