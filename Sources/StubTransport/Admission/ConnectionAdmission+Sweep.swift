import StubCore
import StubSystem

/// The sweep: deadlines checked four times a second (`HeaderTimeoutSweeper`).
extension ConnectionAdmission {
    /// The deadline of a connection that went idle since the last sweep, which sets the real one.
    static let idleFromNextSweep = UInt64.max - 1

    /// A connection's deadline, the idle one set now if it went idle since the last sweep. A head
    /// that started meanwhile has set its own deadline: only the mark is replaced.
    func deadline(of connection: Connection, now: UInt64) -> UInt64 {
        let deadline = connection.deadline.load(ordering: .relaxed)
        guard deadline == ConnectionAdmission.idleFromNextSweep else { return deadline }
        let idle = ConnectionAdmission.due(now, limits.idleNs)
        let (exchanged, current) = connection.deadline.compareExchange(expected: deadline, desired: idle, ordering: .relaxed)
        return exchanged ? idle : current
    }

    /// Closes every connection whose head is late; returns how many. The sockets are shut under
    /// the lock that `closed` takes, so a socket is never touched after libmicrohttpd closed it.
    @discardableResult
    func sweep(now: UInt64) -> Int {
        let (late, idle, slow) = state.withLock { s -> (Int, Int, Int) in
            var late = 0, idle = 0, slow = 0
            // A client that sent its request and its FIN together leaves libmicrohttpd's
            // edge-triggered epoll loop waiting for a read that never comes: close it once
            // answered. Its FIN is there when it goes idle, so only connections that went idle
            // since the last sweep are looked at (one peek each, once): 1,000 idle keep-alive
            // connections cost no system call per sweep under the lock `admit` needs.
            for connection in s.open.values where connection.currentPhase == .idle
                && connection.deadline.load(ordering: .relaxed) == ConnectionAdmission.idleFromNextSweep && peerGone(connection.fd) {
                connection.deadline.store(.max, ordering: .relaxed)
                connection.enter(.evicted, now: now)
                s.evicting += 1
                close(connection.fd)
            }
            for connection in s.open.values where deadline(of: connection, now: now) <= now {
                connection.deadline.store(.max, ordering: .relaxed)
                // Read before the socket is shut: libmicrohttpd may finish the request on its own
                // thread at once and mark the connection idle.
                switch connection.currentPhase {
                case .idle: idle += 1
                case .body: slow += 1
                default: late += 1
                }
                close(connection.fd)
            }
            s.timedOut += late
            s.idleClosed += idle
            s.slowBodies += slow
            return (late, idle, slow)
        }
        if slow > 0 {
            report.note(.slowBody, now: now, "stubd: closed \(slow) connection(s) sending a body slower than --body-min-rate after --body-timeout")
        }
        if late > 0 {
            report.note(.late, now: now, "stubd: closed \(late) connection(s) that did not send a complete request head in time (--header-timeout)")
        }
        if idle > 0 {
            // Counted, not logged: most are quiet connections a client kept for later, whose close
            // is routine (as libmicrohttpd's own idle timer closes them without a word).
            report.count(.idle, times: idle)
        }
        return late + idle + slow
    }
}
