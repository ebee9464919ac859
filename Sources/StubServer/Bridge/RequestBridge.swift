import StubCore

/// Carries out the core's plan for each libmicrohttpd request: queue a prepared response, wait
/// through `SuspendedConnections`, inject a fault, or have a background thread make a deferred
/// reply. It decides nothing itself: policy is in `StubResponder`. Shared by all polling threads.
final class RequestBridge: Sendable {
    /// What the access handler tells libmicrohttpd.
    enum Outcome {
        /// Carry on: a response is queued or the connection is suspended.
        case proceed
        /// Close the connection (a fault, or the server is stopping).
        case close
    }

    let store: CatalogStore
    let responder: StubResponder
    let suspensions: SuspendedConnections
    let admission: ConnectionAdmission
    let holdCapNs: UInt64
    /// The largest request body accepted (`--max-body`).
    let maxBody: Int
    /// What all requests' bodies may hold in memory at once.
    let bodyBudget: BodyBudget
    /// Runs deferred replies whose work blocks (reloads), one at a time.
    let worker: SerialWorker

    init(store: CatalogStore, responder: StubResponder, admission: ConnectionAdmission, holdCapMs: Int, maxBody: Int,
         bodyMemory: Int = .max) throws(SystemCallError) {
        bodyBudget = BodyBudget(limit: max(bodyMemory, maxBody))
        self.store = store
        self.responder = responder
        self.admission = admission
        suspensions = try SuspendedConnections { MHDConnection(handle: $0).resume() }
        do { worker = try SerialWorker() } catch {
            suspensions.shutdown()
            throw error
        }
        holdCapNs = UInt64(max(0, min(holdCapMs, Limits.maxDurationMs))) * 1_000_000
        self.maxBody = max(0, maxBody)
    }

    /// The first handler call: the head is complete and no body has been read. A head that
    /// `RequestFraming` refuses is answered at once and the connection closes after it.
    func checkHead(_ connection: MHDConnection, _ context: RequestContext, http10: Bool) -> Outcome {
        context.headChecked = true
        let framing = connection.framing()
        if let admitted = context.admitted { admission.headReceived(admitted, expectsBody: framing.expectsBody, now: MonotonicClock.now()) }
        context.controlHeaderSeen = framing.controlHeader
        if let rejection = framing.rejection(http10: http10, maxBody: maxBody) { return refuse(connection, context, rejection) }
        context.expectBody(length: framing.contentLength)
        return .proceed
    }

    /// Answers a request stubd will not serve, and closes the connection after the answer.
    private func refuse(_ connection: MHDConnection, _ context: RequestContext, _ rejection: RequestFraming.Rejection) -> Outcome {
        let reply = rejection.reply
        context.phase = .answered
        return connection.queue(status: reply.status, MHDResponse(bytes: reply.body, headers: reply.headers)) ? .proceed : .close
    }

    /// One call of the access handler once the request is complete, or after a resume.
    func handle(_ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        switch context.phase {
        case .receiving:
            return start(connection, context)
        case .delayed:
            suspensions.didResume(&context.suspension)
            return suspensions.isStopping ? .close : finish(connection, context)
        case .hanging:
            suspensions.didResume(&context.suspension)
            complete(context, status: 0, fault: .hang)
            return .close
        case .held:
            return released(connection, context)
        case .deferred:
            suspensions.didResume(&context.suspension)
            guard let reply = context.deferredReply?.withLock({ $0 }), !suspensions.isStopping else { return .close }
            context.plan?.status = reply.status
            return send(connection, context, status: reply.status, response: MHDResponse(bytes: reply.body, headers: reply.headers))
        case .answered:
            return .proceed
        }
    }

    /// libmicrohttpd is done with the request, also when the client left while it was suspended.
    func completed(_ context: RequestContext) {
        suspensions.didResume(&context.suspension)
        // The client left while held.
        if let ticket = context.holdTicket { _ = responder.control.holdEnded(ticket: ticket) }
        if let admitted = context.admitted { admission.requestDone(admitted, now: MonotonicClock.now()) }
    }

