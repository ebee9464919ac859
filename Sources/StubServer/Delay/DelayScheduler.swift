import CMicroHTTPD
import Glibc

/// Resumes suspended libmicrohttpd connections when their delay is up, from one thread with a
/// min-heap of deadlines: ten thousand delayed requests cost heap entries, not threads.
final class DelayScheduler: @unchecked Sendable {
    private struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var connection: ConnectionHandle
    }

    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0
    private var running = true
    private var thread: pthread_t?
    /// Wake-ups are pushed this far past the earliest deadline so that one wake-up resumes every
    /// connection due by then: libmicrohttpd walks its whole suspended list on each resume wake-up,
    /// so resuming one connection at a time costs O(suspended) each. Never early, at most this late.
    static let coalesceNs: UInt64 = 1_000_000

    init() {
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
        var t = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()  // released by the thread when it ends
        pthread_create(&t, nil, delaySchedulerThreadMain, box)
        thread = t
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    /// Resumes `connection` at `deadline` (monotonic ns). The connection must already be suspended.
    func schedule(_ connection: ConnectionHandle, at deadline: UInt64) {
        pthread_mutex_lock(&mutex)
        heap.append(Entry(deadline: deadline, sequence: nextSequence, connection: connection))
        nextSequence &+= 1
        siftUp(heap.count - 1)
        let isEarliest = heap[0].sequence == nextSequence &- 1
        pthread_mutex_unlock(&mutex)
        if isEarliest { pthread_cond_signal(&condition) }
    }

    /// Resumes every pending connection now (shutdown).
    func resumeAll() {
        pthread_mutex_lock(&mutex)
        let all = heap
        heap.removeAll()
        pthread_mutex_unlock(&mutex)
        for entry in all { MHD_resume_connection(entry.connection.pointer) }
    }

    /// Number of connections waiting.
    var pendingCount: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return heap.count
    }

    /// Stops the thread; pending connections are resumed first.
    func shutdown() {
        resumeAll()
        pthread_mutex_lock(&mutex)
        running = false
        pthread_mutex_unlock(&mutex)
        pthread_cond_signal(&condition)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    fileprivate func run() {
        var due: [ConnectionHandle] = []
        pthread_mutex_lock(&mutex)
        while running {
            let now = MonotonicClock.now()
            while let first = heap.first, first.deadline <= now {
                due.append(popMin().connection)
            }
            if !due.isEmpty {
                pthread_mutex_unlock(&mutex)
                for c in due { MHD_resume_connection(c.pointer) }
                due.removeAll(keepingCapacity: true)
                pthread_mutex_lock(&mutex)
                continue
            }
            if let first = heap.first {
                let wake = first.deadline + DelayScheduler.coalesceNs
                var ts = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
                pthread_cond_timedwait(&condition, &mutex, &ts)
            } else {
                pthread_cond_wait(&condition, &mutex)
            }
        }
        pthread_mutex_unlock(&mutex)
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (heap[a].deadline, heap[a].sequence) < (heap[b].deadline, heap[b].sequence)
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

    private func popMin() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < heap.count && less(l, smallest) { smallest = l }
                if r < heap.count && less(r, smallest) { smallest = r }
                if smallest == i { break }
                heap.swapAt(i, smallest)
                i = smallest
            }
        }
        return top
    }
}

/// The scheduler thread's entry point: a file-scope function, so it captures nothing.
private func delaySchedulerThreadMain(_ box: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let scheduler = Unmanaged<DelayScheduler>.fromOpaque(box!).takeRetainedValue()
    scheduler.run()
    return nil
}

/// A libmicrohttpd connection pointer that may cross threads: MHD allows resume from any thread.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
