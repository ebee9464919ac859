import StubCore
import StubTransport
import StubSystem
import StubWebSocket

/// The libmicrohttpd side of every request: it reports events to the request's lifecycle
/// (`RequestLifecycle`) and carries out the action each returns — queue a response, suspend
/// through `SuspendedConnections`, start deferred work, write a fault's bytes, reset, close. It
/// decides nothing itself: the order of things is the lifecycle's, which heads are refused is
/// `RequestFraming`'s (`verdict`), who may connect is `ConnectionAdmission`'s, policy is
/// `StubResponder`'s. Those live in StubTransport, for any transport; this is libmicrohttpd's.
/// Shared by all polling threads.
final class RequestBridge: Sendable {
    /// What the access handler tells libmicrohttpd.
    enum Outcome {
        /// Carry on: a response is queued or the connection is suspended.
        case proceed
        /// Close the connection (a fault, or the server is stopping).
        case close
    }

    let store: CatalogStore
    let environment: LifecycleEnvironment
    let suspensions: SuspendedConnections
    let admission: ConnectionAdmission
    /// The largest request body accepted (`--max-body`).
    let maxBody: Int
    /// The largest request head served (`--connection-memory`).
    let maxHead: Int
    /// What all requests' bodies may hold in memory at once.
    let bodyBudget: BodyBudget
    /// Makes deferred replies (reloads, upstream calls) at a bounded cost.
    let jobs: DeferredJobs
    /// How long a client may leave sent bytes unread before the kernel aborts its connection
    /// (the idle timeout, when libmicrohttpd's own timer is off); nil: no such limit.
    let stalledSendLimitMs: Int?
    /// Holds the WebSocket conversations of upgraded connections.
    let webSockets: WebSocketHub
    /// Finishes faults' raw writes that a client reads slowly.
    let rawWrites: RawWriter

    var responder: StubResponder { environment.responder }

    init(store: CatalogStore, responder: StubResponder, admission: ConnectionAdmission, holdCapMs: Int, maxBody: Int,
         bodyMemory: Int = .max, maxHead: Int = 8192, watchHangups: Bool = true, useEpoll: Bool = true,
         deferredWaitingLimit: Int = 10_000, stalledSendLimitMs: Int? = nil, webSocketLimits: WebSocketLimits = WebSocketLimits()) throws(SystemCallError) {
        self.maxHead = maxHead
        self.stalledSendLimitMs = stalledSendLimitMs
        bodyBudget = BodyBudget(limit: max(bodyMemory, maxBody))
        self.store = store
        self.admission = admission
        let holdCapNs = UInt64(max(0, min(holdCapMs, Limits.maxDurationMs))) * 1_000_000
        // Each part that starts a thread is stopped again if a later part fails to start.
        let hub = try WebSocketHub(book: responder.control.conversations, useEpoll: useEpoll, limits: webSocketLimits)
        webSockets = hub
        environment = LifecycleEnvironment(responder: responder, holdCapNs: holdCapNs, conversations: hub)
        do {
            suspensions = try SuspendedConnections(suspend: { MHDConnection(handle: $0).suspend() }, resume: { MHDConnection(handle: $0).resume() },
                                                   watchHangups: watchHangups, useEpoll: useEpoll)
        } catch {
            hub.stop()
            throw error
        }
        do { jobs = try DeferredJobs(waitingLimit: deferredWaitingLimit) } catch {
            suspensions.shutdown()
            hub.stop()
            throw error
        }
        do { rawWrites = try RawWriter() } catch {
            jobs.stop()
            suspensions.shutdown()
            hub.stop()
            throw error
        }
        self.maxBody = max(0, maxBody)
    }

    /// Stops every thread the bridge started: the WebSocket hub (each conversation hears 1001
    /// first), the suspension timers and watcher, the deferred jobs. The daemons must already be
    /// stopped, or no connection may be suspended (libmicrohttpd aborts on one).
    func stopThreads() {
        webSockets.stop()
        suspensions.shutdown()
        jobs.stop()
        rawWrites.stop()
    }

