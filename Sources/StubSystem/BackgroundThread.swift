#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts plain threads for the timer, the watcher, the log flusher and deferred replies.
/// Plain pthreads rather than Dispatch: each runs one loop for the server's lifetime, and their
/// number stays fixed however many requests wait.
package enum BackgroundThread {
    /// Starts `body` on a new thread named `name` (`stubd-timer`, `stubd-watch`: a role a stack
    /// dump can tell apart); join it with `pthread_join` unless `detached`.
    @discardableResult
    package static func start(name: String, detached: Bool = false, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> pthread_t {
        let thread = try LibC.startThread(name: name, body).get()
        if detached { pthread_detach(thread) }
        return thread
    }
}
