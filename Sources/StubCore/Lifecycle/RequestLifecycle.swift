/// What the lifecycle needs of the request it runs for; the transport's per-request object
/// provides it (and the tests' fake).
package protocol LifecycleRequest: AnyObject, RequestHead {
    /// When the request line arrived (monotonic ns).
    var startNs: UInt64 { get }
    /// True on a TLS connection, where nothing can be written below HTTP.
    var isSecure: Bool { get }
    /// The body size received.
    var bodyBytesSeen: Int { get }
    /// Copies the whole request for the journal and the log, before planning.
    func takeCopy()
    /// Frees the body past its first `bytes` once only the journal reads it.
    func releaseBody(keeping bytes: Int)
}

/// What every lifecycle of one server shares. A class: each event passes it on, and a struct
/// holding the conversations' existential was copied through an outlined copy at every one (112
/// instructions and a 40-byte memcpy per request's end, bench/instructions.py).
package final class LifecycleEnvironment: Sendable {
    /// Plans, journals and logs.
    package let responder: StubResponder
    /// The longest stubd holds a connection on purpose (`--hold-cap`), in ns.
    package let holdCapNs: UInt64

    /// The spread of a `slow-headers` fault without a delay: 5 s.
    package static let slowHeadersDefaultMs = 5000
    /// The longest a request waits for the fleet's store to hand out its sequence step before it
    /// takes the step from the local count: 2 s (each store call ends within 300 ms).
    package static let stepWaitNs: UInt64 = 2_000_000_000

    /// Where WebSocket conversations are held: a 101 needs a place there. Nil: no bound.
    package let conversations: (any ConversationRoom)?

    package init(responder: StubResponder, holdCapNs: UInt64, conversations: (any ConversationRoom)? = nil) {
        self.responder = responder
        self.holdCapNs = holdCapNs
        self.conversations = conversations
    }
}

