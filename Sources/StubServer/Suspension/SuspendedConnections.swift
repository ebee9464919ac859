import StubCore
import Synchronization

/// The one owner of the rule "no connection is suspended when the daemon stops" (libmicrohttpd
/// aborts the process otherwise). It alone holds the stopping flag and the count of suspended
/// connections, and it owns the timer that resumes them. Delays, hangs, throttled bodies and
/// deferred replies all suspend through it. Handles are plain bits and the suspend and resume
/// actions are passed in, so its tests run without libmicrohttpd.
final class SuspendedConnections: Sendable {
    /// Taken to suspend and to begin a drain, so that no suspend slips in after the drain began.
    private let gate = PlainLock()
    /// Written only with `gate` held; read without it by connections that run again after a resume.
    private let stopping = Atomic<Bool>(false)
    private let suspended = Atomic<Int>(0)
    private let scheduler: DelayScheduler

    /// `resume` wakes a suspended handle; it is called from the timer thread, from `resumeEarly`'s
    /// caller, or from `drain`.
    init(resume: @escaping @Sendable (SuspensionHandle) -> Void) throws(SystemCallError) {
        scheduler = try DelayScheduler(resume: resume)
    }

    /// Suspends `handle` through `suspend` and resumes it at `deadline` (monotonic ns; `.max` waits
    /// for `resumeEarly` or shutdown). Returns the ticket, or nil when the server is stopping: then
    /// nothing was suspended and the caller closes the connection.
    func suspend(_ handle: SuspensionHandle, mark: inout SuspensionMark, until deadline: UInt64, using suspend: (SuspensionHandle) -> Void) -> UInt64? {
        let accepted = gate.withLock { () -> Bool in
            // Checking `stopping` and suspending are one step: a suspend after the drain began
            // would never be resumed.
            guard !stopping.load(ordering: .acquiring) else { return false }
            suspended.add(1, ordering: .relaxed)
            mark.isSuspended = true
            suspend(handle)
            return true
        }
        guard accepted else { return nil }
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
        suspended.subtract(1, ordering: .relaxed)
    }

    /// True once a drain has begun: resumed connections close instead of answering.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Connections suspended and not yet run again.
    var count: Int { suspended.load(ordering: .relaxed) }

    /// Stops new suspends, resumes every waiting connection, and waits until each has run again,
    /// for at most `timeoutMs`. False when some are still suspended at the deadline.
    func drain(timeoutMs: Int) -> Bool {
        gate.withLock { stopping.store(true, ordering: .releasing) }
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
        gate.withLock { stopping.store(true, ordering: .releasing) }
        scheduler.shutdown()
    }
}

/// Whether one connection (or one throttled body) is suspended now. Only `SuspendedConnections`
/// sets or clears it, so the count it keeps and the marks always agree.
struct SuspensionMark {
    fileprivate(set) var isSuspended = false
}

/// A suspended connection as the owner and its timer see it: the connection's address bits
/// (`MHDConnection.handle`), or any number in tests.
typealias SuspensionHandle = UInt
