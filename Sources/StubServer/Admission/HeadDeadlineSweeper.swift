import Glibc
import StubCore
import Synchronization

/// The thread that closes connections whose request head is late (`ConnectionAdmission.sweep`),
/// four times a second: a head deadline is seconds long, so a quarter second of slack is noise.
final class HeadDeadlineSweeper: @unchecked Sendable {
    // @unchecked: `thread` is written by `init` and by `stop`, which joins the thread first.
    static let intervalMs: Int32 = 250

    private let stopPipe: (read: Int32, write: Int32)
    private var thread: pthread_t?

    init(admission: ConnectionAdmission) throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { Glibc.pipe(&fds) }
        let ends = (read: fds[0], write: fds[1])
        stopPipe = ends
        do {
            thread = try BackgroundThread.start {
                var poller = [pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)]
                // Ends when the stop pipe becomes readable (or poll fails for good).
                while (try? SystemCall.run("poll", { poll(&poller, 1, HeadDeadlineSweeper.intervalMs) })) == 0 {
                    admission.sweep(now: MonotonicClock.now())
                }
            }
        } catch {
            close(ends.read)
            close(ends.write)
            throw error
        }
    }

    /// Stops the thread and waits for it.
    func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = try? SystemCall.run("write") { write(stopPipe.write, &byte, 1) }
        pthread_join(thread, nil)
        self.thread = nil
        close(stopPipe.read)
        close(stopPipe.write)
    }
}
