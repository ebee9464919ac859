import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread that closes connections whose request head is late (`ConnectionAdmission.sweep`),
/// four times a second: a head deadline is seconds long, so a quarter second of slack is noise.
package final class HeaderTimeoutSweeper: Sendable {
    package static let intervalMs: Int32 = 250

    private let thread: StoppableThread

    package init(admission: ConnectionAdmission) throws(SystemCallError) {
        thread = try StoppableThread(name: "stubd-sweep") { stopFD in
            var poller = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            // Ends when the stop descriptor becomes readable (or poll fails for good).
            while (try? SystemCall.run("poll", { poll(&poller, 1, HeaderTimeoutSweeper.intervalMs) })) == 0 {
                admission.sweep(now: MonotonicClock.now())
            }
        }
    }

    /// Stops the thread and waits for it.
    package func stop() {
        thread.stop()
    }
}
