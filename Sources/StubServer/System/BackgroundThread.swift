import Glibc
import StubCore

/// Starts plain threads for the timer, the watcher, the log flusher and deferred replies.
/// Plain pthreads rather than Dispatch: each runs one loop for the server's lifetime, and their
/// number stays fixed however many requests wait.
enum BackgroundThread {
    /// Starts `body` on a new thread; join it with `pthread_join` unless `detached`.
    @discardableResult
    static func start(detached: Bool = false, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> pthread_t {
        // Retained here, released by the thread's entry point when it starts.
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        do {
            try SystemCall.pthread("pthread_create") { pthread_create(&thread, nil, backgroundThreadMain, box) }
        } catch {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw error
        }
        if detached { pthread_detach(thread) }
        return thread
    }
}

private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The entry point of every background thread: a file-scope function, so it captures nothing.
private func backgroundThreadMain(_ box: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let box else { return nil }
    Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().body()
    return nil
}
