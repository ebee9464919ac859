import StubCore

/// The one owner of the rule "no connection is suspended when the daemon stops" (libmicrohttpd
/// aborts the process otherwise). It alone holds the stopping flag and the count of suspended
/// connections, and it owns the timer that resumes them. Delays, hangs, throttled bodies and
/// deferred replies all suspend through it. Generic over the handle, with the suspend and resume
/// actions passed in, so its tests run without libmicrohttpd.
final class SuspendedConnections<Handle: Sendable>: Sendable {
    private struct State {
        var stopping = false
        var count = 0
    }

    private let state = Locked(State())
    private let scheduler: DelayScheduler<Handle>

    /// `resume` wakes a suspended handle; it is called from the timer thread, from `resumeEarly`'s
    /// caller, or from `drain`.
    init(resume: @escaping @Sendable (Handle) -> Void) throws(SystemCallError) {
        scheduler = try DelayScheduler(resume: resume)
    }

    /// Suspends `handle` through `suspend` and resumes it at `deadline` (monotonic ns; `.max` waits
    /// for `resumeEarly` or shutdown). Returns the ticket, or nil when the server is stopping: then
    /// nothing was suspended and the caller closes the connection.
    func suspend(_ handle: Handle, mark: inout SuspensionMark, until deadline: UInt64, using suspend: (Handle) -> Void) -> UInt64? {
        let suspended = state.withLock { state -> Bool in
            // Checking `stopping` and suspending are one step: a suspend after the drain began
            // would never be resumed.
            guard !state.stopping else { return false }
            state.count += 1
            mark.isSuspended = true
            suspend(handle)
            return true
        }
        guard suspended else { return nil }
        // Scheduled after the suspend: the timer thread may resume at once.
        return scheduler.schedule(handle, at: deadline)
    }

    /// Resumes the connection of `ticket` now, unless the timer or a drain already did.
    @discardableResult
    func resumeEarly(_ ticket: UInt64) -> Bool {
        scheduler.resumeEarly(ticket)
    }

    /// Records that a suspended connection runs again (its handler or content reader was called
    /// after resume) or was freed. Does nothing for a mark that is not suspended, so calling it on
    /// every path that may follow a suspend is safe.
    func didResume(_ mark: inout SuspensionMark) {
        guard mark.isSuspended else { return }
        mark.isSuspended = false
        state.withLock { $0.count -= 1 }
    }

    /// True once a drain has begun: resumed connections close instead of answering.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Connections suspended and not yet run again.
    var count: Int { state.withLock { $0.count } }

    /// Stops new suspends, resumes every waiting connection, and waits until each has run again,
    /// for at most `timeoutMs`. False when some are still suspended at the deadline.
    func drain(timeoutMs: Int) -> Bool {
        state.withLock { $0.stopping = true }
        let deadline = MonotonicClock.now() + UInt64(max(0, timeoutMs)) * 1_000_000
        repeat {
            scheduler.resumeAll()
            if count <= 0 { return true }
            usleepMs(1)
        } while MonotonicClock.now() < deadline
        return count <= 0
    }

    /// Stops the timer thread. Call after a successful drain and before the daemon is freed: the
    /// timer may still be inside a resume call for the last connection it woke.
    func shutdown() {
        state.withLock { $0.stopping = true }
        scheduler.shutdown()
    }
}

/// Whether one connection (or one throttled body) is suspended now. Only `SuspendedConnections`
/// sets or clears it, so the count it keeps and the marks always agree.
struct SuspensionMark {
    fileprivate(set) var isSuspended = false
}
