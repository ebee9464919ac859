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
    }

    let fd: Int32
    let open: OpenConversation
    /// The conversation's number in `book`.
    let id: Int
    let book: ConversationBook
    /// Who ended the conversation, once known: `server`, `dropped`, `stopped`, `client`.
    var endedBy: (by: String, code: Int?, reason: String)?
    private let release: @Sendable () -> Void
    /// Bytes the client sent right after the handshake, read before the socket.
    var inbound: [UInt8]
    private(set) var context: OpaquePointer?
    private let openedNs: UInt64
    /// Client messages received.
    var received = 0
    /// Due times (monotonic ns) and what happens then, in no order.
    var timers: [(due: UInt64, action: Action)] = []
    /// True once the conversation has ended: a close queued or the connection dropped.
    var ending = false
    /// A close to send once the messages queued before it are out: wslay sends control frames
    /// ahead of queued messages, and a reply's last words must arrive before its close.
    var closeAfterQueue: (code: UInt16, reason: [UInt8])?
    /// True once the read failed and the close went out: what arrives is dropped.
    var draining = false
    /// True once the connection is gone (read failed, dropped, or both closes done).
    private(set) var finished = false
    /// True once the server hangs: what wslay still writes (a pong) is dropped unsent.
    var silent = false
    /// For a throttled conversation: when the next bytes may be written (monotonic ns).
    var nextWriteNs: UInt64 = 0
    /// For a GraphQL endpoint's socket: the protocol's state.
    var graphQL: GraphQLState?

    init(fd: Int32, extra: [UInt8], open: OpenConversation, book: ConversationBook, maxMessageBytes: Int, now: UInt64,
         release: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.open = open
        self.book = book
        id = book.opened(open)
        self.release = release
        inbound = extra
        openedNs = now
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
            wslay_event_config_set_max_recv_msg_length(made, UInt64(maxMessageBytes))
        } else {
            finished = true
            release()
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // libmicrohttpd turns Nagle back on when it hands the socket over; wslay writes a frame's
        // head and payload apart, and with Nagle the payload waits for the client's delayed ACK
        // (40 ms a message on Linux). A TLS connection's socket is a socketpair: the call fails, harmlessly.
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if open.conversation.graphQL != nil {
            graphQL = GraphQLState(legacy: open.subprotocol == "graphql-ws")
            timers.append((now &+ GraphQLState.initTimeoutNs, .graphQLInitTimeout))
        }
        schedule(open.conversation.onOpen, from: now, then: nil)
        if let ending = open.conversation.ending, let ms = ending.afterMs {
            timers.append((now &+ UInt64(ms) * 1_000_000, .end(ending)))
        }
        if let every = open.conversation.pingEveryMs { timers.append((now &+ UInt64(every) * 1_000_000, .ping)) }
        if let fault = open.conversation.fault, let ms = fault.afterMs {
            timers.append((now &+ UInt64(ms) * 1_000_000, .fault(fault.kind)))
        }
    }

    deinit {
        if let context { wslay_event_context_free(context) }
    }

    private static func of(_ user: UnsafeMutableRawPointer?) -> WebSocketPeer {
        Unmanaged<WebSocketPeer>.fromOpaque(user!).takeUnretainedValue()
    }

    /// The poll events the peer waits for.
    var wantedEvents: Int16 {
        guard let context, !finished else { return 0 }
        if draining { return Int16(POLLIN) }
        var events: Int16 = 0
        if wslay_event_want_read(context) != 0 { events |= Int16(POLLIN) }
        // A throttled writer waits for its timer, not for room in the socket.
        if wslay_event_want_write(context) != 0 && MonotonicClock.now() >= nextWriteNs { events |= Int16(POLLOUT) }
        return events
    }

    /// The socket is readable (or closed): frames are read and answered.
    func readable() {
        guard let context, !finished else { return }
        if draining { return drain() }
        let result = wslay_event_recv(context)
        guard result != 0 else { return }
        // A violation the frame layer finds (a fragmented or oversized control frame) ends the
        // read with a 1002 queued, or none: either way the client gets its close (RFC 6455
        // §7.1.7) before the connection closes. For a client that left, the send just fails.
        if wslay_event_get_close_sent(context) == 0 {
            if wslay_event_want_write(context) == 0 && result == WSLAY_ERR_PROTO.rawValue {
                let reason = Array("protocol error".utf8)
                _ = wslay_event_queue_close(context, 1002, reason, reason.count)
                endedBy = ("violation", 1002, "protocol error")
            }
            _ = wslay_event_send(context)
        }
        // Closing now, with the client's bytes unread, would reset the connection and could
        // destroy the close frame before the client reads it: the rest is read and dropped
        // until the client closes, for 2 s at most.
        startDraining()
    }

    /// Sends what is queued, as far as the socket takes it; ends a connection that is done.
    func flush() {
        guard let context, !finished, !draining else { return }
        if wslay_event_want_write(context) != 0, wslay_event_send(context) != 0 { return finish() }
        if let close = closeAfterQueue, wslay_event_get_queued_msg_count(context) == 0 {
            closeAfterQueue = nil
            _ = wslay_event_queue_close(context, close.code, close.reason, close.reason.count)
            if wslay_event_send(context) != 0 { return finish() }
        }
        guard wslay_event_want_read(context) == 0 && wslay_event_want_write(context) == 0 else { return }
        // wslay stopped reading without the client's close (a message over the limit): what the
        // client still sends is drained, so that the close frame is not lost to a reset.
        if wslay_event_get_close_received(context) == 0 { return startDraining() }
        finish()
    }

    /// Runs the timers that are due at `now`.
    func fire(_ now: UInt64) {
        guard !finished, timers.contains(where: { $0.due <= now }) else { return }
        // In time order; timers due together run in the order they were set (a reply's messages, then its close).
        let due = timers.enumerated().filter { $0.element.due <= now }.sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }.map(\.element)
        timers.removeAll { $0.due <= now }
        for (_, action) in due where !finished {
            switch action {
            case .send(let payload): send(payload)
            case .end(let ending): end(ending, now: now)
            case .giveUp: finish()
            case .fault(.hang): hang()
            case .fault(.cut): cut()
            case .resume: break
            case .graphQLInitTimeout: refuse(4408, "Connection initialisation timeout")
            case .subscription(let id, let payload): subscriptionEvent(id, payload)
            case .ping: ping(now)
            }
        }
    }

    /// Ends the conversation as the server going away does (1001), for a stopping server.
    func goAway() {
        guard let context, !finished, !ending else { return }
        ending = true
        endedBy = ("stopped", 1001, "server shutting down")
        timers.removeAll()
        let reason = Array("server shutting down".utf8)
        _ = wslay_event_queue_close(context, 1001, reason, reason.count)
    }

    /// Ends the script and notes who ended the conversation, for the record.
    func markEnded(by: String, code: Int?, reason: String) {
        ending = true
        endedBy = (by, code, reason)
    }

    /// Closes the connection now (the hub's last step for each peer).
    func finish() {
        guard !finished else { return }
        finished = true
        timers.removeAll()
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
