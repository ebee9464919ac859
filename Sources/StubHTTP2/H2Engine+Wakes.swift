import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What wakes the engine's thread besides a socket: other threads' early wakes, and tickets whose
/// time came.
extension H2Engine {
    /// Takes the early wakes other threads left.
    func takeInbox(_ wakeRead: Int32, now: UInt64) {
        var scratch = [UInt8](repeating: 0, count: 64)
        while LibC.read(wakeRead, &scratch, scratch.count) > 0 {}
        let wakes = inbox.withLock { inbox in
            defer { inbox.wakes.removeAll() }
            return inbox.wakes
        }
        for ticket in wakes { wake(ticket, now: now) }
    }

    /// Carries out what `ticket` waited for, unless it already woke.
    func wake(_ ticket: UInt64, now: UInt64) {
        guard let wait = waits.removeValue(forKey: ticket) else { return }
        switch wait {
        case .hello(let fd):
            guard pending.removeValue(forKey: fd) != nil else { return }
            watch.forget(fd)
            LibC.close(fd)
        case .stream(let id, let streamID):
            guard let connection = connections[id] else { return }
            connection.wake(stream: streamID, ticket: ticket, now: now)
            settle(connection)
        case .linger(let id):
            guard let connection = connections.removeValue(forKey: id) else { return }
            watch.forget(connection.fd)
            connection.close(now: now)
        case .peekAgain(let fd):
            peek(fd, now: now)
        case .relisten:
            listen()
        case .sweep:
            _ = self.ticket(for: .sweep, until: now &+ H2Engine.sweepNs)
            for connection in connections.values where connection.resetStalledStreams(now: now, limitNs: limits.stalledWindowNs) {
                connection.flush()
                settle(connection)
            }
        }
    }
}
