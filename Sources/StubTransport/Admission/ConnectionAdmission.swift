import StubCore
import StubSystem

/// The one owner of the connection limits: how many connections are open, how many per client
/// address, how long a connection may take to deliver a request head, and how fast it must send
/// a body. libmicrohttpd has no deadline for a head or a body (each byte resets its idle timer)
/// and, at its connection limit, leaves new clients waiting in the listen backlog; so the server
/// sets libmicrohttpd's limit a little above `limits.connections`, and here, at the limit, the
/// waiting connection that has made the least progress is closed to admit the new one (slow
/// senders can never lock out a fast client), and connections whose head or body is late are
/// shut down. The close action is passed in, so the tests run without libmicrohttpd.
package final class ConnectionAdmission: Sendable {
    /// The limits it enforces.
    package struct Limits: Sendable {
        /// Open connections; more are closed as soon as they are accepted.
        package var connections: Int
        /// Open connections from one address; 0 for no cap.
        package var perClient: Int
        /// Nanoseconds from connecting (or from a kept-alive request's first line) to the end of its head.
        package var headerTimeoutNs: UInt64
        /// Nanoseconds a kept-alive connection may wait for its next head to be complete.
        package var idleNs: UInt64
        /// Nanoseconds a body may take, before `minBodyRate` extends it.
        package var bodyNs: UInt64 = 20_000_000_000
        /// Bytes per second that each extend a body's time by a second (like Apache's
        /// mod_reqtimeout `MinRate`); 0 for none.
        package var minBodyRate: Int = 500

        package init(connections: Int, perClient: Int, headerTimeoutNs: UInt64, idleNs: UInt64, bodyNs: UInt64 = 20_000_000_000,
                     minBodyRate: Int = 500) {
            self.connections = connections
            self.perClient = perClient
            self.headerTimeoutNs = headerTimeoutNs
            self.idleNs = idleNs
            self.bodyNs = bodyNs
            self.minBodyRate = minBodyRate
        }
    }

    /// Where a connection is in its request, for the deadline that applies and for choosing
    /// which connection to close at the limit.
    package enum Phase: UInt8 {
        /// Waiting for a request head (after connecting, or the TLS handshake).
        case head
        /// The head is in; the body is arriving.
        case body
        /// The request is complete and being answered (delays and holds included).
        case answering
        /// Kept alive, waiting for the next request.
        case idle
        /// Closed to make room; libmicrohttpd has not seen it go yet.
        case evicted
    }

    /// One open connection.
    package final class Connection: Sendable {
        package let fd: Int32
        package let address: ClientAddress?
        /// When the connection is closed unless its head arrives (monotonic ns; `.max`: none).
        package let deadline: AtomicWord<UInt64>
        /// A `Phase`'s raw value.
        package let phase = AtomicWord<UInt8>(Phase.head.rawValue)
        /// When it connected, or its current head or body began (monotonic ns).
        package let since: AtomicWord<UInt64>
        /// Body bytes received so far in the current request.
        package let bodyBytes = AtomicWord<Int>(0)

        package init(fd: Int32, address: ClientAddress?, deadline: UInt64, now: UInt64) {
            self.fd = fd
            self.address = address
            self.deadline = AtomicWord(deadline)
            since = AtomicWord(now)
        }

        package var currentPhase: Phase { Phase(rawValue: phase.load(ordering: .relaxed)) ?? .head }

        func enter(_ next: Phase, now: UInt64) {
            phase.store(next.rawValue, ordering: .relaxed)
            since.store(now, ordering: .relaxed)
        }
    }

    struct State {
        var open: [ObjectIdentifier: Connection] = [:]
        package var perClient: [ClientAddress: Int] = [:]
        package var refusedFull = 0
        package var refusedClient = 0
        package var timedOut = 0
        package var idleClosed = 0
        package var slowBodies = 0
        /// Connections closed to make room that libmicrohttpd has not yet reported closed.
        package var evicting = 0
        package var evicted = 0
    }

    /// `now + ns`, or `.max` when that would overflow (a deadline past the end of time is none).
    package static func due(_ now: UInt64, _ ns: UInt64) -> UInt64 {
        let (sum, overflow) = now.addingReportingOverflow(ns)
        return overflow ? .max : sum
    }

    package let limits: Limits
    let state = Locked(State())
    package let close: @Sendable (Int32) -> Void
    package let peerGone: @Sendable (Int32) -> Bool
    package let report: LimitReport

    /// `close` shuts a late connection's socket (libmicrohttpd then closes it); `peerGone` tells
    /// whether the client has closed its side of an idle connection; `log` receives one line when
    /// a limit is hit, at most once per `LimitReport.intervalNs` for each kind.
    package init(limits: Limits, close: @escaping @Sendable (Int32) -> Void, peerGone: @escaping @Sendable (Int32) -> Bool = { _ in false },
         log: @escaping @Sendable (String) -> Void) {
        self.limits = limits
        self.close = close
        self.peerGone = peerGone
        report = LimitReport(log: log)
    }

    /// Whether a client at `address` may connect now. At the connection limit, the waiting
    /// connection with the least progress is closed to make room (see `victim`).
    package func admit(_ address: ClientAddress?, now: UInt64) -> Bool {
        let verdict = state.withLock { s -> (admitted: Bool, client: String?, evicted: Bool) in
            if limits.perClient > 0, let address, s.perClient[address, default: 0] >= limits.perClient {
                s.refusedClient += 1
                return (false, address.description, false)
            }
            guard s.open.count - s.evicting >= limits.connections else { return (true, nil, false) }
            guard let victim = ConnectionAdmission.victim(among: s.open.values, now: now) else {
                s.refusedFull += 1
                return (false, nil, false)
            }
            victim.enter(.evicted, now: now)
            victim.deadline.store(.max, ordering: .relaxed)
            s.evicting += 1
            s.evicted += 1
            close(victim.fd)
            return (true, nil, true)
        }
        if let client = verdict.client {
            report.note(.perClient, now: now, "stubd: \(client) has \(limits.perClient) connections open (the per-client cap); closing its new connections at once")
        } else if verdict.evicted {
            report.note(.evicted, now: now, "stubd: \(limits.connections) connections open (the connection limit); closing the one that made the least progress to admit a new one")
        } else if !verdict.admitted {
            report.note(.full, now: now, "stubd: \(limits.connections) connections open (the connection limit), all being answered; closing new connections at once")
        }
        return verdict.admitted
    }

    /// A connection was accepted; it must deliver its first head within `limits.headerTimeoutNs`.
    package func opened(fd: Int32, address: ClientAddress?, now: UInt64) -> Connection {
        let connection = Connection(fd: fd, address: address, deadline: ConnectionAdmission.due(now, limits.headerTimeoutNs), now: now)
        state.withLock { s in
            s.open[ObjectIdentifier(connection)] = connection
            if let address { s.perClient[address, default: 0] += 1 }
        }
        return connection
    }

    /// A request line arrived: its head must be complete within `limits.headerTimeoutNs` from now.
    package func headStarted(_ connection: Connection, now: UInt64) {
        if connection.currentPhase == .idle { connection.enter(.head, now: now) }
        let due = ConnectionAdmission.due(now, limits.headerTimeoutNs)
        var current = connection.deadline.load(ordering: .relaxed)
        while due < current {
            let (exchanged, original) = connection.deadline.compareExchange(expected: current, desired: due, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The head is complete. A body that follows must arrive within `limits.bodyNs`, extended by
    /// a second for every `limits.minBodyRate` bytes; without one, nothing is due until the
    /// request is done.
    package func headReceived(_ connection: Connection, expectsBody: Bool, now: UInt64) {
        guard connection.currentPhase != .evicted else { return }
        guard expectsBody else {
            connection.enter(.answering, now: now)
            connection.deadline.store(.max, ordering: .relaxed)
            return
        }
        connection.bodyBytes.store(0, ordering: .relaxed)
        connection.enter(.body, now: now)
        connection.deadline.store(ConnectionAdmission.due(now, limits.bodyNs), ordering: .relaxed)
    }

    /// `count` more body bytes arrived: the body's deadline moves out with them.
    package func bodyProgress(_ connection: Connection, count: Int) {
        guard connection.currentPhase == .body else { return }
        let total = connection.bodyBytes.add(count, ordering: .relaxed).newValue
        guard limits.minBodyRate > 0 else { return }
        let earned = UInt64(total / limits.minBodyRate) * 1_000_000_000
        let due = ConnectionAdmission.due(ConnectionAdmission.due(connection.since.load(ordering: .relaxed), limits.bodyNs), earned)
        connection.deadline.store(due, ordering: .relaxed)
    }

    /// The whole request is in; nothing is due until it is answered.
    package func requestReceived(_ connection: Connection, now: UInt64) {
        guard connection.currentPhase != .evicted else { return }
        connection.enter(.answering, now: now)
        connection.deadline.store(.max, ordering: .relaxed)
    }

    /// A request is done; a kept-alive connection must deliver its next head within `limits.idleNs`,
    /// counted from the next sweep (so the request path reads no clock for it). Its `since` stays
    /// when its request arrived, which orders idle connections well enough to pick a victim.
    package func requestDone(_ connection: Connection) {
        guard connection.currentPhase != .evicted else { return }
        connection.phase.store(Phase.idle.rawValue, ordering: .relaxed)
        connection.deadline.store(ConnectionAdmission.idleFromNextSweep, ordering: .relaxed)
    }

    /// libmicrohttpd is closing the connection (its socket is still open).
    package func closed(_ connection: Connection) {
        state.withLock { s in
            s.open[ObjectIdentifier(connection)] = nil
            if connection.currentPhase == .evicted { s.evicting -= 1 }
            if let address = connection.address {
                let left = s.perClient[address, default: 1] - 1
                s.perClient[address] = left > 0 ? left : nil
            }
        }
    }

    /// Counts for tests and health: open connections, refusals, late heads, slow bodies and
    /// connections closed to make room so far.
    package var counts: (open: Int, refusedFull: Int, refusedPerClient: Int, timedOut: Int, idleClosed: Int, slowBodies: Int, evicted: Int) {
        state.withLock { ($0.open.count, $0.refusedFull, $0.refusedClient, $0.timedOut, $0.idleClosed, $0.slowBodies, $0.evicted) }
    }
}
