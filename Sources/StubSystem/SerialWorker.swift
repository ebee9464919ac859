#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that runs jobs in turn, in the order they were queued: blocking work (a reload, a
/// fleet's admin call, a call to the fleet's store) costs this one thread, not one per request,
/// and never a thread that serves requests.
package final class SerialWorker: Sendable {
    private let jobs = Locked<[@Sendable () -> Void]>([])
    private let wake: (read: Int32, write: Int32)
    private let thread: StoppableThread

    /// Starts the worker's thread, named `name`.
    package init(name: String) throws(SystemCallError) {
        // Non-blocking both ways: the drain below stops at an empty pipe, and `submit` never
        // waits on a full one (thousands of jobs queued behind a slow one).
        let ends = try LibC.makeWakePipe()
        wake = ends
        let jobs = self.jobs
        do {
            thread = try StoppableThread(name: name) { stopFD in
                var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0), pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)]
                var scratch = [UInt8](repeating: 0, count: 64)
                while (try? SystemCall.run("poll", { poll(&fds, 2, -1) })) != nil, fds[0].revents == 0 {
                    while scratch.withUnsafeMutableBytes({ read(ends.read, $0.baseAddress, $0.count) }) > 0 {}
                    // Taken as a batch: a queue of thousands is not shifted once per job.
                    while case let batch = jobs.withLock({ j -> [@Sendable () -> Void] in defer { j = [] }; return j }), !batch.isEmpty {
                        for job in batch { job() }
                    }
                }
            }
        } catch {
            close(ends.read)
            close(ends.write)
            throw error
        }
    }

    /// Queues `job`; it runs on the worker thread after those queued before it.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: EAGAIN loses nothing.
        _ = write(wake.write, &byte, 1)
    }

    /// Stops the thread after the job it is running, and waits for it; queued jobs are dropped.
    package func stop() {
        thread.stop()
        close(wake.read)
        close(wake.write)
    }
}
