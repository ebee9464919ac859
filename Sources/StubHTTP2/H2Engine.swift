import StubCore
import StubSystem
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTTPS port's front and every HTTP/2 connection, on one thread that waits on all their
/// sockets and runs their timers: no thread per connection or stream. It accepts on the HTTPS
/// listeners and peeks at each ClientHello (`ClientHelloALPN`): a client offering `h2` is served
/// here, with GnuTLS and nghttp2; any other socket goes to libmicrohttpd unread
/// (`H2Services.handOff`), which does its own handshake as it would have on its own listener.
///
/// A stream's waits (delays, holds, deferred replies, paced bodies) are tickets: a timer on this
/// thread, or an early wake from another thread through the inbox (`resumeEarly`).
package final class H2Engine: @unchecked Sendable {
    // @unchecked: everything but `inbox` is touched only on the engine's thread; `inbox` behind
    // its lock; `thread` is set in `init` and cleared in `stop`, which the owner calls once.

    /// What other threads leave for the engine's thread, and the pipe that wakes it.
    struct Inbox {
        var wakes: [UInt64] = []
        var wake: (read: Int32, write: Int32)?
    }

    /// A socket accepted whose ClientHello has not been read whole yet.
    struct Pending {
        let listener: Int
        var address: sockaddr_storage
        let length: socklen_t
        /// The deadline's ticket: the socket is closed if no whole hello came by then.
        let ticket: UInt64
        /// How long to wait before peeking again at a partial hello (doubling, at most 50 ms).
        var retryNs: UInt64 = 1_000_000
    }

    /// Sockets that may wait for their ClientHello at once; past it, new ones are closed.
    static let maxPending = 1024

    /// What a ticket wakes: a stream's wait, or the deadline of a pending socket.
    enum Wait {
        case stream(connection: Int, stream: Int32)
        case hello(fd: Int32)
        /// A connection that said GOAWAY and shut its side, read until the client closes.
        case linger(connection: Int)
        /// The once-a-second look for streams a client's flow-control window has stalled.
        case sweep
        /// Peek again at a pending socket that holds part of a hello.
        case peekAgain(fd: Int32)
        /// Listen again after accept ran out of descriptors.
        case relisten
    }

    /// How long a connection that said GOAWAY waits for its client to close before it closes.
    static let lingerNs: UInt64 = 500_000_000
    /// How often stalled windows are looked for.
    static let sweepNs: UInt64 = 1_000_000_000

    /// Tickets have this bit set, so a releaser can tell them from libmicrohttpd's suspensions.
    package static let ticketBit: UInt64 = 1 << 62
    static let stopToken = UInt64.max
    static let wakeToken = UInt64.max - 1
    static let listenerToken: UInt64 = 1 << 41
    static let pendingToken: UInt64 = 1 << 40

    let services: H2Services
    let limits: H2Limits
    let identity: H2Identity
    /// nghttp2's callbacks and options, shared by every session.
    let kit: H2SessionKit
    /// Where decrypted bytes are read to, one record at a time (the engine's thread only).
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
    let inbox: Locked<Inbox>
    let watch: SocketWatch
    /// The HTTPS listening sockets, closed by `stop`.
    let listeners: [Int32]
    var pending: [Int32: Pending] = [:]
    var connections: [Int: H2Connection] = [:]
    var timers = TimerHeap<UInt64>()
    var waits: [UInt64: Wait] = [:]
    private var nextTicket = H2Engine.ticketBit
    var nextConnection = 1
    /// Connections that stopped at their read slice with input still decrypted inside GnuTLS,
    /// which no socket event will announce: read again on the next turn.
    var readAgain: Set<Int> = []
    /// True once the server is stopping: waits end at once, and new streams are refused.
    var stopping = false
    /// How many clients went each way, for tests and health.
    let counts = Locked((h2: 0, handedOff: 0))
    private var thread: StoppableThread?

    /// Starts serving `listeners` (HTTPS sockets, bound and listening) with the certificate and key
    /// given. Throws when GnuTLS refuses them or no thread can be started.
    package init(listeners: [Int32], certificatePEM: [UInt8], keyPEM: [UInt8], services: H2Services, limits: H2Limits,
                 useEpoll: Bool) throws(SystemCallError) {
        guard let identity = H2Identity(certificatePEM: certificatePEM, keyPEM: keyPEM) else {
            throw SystemCallError(call: "gnutls credentials", errno: EINVAL)
        }
        guard let kit = H2SessionKit(limits: limits) else { throw SystemCallError(call: "nghttp2_session_callbacks_new", errno: ENOMEM) }
        self.identity = identity
        self.kit = kit
        self.services = services
        self.limits = limits
        self.listeners = listeners
        for fd in listeners { try LibC.setNonBlocking(fd) }
        let wake = try LibC.makeWakePipe()
        inbox = Locked(Inbox(wake: wake))
        watch = SocketWatch(useEpoll: useEpoll)
        do {
            thread = try StoppableThread(name: "stubd-http2") { [unowned self] stopFD in self.run(stopFD: stopFD) }
        } catch {
            LibC.close(wake.read)
            LibC.close(wake.write)
            throw error
        }
    }

    deinit { scratch.deallocate() }

    /// Wakes the stream waiting under `ticket` now (a hold's release, deferred work done), from
    /// any thread. A ticket that already woke, or whose stream ended, is ignored.
    package func resumeEarly(_ ticket: UInt64) {
        inbox.withLock { inbox in
            guard let wake = inbox.wake else { return }
            inbox.wakes.append(ticket)
            var byte: UInt8 = 1
            // A full pipe already holds a wake-up: EAGAIN loses nothing.
            _ = LibC.write(wake.write, &byte, 1)
        }
    }

    /// Ends every stream (waiting ones are answered as a stopping server answers them), sends
    /// each connection GOAWAY, flushes for up to 500 ms, closes every socket and the listeners,
    /// and ends the thread. Safe to call twice.
    package func stop() {
        thread?.stop()
        thread = nil
        inbox.withLock { inbox in
            if let wake = inbox.wake {
                LibC.close(wake.read)
                LibC.close(wake.write)
            }
            inbox.wake = nil
        }
    }

    /// A new ticket for `wait`, due at `until` (`.max`: only an early wake ends it).
    func ticket(for wait: Wait, until: UInt64) -> UInt64 {
        let ticket = nextTicket
        nextTicket &+= 1
        waits[ticket] = wait
        if until != .max { timers.push(until, ticket) }
        return ticket
    }

    private func run(stopFD: Int32) {
        guard let wakeRead = inbox.withLock({ $0.wake?.read }) else { return }
        watch.watch(stopFD, token: H2Engine.stopToken, read: true, write: false)
        watch.watch(wakeRead, token: H2Engine.wakeToken, read: true, write: false)
        listen()
        _ = ticket(for: .sweep, until: MonotonicClock.now() &+ H2Engine.sweepNs)
        while true {
            var now = MonotonicClock.now()
            let timeout = !readAgain.isEmpty ? 0 : timers.next.map { $0 <= now ? 0 : Int32(min(($0 - now + 999_999) / 1_000_000, 60_000)) } ?? -1
            let ready = watch.wait(timeoutMs: timeout)
            now = MonotonicClock.now()
            for event in ready {
                switch event.token {
                case H2Engine.stopToken: return goAway()
                case H2Engine.wakeToken: takeInbox(wakeRead, now: now)
                case let token where token & H2Engine.listenerToken != 0: accept(listener: Int(token & 0xffff), now: now)
                case let token where token & H2Engine.pendingToken != 0: peek(Int32(truncatingIfNeeded: token & 0xffff_ffff), now: now)
                default:
                    guard let connection = connections[Int(event.token)] else { continue }
                    connection.ready(readable: event.readable, writable: event.writable, now: now)
                    settle(connection)
                }
            }
            for id in readAgain {
                readAgain.remove(id)
                guard let connection = connections[id] else { continue }
                connection.ready(readable: true, writable: false, now: now)
                settle(connection)
            }
            for (_, ticket) in timers.popDue(now) { wake(ticket, now: now) }
        }
    }

    /// Watches the listeners for new connections.
    func listen() {
        for (index, fd) in listeners.enumerated() { watch.watch(fd, token: H2Engine.listenerToken | UInt64(index), read: true, write: false) }
    }

    /// After `connection` ran: closed if it failed; lingering if it finished after its GOAWAY
    /// (closing a socket with the client's bytes unread would reset it, and the client would lose
    /// the GOAWAY and the last answers); else watched for what it waits for.
    func settle(_ connection: H2Connection) {
        if connection.failed {
            connections[connection.id] = nil
            watch.forget(connection.fd)
            connection.close(now: MonotonicClock.now())
            return
        }
        if connection.lingering { return }
        if connection.finished {
            connection.linger()
            _ = ticket(for: .linger(connection: connection.id), until: ConnectionAdmission.due(MonotonicClock.now(), H2Engine.lingerNs))
            return watch.watch(connection.fd, token: UInt64(connection.id), read: true, write: false)
        }
        watch.watch(connection.fd, token: UInt64(connection.id), read: true, write: connection.wantsWrite)
        if connection.hasBufferedInput { readAgain.insert(connection.id) }
    }
}