    private func start(_ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        if let admitted = context.admitted { admission.requestReceived(admitted, now: MonotonicClock.now()) }
        if context.bodyTooLarge {
            return refuse(connection, context, RequestFraming.tooLarge(maxBody: maxBody, received: String(context.bodyBytesSeen)))
        }
        if context.overBudget {
            return refuse(connection, context, RequestFraming.Rejection(status: 503, message: "too many request bodies in memory", details: [
                ("limit", "\(bodyBudget.limit) bytes for all requests' bodies at once"), ("hint", "retry; raise it with --max-body-memory"),
            ]))
        }
        let prepared = store.current
        if responder.recordsRequests { context.takeCopy() }
        let plan = responder.respond(to: context, catalog: prepared.catalog)
        context.prepared = prepared
        // A held request keeps its body: it is planned again when released.
        if plan.hold { return hold(plan, connection, context) }
        return proceed(plan, connection, context)
    }

    /// Carries out a plan: a deferred reply, a wait for a delay or hang, or the response now.
    private func proceed(_ plan: ResponsePlan, _ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        context.releaseBody(keeping: responder.recordsRequests ? Limits.journalBodyBytes : 0)
        context.plan = plan
        if case .deferred(let deferred) = plan.response { return deferReply(deferred, connection, context) }
        guard plan.fault == .hang || plan.delayMs > 0 else { return finish(connection, context) }
        let extra = plan.fault == .hang ? holdCapNs : 0
        let deadline = (context.releasedNs ?? context.startNs) + UInt64(plan.delayMs) * 1_000_000 + extra
        guard suspensions.suspend(connection.handle, mark: &context.suspension, until: deadline, using: { MHDConnection(handle: $0).suspend() }) != nil else { return .close }
        context.phase = plan.fault == .hang ? .hanging : .delayed
        return .proceed
    }

    /// Holds the request until the test releases it, the hold cap passes or the server stops.
    private func hold(_ plan: ResponsePlan, _ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        // Only a matched route's override holds, so a held plan always names its route.
        guard let routeID = plan.routeID else { return .close }
        context.plan = plan
        let deadline = context.startNs &+ holdCapNs
        guard let ticket = suspensions.suspend(connection.handle, mark: &context.suspension, until: deadline, using: { MHDConnection(handle: $0).suspend() })
        else { return .close }
        context.holdTicket = ticket
        context.phase = .held
        responder.control.holdStarted(ticket: ticket, routeID: routeID, session: plan.session)
        return .proceed
    }

    /// A held request runs again: released, it is planned afresh; woken by the hold cap or a
    /// shutdown, it gets a 503 saying so.
    private func released(_ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        suspensions.didResume(&context.suspension)
        guard let ticket = context.holdTicket else { return .close }
        context.holdTicket = nil
        let stillHeld = responder.control.holdEnded(ticket: ticket)
        if stillHeld || suspensions.isStopping {
            let reply = Reply.error(503, "held response not released", [
                ("route", context.plan?.routeID.map(JSONValue.string) ?? .null),
                ("reason", .string(suspensions.isStopping ? "the server is stopping" : "the hold cap passed")),
            ])
            context.plan?.status = 503
            return send(connection, context, status: 503, response: MHDResponse(bytes: reply.body, headers: reply.headers))
        }
        context.releasedNs = MonotonicClock.now()
        guard let prepared = context.prepared else { return .close }
        return proceed(responder.respond(to: context, catalog: prepared.catalog, releasedFromHold: true), connection, context)
    }

    /// Suspends the connection while a background thread makes the reply, then resumes it.
    private func deferReply(_ deferred: DeferredReply, _ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        let box = Locked<Reply?>(nil)
        context.deferredReply = box
        guard let ticket = suspensions.suspend(connection.handle, mark: &context.suspension, until: .max, using: { MHDConnection(handle: $0).suspend() }) else { return .close }
        context.phase = .deferred
        let suspensions = self.suspensions
        let done: @Sendable (Reply) -> Void = { reply in
            box.withLock { $0 = reply }
            suspensions.resumeEarly(ticket)
        }
        switch deferred.work {
        case .blocking(let make): worker.submit { done(make()) }
        case .callback(let start): start(done)
        }
        return .proceed
    }

