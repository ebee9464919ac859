import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `resume` for each handle when its deadline is up, from one thread with a min-heap of
/// deadlines: ten thousand delayed requests cost heap entries, not threads. Handles are plain bits
/// (`SuspensionHandle`) rather than a generic parameter, so the heap code is compiled for one
/// concrete type, and its tests run without libmicrohttpd. `SuspendedConnections` is its only user.
package final class DelayScheduler: @unchecked Sendable {
    // @unchecked: `heap`, `nextTicket` and `running` are only touched with `mutex` held; the rest is
    // immutable. The mutex and condition live in their own allocations: a pthread object must not
    // move, and a class's stored property has no address Swift promises to keep.
    private struct Entry {
        package var deadline: UInt64
        package var ticket: UInt64
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var heap: [Entry] = []
    /// The handle of every ticket still waiting. A ticket resumed early leaves the heap lazily:
    /// it is skipped when its deadline comes up, and the heap is rebuilt once half of it is such.
    private var live: [UInt64: SuspensionHandle] = [:]
    private var cancelled = 0
    private var nextTicket: UInt64 = 0
    private var running = true
    private var thread: pthread_t?
    private let resume: @Sendable (SuspensionHandle) -> Void

    /// Wake-ups are pushed this far past the earliest deadline so that one wake-up resumes every
    /// connection due by then: libmicrohttpd walks its whole suspended list on each resume wake-up,
    /// so resuming one connection at a time costs O(suspended) each. Never early, at most this late.
    package static var coalesceNs: UInt64 { 1_000_000 }

    /// Starts the timer thread; `resume` is called on it (or on the caller of `resumeAll`).
    init(resume: @escaping @Sendable (SuspensionHandle) -> Void) throws(SystemCallError) {
        self.resume = resume
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        LibC.initMonotonicCondition(condition)
        thread = try BackgroundThread.start(name: "stubd-timer") { [self] in run() }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Resumes `handle` at `deadline` (monotonic ns). Returns a ticket for `resumeEarly`.
    @discardableResult
    func schedule(_ handle: SuspensionHandle, at deadline: UInt64) -> UInt64 {
        pthread_mutex_lock(mutex)
        let ticket = nextTicket
        nextTicket &+= 1
        heap.append(Entry(deadline: deadline, ticket: ticket))
        live[ticket] = handle
        siftUp(heap.count - 1)
        let isEarliest = heap[0].ticket == ticket
        pthread_mutex_unlock(mutex)
        if isEarliest { pthread_cond_signal(condition) }
        return ticket
    }

    /// Resumes the handle of `ticket` now if it is still waiting; false when it was already resumed.
    func resumeEarly(_ ticket: UInt64) -> Bool {
        pthread_mutex_lock(mutex)
        guard let handle = live.removeValue(forKey: ticket) else {
            pthread_mutex_unlock(mutex)
            return false
        }
        cancelled += 1
        if cancelled > 64 && cancelled > heap.count / 2 { compact() }
        pthread_mutex_unlock(mutex)
        resume(handle)
        return true
    }

    /// Resumes every waiting handle now (shutdown).
    func resumeAll() {
        pthread_mutex_lock(mutex)
        let all = Array(live.values)
        live.removeAll()
        heap.removeAll()
        cancelled = 0
        pthread_mutex_unlock(mutex)
        for handle in all { resume(handle) }
    }

    /// Resumes what is waiting and stops the thread. Safe to call twice.
    func shutdown() {
        resumeAll()
        pthread_mutex_lock(mutex)
        running = false
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func run() {
        var due: [SuspensionHandle] = []
        pthread_mutex_lock(mutex)
        while running {
            let now = MonotonicClock.now()
            while let first = heap.first, first.deadline <= now {
                let ticket = popMin().ticket
                if let handle = live.removeValue(forKey: ticket) { due.append(handle) } else { cancelled -= 1 }
            }
            if !due.isEmpty {
                pthread_mutex_unlock(mutex)
                for handle in due { resume(handle) }
                due.removeAll(keepingCapacity: true)
                pthread_mutex_lock(mutex)
                continue
            }
            if let first = heap.first {
                // Saturating: a deadline of UInt64.max waits for `resumeEarly` or shutdown.
                let wake = first.deadline > UInt64.max - Self.coalesceNs ? UInt64.max : first.deadline + Self.coalesceNs
                LibC.wait(condition, mutex, untilNs: wake)
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        pthread_mutex_unlock(mutex)
    }

    /// Drops the entries of tickets resumed early and rebuilds the heap.
    private func compact() {
        heap.removeAll { live[$0.ticket] == nil }
        cancelled = 0
        for i in stride(from: heap.count / 2, through: 0, by: -1) { siftDown(i) }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (heap[a].deadline, heap[a].ticket) < (heap[b].deadline, heap[b].ticket)
    }

    private func siftUp(_ index: Int) {
        var i = index
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(i, parent) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private func siftDown(_ index: Int) {
        var i = index
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < heap.count && less(l, smallest) { smallest = l }
            if r < heap.count && less(r, smallest) { smallest = r }
            if smallest == i { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }

    private func popMin() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }
}