    /// The first handler call: the head is complete and no body has been read. A head that
    /// `RequestFraming` refuses is answered at once and the connection closes after it.
    func checkHead(_ connection: MHDConnection, _ context: RequestContext, http10: Bool) -> Outcome {
        context.headChecked = true
        context.isHTTP10 = http10
        let framing = connection.framing()
        if let admitted = context.admitted {
            // Without a body the head almost always came in the request line's read: its time
            // will do, and saves a clock read per request. A body's deadline counts from now.
            let now = framing.expectsBody ? MonotonicClock.now() : context.startNs
            admission.headReceived(admitted, expectsBody: framing.expectsBody, now: now)
        }
        context.controlHeaderSeen = framing.controlHeader
        context.pairCount = framing.pairs
        if context.refusedAtRequestLine { return .close }
        switch framing.verdict(headSize: connection.headSize, target: context.targetLength, maxHead: maxHead, http10: http10, maxBody: maxBody,
                               waitsForGoAhead: connection.header("Expect") != nil) {
        case .serve:
            context.expectBody(length: framing.contentLength)
            return .proceed
        case .tooLarge(let rejection):
            // Written on the socket, not queued: a head near the connection memory leaves
            // libmicrohttpd no room for a reply's head, and it would close without a word. Over
            // TLS only libmicrohttpd can write, so there it is queued.
            guard !context.isSecure, let socket = connection.socket else { return execute(context.life.refuse(rejection.reply), connection, context) }
            refuseOnSocket(rejection.reply, context, socket: socket)
            return .close
        case .refuse(let rejection):
            return execute(context.life.refuse(rejection.reply), connection, context)
        }
    }

    /// The request line arrived with a target over the largest head served: answered with the
    /// JSON 414 now, written on the socket, since libmicrohttpd may not keep the rest of the head
    /// (past its connection memory it answers with a plain 414 or 431 of its own, or, 0.9.75 near
    /// the limit, not at all). The request's first handler call, if it comes, closes. Plain
    /// connections only: over TLS only libmicrohttpd can write.
    func refuseTarget(_ context: RequestContext, socket: Int32) {
        context.refusedAtRequestLine = true
        refuseOnSocket(RequestFraming.headTooLarge(size: context.targetLength, target: context.targetLength, limit: maxHead).reply, context, socket: socket)
    }

    /// Ends the request's life with `reply`, written on the socket (see `FaultInjector.writeClosing`).
    private func refuseOnSocket(_ reply: Reply, _ context: RequestContext, socket: Int32) {
        _ = context.life.refuse(reply)
        FaultInjector.writeClosing(reply, to: socket)
    }

    /// One call of the access handler once the request is complete, or after a resume.
    func handle(_ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        let now = MonotonicClock.now()
        guard context.started else { return start(connection, context, now: now) }
        // libmicrohttpd calls again only after a resume; any other call has nothing to do.
        guard context.suspension.isSuspended, let catalog = context.prepared?.catalog else { return .proceed }
        let gone = suspensions.resumed(&context.suspension)
        let action = context.life.resumed(context, catalog: catalog, env: environment, now: now, stopping: suspensions.isStopping,
                                          clientGone: gone)
        // A fault's bytes still going out are dropped unless more follow them: the connection
        // may close now.
        if context.rawWriteHandedOver, let socket = connection.socket {
            if case .writeRaw = action {} else { rawWrites.cancel(socket) }
        }
        return execute(action, connection, context)
    }

    private func start(_ connection: MHDConnection, _ context: RequestContext, now: UInt64) -> Outcome {
        context.started = true
        if let admitted = context.admitted { admission.requestReceived(admitted, now: now) }
        if context.bodyTooLarge {
            let reply = RequestFraming.tooLarge(maxBody: maxBody, received: String(context.bodyBytesSeen)).reply
            return execute(context.life.refuse(reply), connection, context)
        }
        if context.overBudget {
            let reply = RequestFraming.Rejection(status: 503, message: "too many request bodies in memory", details: [
                ("limit", "\(bodyBudget.limit) bytes for all requests' bodies at once"), ("hint", "retry; raise it with --max-body-memory"),
            ]).reply
            return execute(context.life.refuse(reply), connection, context)
        }
        let prepared = store.current
        context.prepared = prepared
        return execute(context.life.requestComplete(context, catalog: prepared.catalog, env: environment, now: now), connection, context)
    }

    /// libmicrohttpd is done with the request, also when the client left while it was suspended.
    func completed(_ context: RequestContext) {
        suspensions.ended(&context.suspension)
        if context.rawWriteHandedOver, let socket = context.connection?.socket { rawWrites.cancel(socket) }
        // The clock is read only for a request that was still waiting: an answered one needs no
        // time here, and its connection's idle deadline is set by the admission sweeper.
        context.life.connectionEnded(context, env: environment, now: context.life.isWaiting ? MonotonicClock.now() : context.startNs)
        if let admitted = context.admitted { admission.requestDone(admitted) }
    }
}
