#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A background thread whose loop polls a stop descriptor beside its own: `stop` makes that
/// descriptor readable and joins the thread. The watcher and the head-deadline sweeper run on one.
package final class StoppableThread: @unchecked Sendable {
    // @unchecked: `thread` is written by `init` and by `stop`, which joins the thread first; the
    // descriptors never change.
    private let stopPipe: (read: Int32, write: Int32)
    private var thread: pthread_t?

    /// Starts `body` on a thread named `name`; `body` must return once the descriptor it is given
    /// becomes readable.
    package init(name: String, _ body: @escaping @Sendable (_ stopFD: Int32) -> Void) throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&fds) }
        let ends = (read: fds[0], write: fds[1])
        stopPipe = ends
        do {
            thread = try BackgroundThread.start(name: name) { body(ends.read) }
        } catch {
            close(ends.read)
            close(ends.write)
            throw error
        }
    }

    /// Tells the thread to end and waits for it. Safe to call twice.
    package func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        // One byte into the thread's own empty pipe: only EINTR could stop it, and `run` retries that.
        _ = try? SystemCall.run("write") { write(stopPipe.write, &byte, 1) }
        pthread_join(thread, nil)
        self.thread = nil
        close(stopPipe.read)
        close(stopPipe.write)
    }
}
