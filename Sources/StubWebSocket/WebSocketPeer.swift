internal import CWslay
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One upgraded connection and the conversation held on it. wslay frames and unframes (masking,
/// fragments, control frames, ping answers, the close handshake, the size limit); this class
/// feeds it the socket's bytes and runs the script. Only the hub's thread touches it.
final class WebSocketPeer {
    /// What a timer does when it is due.
    enum Action {
        case send(Conversation.Message.Payload)
        case end(Conversation.Ending)
        /// The close was sent and the client has not answered it in time.
        case giveUp
        /// The socket fails as the conversation's `fault` says.
        case fault(Conversation.SocketFault.Kind)
        /// A throttled conversation may write again.
        case resume
        /// A GraphQL socket's client has not sent `connection_init` in time.
        case graphQLInitTimeout
        /// One `next` of subscription `id`; with a nil payload, its `complete`.
        case subscription(id: String, payload: JSONValue?)
        /// The server's own ping, then the next one scheduled.
        case ping
        /// The conversation may have been quiet for the idle limit.
        case idleCheck

        /// True for what closes or stops reading the socket, which must not happen inside one of
        /// wslay's reads.
        var touchesSocket: Bool {
            switch self {
            case .giveUp, .fault: true
            default: false
            }
        }
    }

    let fd: Int32
    let open: OpenConversation
    /// The conversation's number in `book`.
    let id: Int
    let book: ConversationBook
    let limits: WebSocketLimits
    /// Who ended the conversation, once known: `server`, `dropped`, `stopped`, `client`.
    var endedBy: (by: String, code: Int?, reason: String)?
    private let release: @Sendable () -> Void
    /// Bytes the client sent right after the handshake, read before the socket.
    var inbound: [UInt8]
    private(set) var context: OpaquePointer?
    /// The hub's time for the turn being run (monotonic ns): one clock read per turn.
    var now: UInt64
    /// Client messages received.
    var received = 0
    /// What happens when (monotonic ns).
    var timers = TimerHeap<Action>()
    /// The latest time a message is scheduled to go out: an ending or fault after the N-th
    /// message waits for that message's replies.
    var lastSendDue: UInt64 = 0
    /// True once the conversation has ended: a close queued or the connection dropped.
    var ending = false
    /// A close to send once the messages queued before it are out: wslay sends control frames
    /// ahead of queued messages, and a reply's last words must arrive before its close.
    var closeAfterQueue: (code: UInt16, reason: [UInt8])?
    /// True once the connection is to drop (no close frame) as soon as what is queued is out.
    var dropAfterQueue = false
    /// True once the read failed and the close went out: what arrives is dropped.
    var draining = false
    /// True once the connection is gone (read failed, dropped, or both closes done).
    private(set) var finished = false
    /// True once the server hangs: what wslay still writes (a pong) is dropped unsent.
    var silent = false
    /// For a throttled conversation: when the next bytes may be written (monotonic ns).
    var nextWriteNs: UInt64 = 0
    /// True while a `.resume` timer is set.
    var resumeScheduled = false
    /// For a GraphQL endpoint's socket: the protocol's state.
    var graphQL: GraphQLState?
    /// Framed bytes on their way to the socket, from `outboxStart`.
    var outbox: [UInt8] = []
    var outboxStart = 0
    /// What this turn may still read from the socket.
    var readBudget = 0
    /// The last frame from the client or message from stubd (monotonic ns).
    var lastActivityNs: UInt64
    /// Set by the hub: the client is not read while too much waits for it.
    var readPaused = false
    /// The queued bytes the hub last counted for this conversation.
    var countedQueue = 0

    init(fd: Int32, extra: [UInt8], open: OpenConversation, book: ConversationBook, limits: WebSocketLimits, now: UInt64,
         release: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.open = open
        self.book = book
        self.limits = limits
        id = book.opened(open)
        self.release = release
        inbound = extra
        self.now = now
        lastActivityNs = now
        var callbacks = wslay_event_callbacks(
            recv_callback: { _, buffer, length, _, user in WebSocketPeer.of(user).receive(into: buffer, length) },
            send_callback: { _, data, length, _, user in WebSocketPeer.of(user).transmit(data, length) },
            genmask_callback: nil, on_frame_recv_start_callback: nil, on_frame_recv_chunk_callback: nil,
            on_frame_recv_end_callback: nil,
            on_msg_recv_callback: { _, arg, user in
                guard let arg else { return }
                let bytes = arg.pointee.msg.map { Array(UnsafeBufferPointer(start: $0, count: arg.pointee.msg_length)) } ?? []
                WebSocketPeer.of(user).message(opcode: arg.pointee.opcode, bytes, closeCode: Int(arg.pointee.status_code))
            })
        var made: OpaquePointer?
        if wslay_event_context_server_init(&made, &callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0, let made {
            context = made
            wslay_event_config_set_max_recv_msg_length(made, UInt64(limits.maxMessageBytes))
        } else {
            finished = true
            release()
        }
        // Non-blocking, so that a write never stalls the hub; a failure shows at the first read.
        _ = try? LibC.setNonBlocking(fd)
        if open.conversation.graphQL != nil {
            graphQL = GraphQLState(legacy: open.subprotocol == "graphql-ws")
            timers.push(now &+ GraphQLState.initTimeoutNs, .graphQLInitTimeout)
        }
        schedule(open.conversation.onOpen, from: now, then: nil)
        if let ending = open.conversation.ending, let ms = ending.afterMs {
            timers.push(now &+ UInt64(ms) * 1_000_000, .end(ending))
        }
        if let every = open.conversation.pingEveryMs { timers.push(now &+ UInt64(every) * 1_000_000, .ping) }
        if let fault = open.conversation.fault, let ms = fault.afterMs {
            timers.push(now &+ UInt64(ms) * 1_000_000, .fault(fault.kind))
        }
        if limits.idleNs > 0 { timers.push(now &+ limits.idleNs, .idleCheck) }
    }

    deinit {
        if let context { wslay_event_context_free(context) }
    }

    private static func of(_ user: UnsafeMutableRawPointer?) -> WebSocketPeer {
        Unmanaged<WebSocketPeer>.fromOpaque(user!).takeUnretainedValue()
    }

    /// The poll events the peer waits for.
    var wantedEvents: (read: Bool, write: Bool) {
        guard let context, !finished else { return (false, false) }
        if draining { return (true, false) }
        // A throttled writer waits for its timer, not for room in the socket.
        let mayWrite = now >= nextWriteNs
        let write = mayWrite && (outboxStart < outbox.count || wslay_event_want_write(context) != 0)
        return (wslay_event_want_read(context) != 0 && !readPaused, write)
    }

    /// Bytes waiting for the client: wslay's queue and the outbox.
    var queuedBytes: Int {
        guard let context, !finished else { return 0 }
        return wslay_event_get_queued_msg_length(context) + (outbox.count - outboxStart)
    }

    /// The socket is readable (or closed): frames are read and answered, a slice at a time.
    func readable() {
        guard let context, !finished else { return }
        if draining { return drain() }
        // Not asked to read, yet woken as readable: a hang-up or an error, or nothing.
        guard !readPaused else {
            if LibC.connectionFinished(fd) { finish() }
            return
        }
        readBudget = WebSocketLimits.readSliceBytes
        let result = wslay_event_recv(context)
        guard result != 0 else { return }
        // A violation the frame layer finds (a fragmented or oversized control frame) ends the
        // read with a 1002 queued, or none: either way the client gets its close (RFC 6455
        // §7.1.7) before the connection closes. For a client that left, the send just fails.
        if wslay_event_get_close_sent(context) == 0 {
            if wslay_event_want_write(context) == 0 && result == WSLAY_ERR_PROTO.rawValue {
                let reason = Array("protocol error".utf8)
                // Refused only without memory or once writing stopped: the drain below ends it either way.
                _ = wslay_event_queue_close(context, 1002, reason, reason.count)
                endedBy = ("violation", 1002, "protocol error")
            }
            // It only frames into the outbox (`transmit` never fails): the socket's errors show in writeOutbox.
            _ = wslay_event_send(context)
            writeOutbox()
        }
        // Closing now, with the client's bytes unread, would reset the connection and could
        // destroy the close frame before the client reads it: the rest is read and dropped
        // until the client closes, for 2 s at most.
        startDraining()
    }

    /// Runs the timers that are due at `now`, in time order (push order among equals). During a
    /// read, only up to the first that would close or stop reading the socket; the hub's turn
    /// runs the rest once wslay's read is over.
    func fire(duringRead: Bool = false) {
        while !finished, let next = timers.first(dueAt: now) {
            if duringRead && next.touchesSocket { return }
            guard let (_, action) = timers.popFirst(ifDueAt: now) else { return }
            switch action {
            case .send(let payload): send(payload)
            case .end(let ending): end(ending)
            case .giveUp: finish()
            case .fault(.hang): hang()
            case .fault(.cut): cut()
            case .resume: resumeScheduled = false
            case .graphQLInitTimeout: refuse(4408, "Connection initialisation timeout")
            case .subscription(let id, let payload): subscriptionEvent(id, payload)
            case .ping: ping()
            case .idleCheck: idleCheck()
            }
        }
    }

    /// Closes the connection now (the hub's last step for each peer).
    func finish() {
        guard !finished else { return }
        finished = true
        timers.removeAll()
        outbox = []
        outboxStart = 0
        if let endedBy {
            book.ended(id, code: endedBy.code, reason: endedBy.reason, by: endedBy.by)
        } else if let context, wslay_event_get_close_sent(context) != 0 {
            // A close nobody here asked for: wslay failed the connection on a violation.
            let code = Int(wslay_event_get_status_code_sent(context))
            book.ended(id, code: code == 0 ? nil : code, reason: "protocol violation", by: "violation")
        } else {
            book.ended(id, code: nil, reason: "connection lost", by: "client")
        }
        release()
    }
}