/// One request's life, from its complete head to its end, as a state machine: each event the
/// transport reports (complete, suspended, resumed, a pull, the response freed, the connection
/// ended) moves it on and returns the one action the transport carries out. It never touches a
/// socket or a clock: the time comes with each event, so its tests run with a fake one.
///
/// | phase | event | action |
/// |---|---|---|
/// | receiving | complete, plan answers now | respond (prepared, bytes, pulled) or a fault's raw write, reset, close |
/// | receiving | complete, plan waits | suspend until the delay, the hang's cap or the hold cap; deferred: start the work |
/// | delayed | resumed | respond or fault; close if the client left or the server stops |
/// | hanging | resumed | close (journaled as a hang) |
/// | held | suspended | the hold is registered with the control |
/// | held | resumed | released: plan again; hold cap or stop: 503; client left: close |
/// | receiving, held | plan needs the fleet store's sequence step | suspend for it (off this thread) |
/// | awaitingStep | resumed | plan again with the step (none in time: the local count); client left: close |
/// | receiving, held | route remembers, fleet store | suspend; planned on the store's thread (off this one) |
/// | awaitingMemory | resumed | carry out that plan (none in time: 503); client left: close |
/// | deferred | resumed | the delivered reply, or close |
/// | slowHeaders | resumed | the next piece of the head and suspend, or the body and close |
/// | streaming, throttling, truncating | pull | bytes, wait (suspend), end, abort, reset |
/// | streaming | response freed | journaled with the events sent and whether the client left |
/// | live | pull | the next batch of journal events, wait (parked with the feed), abort on stop |
/// | live | response freed | the feed's reader is closed; logged |
/// | waiting phases | connection ended | the hold ends; journaled as a client that left |
package struct RequestLifecycle {
    /// Where the request is; each phase carries what it needs.
    package enum Phase {
        /// The head or body is arriving.
        case receiving
        /// Waiting for the plan's delay to pass.
        case delayed(until: UInt64)
        /// A `hang` fault: nothing is sent; the connection closes at the hold cap.
        case hanging(until: UInt64)
        /// An admin hold: waiting for a release (the ticket once suspended).
        case held(until: UInt64, ticket: UInt64?)
        /// Waiting for deferred work (a reload, an upstream call) to deliver its reply.
        case deferred(DeferredBox)
        /// Waiting for the fleet's store to hand out the step of the sequence under `token`.
        case awaitingStep(token: String, box: StepBox)
        /// Waiting to be planned on the fleet's memory store thread (a route that remembers).
        case awaitingMemory(PlanBox)
        /// A streamed body being pulled.
        case streaming(StreamCursor)
        /// A throttled body being pulled.
        case throttling(ThrottleCursor)
        /// A `truncate` fault inside TLS: the part that is sent, pulled, then the body ends short.
        case truncating([UInt8])
        /// A `slow-headers` fault: the head trickling out.
        case slowHeaders(SlowHeadersCursor)
        /// A live journal stream being pulled until the client leaves.
        case live(LiveJournalCursor)
        /// Answered (or closed); nothing more happens but the connection's end.
        case done
    }

    package internal(set) var phase = Phase.receiving
    /// The plan, once made.
    package internal(set) var plan: ResponsePlan?
    /// When a hold let the request go: its delay counts from then.
    var releasedAt: UInt64?
    /// A fault served in another form (`slow-headers` inside TLS is a delay), for the journal.
    var servedFault: Fault?
    /// What an HTTP/2 fault asks of the stream's connection besides the action (HTTP/2 only).
    package internal(set) var http2Effect: HTTP2Effect?
    /// True once the client was seen gone while the response was under way.
    private var clientLeft = false
    private var recorded = false

    package init() {}

    /// A request the transport refuses from its head or body (framing, size): answered at once,
    /// and not journaled, since it was never planned.
    package mutating func refuse(_ reply: Reply) -> LifecycleAction {
        phase = .done
        return .respond(status: reply.status, body: .bytes(reply.body, headers: reply.headers))
    }

    /// The whole request has arrived: plan it and start carrying the plan out.
    package mutating func requestComplete(_ request: some LifecycleRequest, catalog: StubCatalog, env: LifecycleEnvironment, now: UInt64) -> LifecycleAction {
        if env.responder.recordsRequests { request.takeCopy() }
        return planned(env.responder.respond(to: request, catalog: catalog), request, env, now: now)
    }

    /// The transport suspended the connection under `ticket`: a held request is registered with
    /// the control now, so a release can find it.
    package mutating func suspended(ticket: UInt64, env: LifecycleEnvironment) {
        if case .live(let cursor) = phase { return cursor.parked(ticket: ticket, control: env.responder.control) }
        guard case .held(let until, nil) = phase, let plan, let routeID = plan.routeID else { return }
        phase = .held(until: until, ticket: ticket)
        env.responder.control.holdStarted(ticket: ticket, routeID: routeID, session: plan.session)
    }

    /// The connection runs again: its wait ended, was cut short, the server is stopping, or the
    /// client left (`clientGone`).
    package mutating func resumed(_ request: some LifecycleRequest, catalog: StubCatalog, env: LifecycleEnvironment, now: UInt64,
                                  stopping: Bool, clientGone: Bool) -> LifecycleAction {
        switch phase {
        case .delayed:
            guard !clientGone, !stopping, let plan else { return end(request, env, now: now, status: 0, fault: nil, clientGone: clientGone) }
            return send(plan, request, env, now: now)
        case .hanging:
            return end(request, env, now: now, status: 0, fault: .hang, clientGone: clientGone)
        case .held(_, let ticket):
            return releasedFromHold(request, catalog: catalog, env, ticket: ticket, now: now, stopping: stopping, clientGone: clientGone)
        case .awaitingStep(let token, let box):
            guard !clientGone, !stopping else { return end(request, env, now: now, status: 0, fault: nil, clientGone: clientGone) }
            // Planned again with the step; no answer in time takes it from the local count.
            let taken = TakenStep(token: token, step: box.step)
            return planned(env.responder.respond(to: request, catalog: catalog, releasedFromHold: releasedAt != nil, step: taken),
                           request, env, now: now)
        case .awaitingMemory(let box):
            guard !clientGone, !stopping else { return end(request, env, now: now, status: 0, fault: nil, clientGone: clientGone) }
            guard let planned = box.plan else {
                guard var plan else { return .close }
                plan.status = 503
                return answer(Reply.error(503, "the state store did not answer in time", [("route", plan.routeID.map(JSONValue.string) ?? .null)]),
                              plan, request, env, now: now)
            }
            return self.planned(planned, request, env, now: now)
        case .deferred(let box):
            guard !clientGone, !stopping, let reply = box.delivered, var plan else {
                return end(request, env, now: now, status: 0, fault: nil, clientGone: clientGone)
            }
            plan.status = reply.status
            return answer(reply, plan, request, env, now: now)
        case .slowHeaders(var cursor):
            if clientGone || stopping { return end(request, env, now: now, status: 0, fault: .slowHeaders, clientGone: clientGone) }
            let action = cursor.next(now: now)
            phase = .slowHeaders(cursor)
            if case .writeRaw(_, .close) = action {
                phase = .done
                // The whole head went out: the client read its status, as for `truncate`.
                finishStored(request, env, now: now, status: plan.map(RequestLifecycle.faultStatus) ?? 0, fault: .slowHeaders)
            }
            return action
        case .receiving, .streaming, .throttling, .truncating, .live, .done:
            return .close
        }
    }

    /// The transport pulls the next piece of a pulled body at `offset`.
    package mutating func pull(at offset: Int, into buffer: PullBuffer, now: UInt64, stopping: Bool,
                               clientGone: Bool) -> PullResult {
        if clientGone { clientLeft = true }
        switch phase {
        case .streaming(var cursor):
            if stopping || clientGone { return .abort }
            let result = cursor.pull(into: buffer, now: now)
            phase = .streaming(cursor)
            return result
        case .throttling(var cursor):
            if stopping || clientGone { return .abort }
            let result = cursor.pull(at: offset, into: buffer, now: now)
            phase = .throttling(cursor)
            return result
        case .live(var cursor):
            if stopping || clientGone { return .abort }
            let result = cursor.pull(into: buffer, now: now)
            phase = .live(cursor)
            return result
        case .truncating(let part):
            guard offset < part.count else { return .abort }
            let count = min(buffer.count, part.count - offset)
            buffer.copy(part, from: offset, count: count)
            return .copied(count)
        default:
            return .abort
        }
    }

    /// The transport freed a pulled response: a stream is journaled now, with what was sent.
    package mutating func responseFreed(_ request: some LifecycleRequest, env: LifecycleEnvironment, now: UInt64) {
        if case .live(let cursor) = phase {
            cursor.live.feed.close(cursor.live.reader)
            phase = .done
            return finishStored(request, env, now: now, status: 200, fault: nil, clientGone: true)
        }
        guard case .streaming(let cursor) = phase else { return }
        phase = .done
        let gone = clientLeft || !cursor.ended
        finishStored(request, env, now: now, status: plan?.status ?? 0, fault: cursor.cut ? .reset : nil,
                     stream: (cursor.next, gone), clientGone: gone)
    }

    /// Ends the request without (more of) an answer, journaled as it went.
    mutating func end(_ request: some LifecycleRequest, _ env: LifecycleEnvironment, now: UInt64, status: Int, fault: Fault?,
                      clientGone: Bool) -> LifecycleAction {
        phase = .done
        finishStored(request, env, now: now, status: status, fault: fault, clientGone: clientGone)
        return .close
    }

    /// Journals and logs the request once, with the stored plan (a request that waited).
    mutating func finishStored(_ request: some LifecycleRequest, _ env: LifecycleEnvironment, now: UInt64, status: Int, fault: Fault?,
                               stream: (eventsSent: Int, clientGone: Bool)? = nil, clientGone: Bool = false) {
        guard !recorded, let plan else { return }
        finish(plan, request, env, now: now, status: status, fault: fault, stream: stream, clientGone: clientGone)
    }

    /// Journals and logs the request once, with how it ended.
    mutating func finish(_ plan: ResponsePlan, _ request: some LifecycleRequest, _ env: LifecycleEnvironment, now: UInt64, status: Int,
                         fault: Fault?, stream: (eventsSent: Int, clientGone: Bool)? = nil, clientGone: Bool = false) {
        guard !recorded else { return }
        recorded = true
        let elapsedMs = Double(now &- request.startNs) / 1_000_000
        env.responder.completed(plan, request: request, status: status, fault: servedFault ?? fault, elapsedMs: elapsedMs,
                                bodyBytes: request.bodyBytesSeen, stream: stream, clientGone: clientGone, arrivedNs: request.startNs)
    }
}
