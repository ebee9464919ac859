import StubCore
import StubSystem

/// Where deferred replies are made, at a bounded cost. Blocking work (a reload) runs on a fixed
/// number of worker threads with a bounded queue; work that waits on something else (an upstream
/// call) costs no thread, and how many may wait at once is bounded too. When either is full,
/// `start` refuses and the request gets a 503 naming the limit, never a new thread.
package final class DeferredJobs: Sendable {
    /// Blocking jobs waiting or running at most (reloads are rare; a crowd of them is an attack).
    package let blockingLimit: Int
    /// Callback jobs (upstream calls) waiting at once at most.
    package let waitingLimit: Int

    private let workers: [SerialWorker]
    private let blocking = AtomicWord<Int>(0)
    private let waiting = AtomicWord<Int>(0)
    private let next = AtomicWord<Int>(0)

    /// Starts `threads` worker threads.
    package init(threads: Int = 1, blockingLimit: Int = 64, waitingLimit: Int = 10_000) throws(SystemCallError) {
        self.blockingLimit = max(1, blockingLimit)
        self.waitingLimit = max(1, waitingLimit)
        var made: [SerialWorker] = []
        for index in 0..<max(1, threads) {
            do { made.append(try SerialWorker(name: "stubd-job-\(index)")) } catch {
                for worker in made { worker.stop() }
                throw error
            }
        }
        workers = made
    }

    /// Starts `work`; `done` gets its reply (on a worker thread, or wherever the work calls back).
    /// False, with nothing started, when the bound for its kind is reached.
    package func start(_ work: DeferredReply.Work, done: @escaping @Sendable (Reply) -> Void) -> Bool {
        switch work {
        case .blocking(let make):
            guard DeferredJobs.take(blocking, limit: blockingLimit) else { return false }
            let index = next.add(1, ordering: .relaxed).newValue % workers.count
            workers[index].submit { [self] in
                let reply = make()
                blocking.subtract(1, ordering: .relaxed)
                done(reply)
            }
        case .callback(let begin):
            guard DeferredJobs.take(waiting, limit: waitingLimit) else { return false }
            begin { [self] reply in
                waiting.subtract(1, ordering: .relaxed)
                done(reply)
            }
        }
        return true
    }

    /// The answer to a request whose deferred work found no room.
    package func busyReply(_ work: DeferredReply.Work) -> Reply {
        let limit: String
        switch work {
        case .blocking: limit = "\(blockingLimit) reloads waiting or running"
        case .callback: limit = "\(waitingLimit) requests waiting for the upstream"
        }
        return Reply.error(503, "too many requests waiting for a deferred reply", [("limit", .string(limit)), ("hint", .string("retry shortly"))])
    }

    /// Stops the worker threads after the jobs they run; queued jobs are dropped.
    package func stop() {
        for worker in workers { worker.stop() }
    }

    private static func take(_ counter: borrowing AtomicWord<Int>, limit: Int) -> Bool {
        if counter.add(1, ordering: .relaxed).newValue <= limit { return true }
        counter.subtract(1, ordering: .relaxed)
        return false
    }
}
