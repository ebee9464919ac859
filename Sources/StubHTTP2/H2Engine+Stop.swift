internal import CNGHTTP2
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stopping server's last turn on the engine's thread.
extension H2Engine {
    /// How long a stopping engine lets its last frames go out.
    static let goingAwayNs: UInt64 = 500_000_000

    /// Stops accepting; answers every waiting stream as a stopping server does (a held request
    /// gets its 503); sends each connection GOAWAY(NO_ERROR) naming the last stream it took;
    /// flushes for up to 500 ms; closes everything.
    func goAway() {
        stopping = true
        var now = MonotonicClock.now()
        for fd in listeners + Array(pending.keys) {
            watch.forget(fd)
            LibC.close(fd)
        }
        pending.removeAll()
        for connection in connections.values {
            connection.now = now
            for stream in connection.streams.values where stream.ticket != nil {
                if let ticket = stream.ticket { waits[ticket] = nil }
                stream.ticket = nil
                stream.wake(stopping: true)
            }
            connection.sayGoingAway()
            connection.flush()
        }
        let deadline = now &+ H2Engine.goingAwayNs
        while now < deadline {
            // Connections still in their handshake have nothing to say: not waited for.
            let writing = connections.values.filter { $0.session != nil && !$0.finished && $0.wantsWrite }
            guard !writing.isEmpty else { break }
            var fds = writing.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            // A failed or interrupted wait only ends this round early: the deadline still holds.
            _ = try? SystemCall.run("poll") { poll(&fds, nfds_t(fds.count), Int32((deadline - now) / 1_000_000 + 1)) }
            now = MonotonicClock.now()
            for connection in writing {
                connection.now = now
                connection.flush()
            }
        }
        for connection in connections.values {
            watch.forget(connection.fd)
            connection.close(now: now)
        }
        connections.removeAll()
        waits.removeAll()
    }
}