    private func finish(_ connection: MHDConnection, _ context: RequestContext) -> Outcome {
        guard let plan = context.plan else { return .close }
        if let fault = plan.fault {
            let variant = plan.variant
            if fault == .truncate && context.secure { return truncateInsideTLS(connection, context, plan) }
            if let socket = connection.socket {
                FaultInjector.inject(fault, socket: socket, status: variant?.status ?? 200, headers: variant?.headers ?? [],
                                     body: plan.renderedBody ?? variant?.body ?? [])
            }
            complete(context, status: 0, fault: fault)
            return .close
        }
        return send(connection, context, status: plan.status, response: response(for: plan, connection, context))
    }

    /// `truncate` on a TLS connection: bytes written to the socket would not be inside the TLS
    /// stream, so libmicrohttpd sends the short response and closes the connection.
    private func truncateInsideTLS(_ connection: MHDConnection, _ context: RequestContext, _ plan: ResponsePlan) -> Outcome {
        let variant = plan.variant
        let body = plan.renderedBody ?? variant?.body ?? []
        let status = (variant?.status ?? 0) == 0 ? 200 : variant!.status
        guard let response = MHDResponse(pulling: PartialBody(FaultInjector.sentPart(of: body)), size: FaultInjector.promisedLength(of: body),
                                         headers: FaultInjector.truncatedHeaders(variant?.headers ?? [])) else { return .close }
        let queued = connection.queue(status: status, response)
        context.phase = .answered
        complete(context, status: 0, fault: .truncate)
        return queued ? .proceed : .close
    }

    private func response(for plan: ResponsePlan, _ connection: MHDConnection, _ context: RequestContext) -> MHDResponse? {
        switch plan.response {
        case .variant(let variant, let key):
            if let stream = plan.stream { return streamed(stream, variant: variant, plan: plan, connection, context) }
            let body = plan.renderedBody ?? variant.body
            if let rate = plan.throttleBytesPerSecond {
                let throttled = ThrottledBody(body: body, bytesPerSecond: rate, connection: connection, suspensions: suspensions)
                return MHDResponse(pulling: throttled, size: body.count, headers: variant.headers)
            }
            if let rendered = plan.renderedBody { return MHDResponse(bytes: rendered, headers: variant.headers) }
            return context.prepared?.response(key: key)
        case .reply(let reply):
            return MHDResponse(bytes: reply.body, headers: reply.headers)
        case .deferred:
            return nil
        }
    }

    /// A streamed body; the request is journaled when the stream ends, with what was sent.
    private func streamed(_ stream: PlannedStream, variant: Variant, plan: ResponsePlan, _ connection: MHDConnection, _ context: RequestContext) -> MHDResponse? {
        context.streaming = true
        let status = plan.status
        let body = StreamedBody(plan: stream, connection: connection, suspensions: suspensions, bytesPerSecond: plan.throttleBytesPerSecond,
                                holdCapNs: holdCapNs) { [self] sent, gone in
            complete(context, status: status, fault: nil, stream: (sent, gone))
        }
        var headers = variant.headers
        headers.removeAll { $0.name.lowercased() == "content-length" }
        return MHDResponse(pulling: body, size: nil, headers: headers)
    }

    private func send(_ connection: MHDConnection, _ context: RequestContext, status: Int, response: MHDResponse?) -> Outcome {
        guard let response else { return .close }
        let queued = connection.queue(status: status, response)
        context.phase = .answered
        if !context.streaming { complete(context, status: status, fault: nil) }
        return queued ? .proceed : .close
    }

    private func complete(_ context: RequestContext, status: Int, fault: Fault?, stream: (eventsSent: Int, clientGone: Bool)? = nil) {
        guard let plan = context.plan else { return }
        let elapsedMs = Double(MonotonicClock.now() - context.startNs) / 1_000_000
        responder.completed(plan, request: context, status: status, fault: fault, elapsedMs: elapsedMs, bodyBytes: context.bodyBytesSeen,
                            stream: stream)
    }
}
