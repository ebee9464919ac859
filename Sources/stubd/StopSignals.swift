import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM for the long-running commands: blocked before any server thread exists, so
/// every thread inherits the mask and `wait` is the only place they arrive.
struct StopSignals {
    private var set = sigset_t()

    /// Blocks both signals in this thread (and so in every thread started after).
    init() throws(SystemCallError) {
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        try SystemCall.pthread("pthread_sigmask") { pthread_sigmask(SIG_BLOCK, &set, nil) }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits for either; returns its name.
    mutating func wait() -> String {
        var received: Int32 = 0
        // sigwait returns its error instead of setting errno; with a valid set it does not fail.
        while (try? SystemCall.pthread("sigwait", { sigwait(&set, &received) })) == nil {}
        return received == SIGINT ? "SIGINT" : "SIGTERM"
    }
}
