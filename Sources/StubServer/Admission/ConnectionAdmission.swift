import StubCore
import Synchronization

/// The one owner of the connection limits: how many connections are open, how many per client
/// address, and how long a connection may take to deliver a request head. libmicrohttpd has no
/// deadline for a request head (each byte resets its idle timer) and, at its connection limit,
/// leaves new clients waiting in the listen backlog; so the server sets libmicrohttpd's limit a
/// little above `limits.connections`, refuses the excess here (closed at once, never queued), and
/// shuts down connections whose head is late. The close action is passed in, so the tests run
/// without libmicrohttpd.
final class ConnectionAdmission: Sendable {
    /// The limits it enforces.
    struct Limits: Sendable {
        /// Open connections; more are closed as soon as they are accepted.
        var connections: Int
        /// Open connections from one address; 0 for no cap.
        var perClient: Int
        /// Nanoseconds from connecting (or from a kept-alive request's first line) to the end of its head.
        var headNs: UInt64
        /// Nanoseconds a kept-alive connection may wait for its next head to be complete.
        var idleNs: UInt64
    }

    /// One open connection.
    final class Connection: Sendable {
        let fd: Int32
        let address: ClientAddress?
        /// When the connection is closed unless its head arrives (monotonic ns; `.max`: none).
        let deadline: Atomic<UInt64>
        /// True while the deadline is a kept-alive connection's idle time, not a head's.
        let idle = Atomic<Bool>(false)

        init(fd: Int32, address: ClientAddress?, deadline: UInt64) {
            self.fd = fd
            self.address = address
            self.deadline = Atomic(deadline)
        }
    }

    private struct State {
        var open: [ObjectIdentifier: Connection] = [:]
        var perClient: [ClientAddress: Int] = [:]
        var refusedFull = 0
        var refusedClient = 0
        var timedOut = 0
        var idleClosed = 0
    }

    /// `now + ns`, or `.max` when that would overflow (a deadline past the end of time is none).
    static func due(_ now: UInt64, _ ns: UInt64) -> UInt64 {
        let (sum, overflow) = now.addingReportingOverflow(ns)
        return overflow ? .max : sum
    }

    let limits: Limits
    private let state = Locked(State())
    private let close: @Sendable (Int32) -> Void
    private let report: LimitReport

    /// `close` shuts a late connection's socket (libmicrohttpd then closes it); `log` receives one
    /// line when a limit is hit, at most once per `LimitReport.intervalNs` for each kind.
    init(limits: Limits, close: @escaping @Sendable (Int32) -> Void, log: @escaping @Sendable (String) -> Void) {
        self.limits = limits
        self.close = close
        report = LimitReport(log: log)
    }

    /// Whether a client at `address` may connect now.
    func admit(_ address: ClientAddress?, now: UInt64) -> Bool {
        let verdict = state.withLock { s -> (Bool, String?) in
            if s.open.count >= limits.connections {
                s.refusedFull += 1
                return (false, nil)
            }
            if limits.perClient > 0, let address, s.perClient[address, default: 0] >= limits.perClient {
                s.refusedClient += 1
                return (false, address.description)
            }
            return (true, nil)
        }
        if !verdict.0 {
            if let client = verdict.1 {
                report.note(.perClient, now: now, "stubd: \(client) has \(limits.perClient) connections open (the per-client cap); closing its new connections at once")
            } else {
                report.note(.full, now: now, "stubd: \(limits.connections) connections open (the connection limit); closing new connections at once")
            }
        }
        return verdict.0
    }

    /// A connection was accepted; it must deliver its first head within `limits.headNs`.
    func opened(fd: Int32, address: ClientAddress?, now: UInt64) -> Connection {
        let connection = Connection(fd: fd, address: address, deadline: ConnectionAdmission.due(now, limits.headNs))
        state.withLock { s in
            s.open[ObjectIdentifier(connection)] = connection
            if let address { s.perClient[address, default: 0] += 1 }
        }
        return connection
    }

    /// A request line arrived: its head must be complete within `limits.headNs` from now.
    func headStarted(_ connection: Connection, now: UInt64) {
        connection.idle.store(false, ordering: .relaxed)
        let due = ConnectionAdmission.due(now, limits.headNs)
        var current = connection.deadline.load(ordering: .relaxed)
        while due < current {
            let (exchanged, original) = connection.deadline.compareExchange(expected: current, desired: due, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The head is complete; nothing is due until the request is done.
    func headReceived(_ connection: Connection) {
        connection.idle.store(false, ordering: .relaxed)
        connection.deadline.store(.max, ordering: .relaxed)
    }

    /// A request is done; a kept-alive connection must deliver its next head within `limits.idleNs`.
    func requestDone(_ connection: Connection, now: UInt64) {
        connection.idle.store(true, ordering: .relaxed)
        connection.deadline.store(ConnectionAdmission.due(now, limits.idleNs), ordering: .relaxed)
    }

    /// libmicrohttpd is closing the connection (its socket is still open).
    func closed(_ connection: Connection) {
        state.withLock { s in
            s.open[ObjectIdentifier(connection)] = nil
            if let address = connection.address {
                let left = s.perClient[address, default: 1] - 1
                s.perClient[address] = left > 0 ? left : nil
            }
        }
    }

    /// Closes every connection whose head is late; returns how many. The sockets are shut under
    /// the lock that `closed` takes, so a socket is never touched after libmicrohttpd closed it.
    @discardableResult
    func sweep(now: UInt64) -> Int {
        let (late, idle) = state.withLock { s -> (Int, Int) in
            var late = 0
            var idle = 0
            for connection in s.open.values where connection.deadline.load(ordering: .relaxed) <= now {
                connection.deadline.store(.max, ordering: .relaxed)
                // Read before the socket is shut: libmicrohttpd may finish the request on its own
                // thread at once and mark the connection idle.
                if connection.idle.load(ordering: .relaxed) { idle += 1 } else { late += 1 }
                close(connection.fd)
            }
            s.timedOut += late
            s.idleClosed += idle
            return (late, idle)
        }
        if late > 0 {
            report.note(.late, now: now, "stubd: closed \(late) connection(s) that did not send a complete request head in time (--header-timeout)")
        }
        if idle > 0 {
            report.note(.idle, now: now, "stubd: closed \(idle) kept-alive connection(s) still sending their next head after the idle time")
        }
        return late + idle
    }

    /// Counts for tests and health: open connections, refusals and late heads so far.
    var counts: (open: Int, refusedFull: Int, refusedPerClient: Int, timedOut: Int, idleClosed: Int) {
        state.withLock { ($0.open.count, $0.refusedFull, $0.refusedClient, $0.timedOut, $0.idleClosed) }
    }
}
