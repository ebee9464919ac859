/// Carrying a plan out: wait first (a delay, a hang, deferred work), then the response, a pulled
/// body, or a fault, which is an action like any other.
extension RequestLifecycle {
    /// Starts on `plan`: deferred work, a wait for a delay or a hang, or the answer now.
    mutating func proceed(_ plan: consuming ResponsePlan, _ request: some LifecycleRequest, _ env: LifecycleEnvironment, now: UInt64) -> LifecycleAction {
        request.releaseBody(keeping: env.responder.recordsRequests ? Limits.journalBodyBytes : 0)
        if plan.fault == .slowHeaders && request.isSecure {
            // Below TLS no byte can be paced: the response waits the whole spread instead.
            plan.delayMs = plan.delayMs > 0 ? plan.delayMs : LifecycleEnvironment.slowHeadersDefaultMs
            plan.fault = nil
            // A fault's plan has status 0; the response it becomes has the variant's.
            plan.status = RequestLifecycle.faultStatus(plan)
            servedFault = .slowHeaders
        }
        // A plan is stored only when the request waits; one answered now is handed along.
        if case .deferred(let deferred) = plan.response {
            self.plan = plan
            let box = DeferredBox()
            phase = .deferred(box)
            return .startDeferred(deferred.work, deliver: box)
        }
        let base = releasedAt ?? request.startNs
        if plan.fault == .hang {
            let until = base &+ UInt64(plan.delayMs) * 1_000_000 &+ env.holdCapNs
            self.plan = plan
            phase = .hanging(until: until)
            return .suspend(until: until)
        }
        // A slow-headers fault spends its delay trickling the head, not before it.
        if plan.delayMs > 0 && plan.fault != .slowHeaders {
            let until = base &+ UInt64(plan.delayMs) * 1_000_000
            self.plan = plan
            phase = .delayed(until: until)
            return .suspend(until: until)
        }
        return send(plan, request, env, now: now)
    }

    /// The answer, the pulled body, or the fault, now.
    mutating func send(_ plan: ResponsePlan, _ request: some LifecycleRequest, _ env: LifecycleEnvironment, now: UInt64) -> LifecycleAction {
        if let fault = plan.fault { return serve(fault, plan, request, env, now: now) }
        switch plan.response {
        case .variant(let variant, let key):
            if let conversation = variant.conversation, let route = plan.route, let endpoint = route.webSocket {
                return upgrade(conversation, endpoint: endpoint, routeID: route.id, plan, request, env, now: now)
            }
            if let stream = plan.stream {
                // Journaled when the stream ends, with what was sent.
                self.plan = plan
                phase = .streaming(StreamCursor(plan: stream, bytesPerSecond: plan.throttleBytesPerSecond, holdCapNs: env.holdCapNs))
                var headers = variant.headers
                headers.removeAll { $0.name.lowercased() == "content-length" }
                return .respond(status: plan.status, body: .pulled(length: nil, headers: headers))
            }
            phase = .done
            finish(plan, request, env, now: now, status: plan.status, fault: nil)
            if let range = plan.range { return respond(range, plan, variant) }
            if let rate = plan.throttleBytesPerSecond {
                let body = plan.renderedBody ?? variant.body
                phase = .throttling(ThrottleCursor(body: body, bytesPerSecond: rate))
                return .respond(status: plan.status, body: .pulled(length: body.count, headers: variant.headers))
            }
            if let rendered = plan.renderedBody { return .respond(status: plan.status, body: .bytes(rendered, headers: variant.headers)) }
            return .respond(status: plan.status, body: .prepared(key: key))
        case .reply(let reply):
            return answer(reply, plan, request, env, now: now)
        case .deferred:
            phase = .done
            finish(plan, request, env, now: now, status: 0, fault: nil)
            return .close
        case .live(let live):
            // Logged when the client leaves; admin calls are never journaled.
            self.plan = plan
            phase = .live(LiveJournalCursor(live))
            return .respond(status: 200, body: .pulled(length: nil, headers: LiveJournal.headers))
        case .webSocket(let answer):
            return upgrade(answer.conversation, endpoint: answer.endpoint, routeID: plan.routeID ?? request.path, plan, request, env, now: now)
        }
    }

    /// The part of the variant's body a range request asked for, with its `Content-Range`;
    /// throttled as the whole would be.
    private mutating func respond(_ range: ByteRange, _ plan: ResponsePlan, _ variant: Variant) -> LifecycleAction {
        let body = range.slice(plan.renderedBody ?? variant.body)
        let headers = variant.headers.filter { $0.name.lowercased() != "content-length" } + [range.contentRange]
        guard let rate = plan.throttleBytesPerSecond else { return .respond(status: plan.status, body: .bytes(body, headers: headers)) }
        phase = .throttling(ThrottleCursor(body: body, bytesPerSecond: rate))
        return .respond(status: plan.status, body: .pulled(length: body.count, headers: headers))
    }

    /// Sends a reply made for this request.
    mutating func answer(_ reply: Reply, _ plan: ResponsePlan, _ request: some LifecycleRequest, _ env: LifecycleEnvironment,
                         now: UInt64) -> LifecycleAction {
        phase = .done
        finish(plan, request, env, now: now, status: reply.status, fault: nil)
        return .respond(status: reply.status, body: .bytes(reply.body, headers: reply.headers))
    }

    /// The 101 that hands the connection to `conversation`, or the HTTP answer refusing a
    /// handshake that is not one (`WebSocketHandshake`).
    private mutating func upgrade(_ conversation: Conversation, endpoint: WebSocketEndpoint, routeID: String, _ plan: ResponsePlan,
                                  _ request: some LifecycleRequest, _ env: LifecycleEnvironment, now: UInt64) -> LifecycleAction {
        switch WebSocketHandshake.accept(request, endpoint: endpoint) {
        case .failure(let refusal):
            return answer(refusal.reply, plan, request, env, now: now)
        case .success(let accepted):
            guard env.conversations?.reserve() ?? true else {
                // Plain requests keep connections of their own: conversations hold three quarters at most.
                return answer(Reply.error(503, "too many WebSocket conversations open", [
                    ("hint", .string("retry later; the bound is --websocket-max-conversations (at most three quarters of --max-connections)")),
                ], headers: [HTTPHeader("Retry-After", "1")]), plan, request, env, now: now)
            }
            phase = .done
            finish(plan, request, env, now: now, status: 101, fault: nil)
            var open = OpenConversation(conversation: conversation, routeID: routeID, variant: plan.variantName ?? "",
                                        subprotocol: accepted.subprotocol, session: plan.session, path: request.path)
            open.origin = request.header("Origin")
            if conversation.hasTemplates {
                var handshake = request.snapshot()
                handshake.body = []
                open.handshake = handshake
                open.route = plan.route
                if let route = plan.route, let routeMemory = route.memory, let memory = env.responder.planner.memory {
                    open.memory = (memory, plan.catalog?.memory.stateSeed(routeMemory.service) ?? [:])
                }
            }
            return .upgrade(headers: accepted.headers, conversation: open)
        }
    }

    /// The status a fault's own head says: 206 for a range, the variant's, or 200 for a variant
    /// that is only a fault (status 0) and for a reply.
    static func faultStatus(_ plan: ResponsePlan) -> Int {
        if plan.range != nil { return 206 }
        guard let status = plan.variant?.status, status != 0 else { return 200 }
        return status
    }

    /// A fault, as the action that gives the client its network failure.
    private mutating func serve(_ fault: Fault, _ plan: ResponsePlan, _ request: some LifecycleRequest, _ env: LifecycleEnvironment,
                                now: UInt64) -> LifecycleAction {
        let variant = plan.variant
        let status = RequestLifecycle.faultStatus(plan)
        var body = plan.renderedBody ?? variant?.body ?? []
        var headers = FaultBytes.truncatedHeaders(variant?.headers ?? [])
        if let range = plan.range {
            // A fault on a range request fails the part it asked for: `truncate` cuts mid-range.
            body = range.slice(body)
            headers.append(range.contentRange)
        }
        switch fault {
        case .rstStream where request.httpVersion == .http2 && plan.streamReset?.afterBytes != nil:
            let reset = plan.streamReset ?? StreamReset()
            http2Effect = .resetCode(reset.code)
            // The head and the first bytes go out, then the stream is reset (the `truncating` pull).
            phase = .truncating(Array(body.prefix(reset.afterBytes ?? 0)))
            finish(plan, request, env, now: now, status: status, fault: fault)
            return .respond(status: status, body: .pulled(length: body.count, headers: headers))
        case .reset, .rstStream, .goawayAbrupt:
            // Over HTTP/2 the stream alone is reset, or the whole connection goes; over HTTP/1.1 both are a reset.
            if request.httpVersion == .http2 {
                http2Effect = fault == .goawayAbrupt ? .goAwayAbrupt : fault == .rstStream ? .resetCode((plan.streamReset ?? StreamReset()).code) : nil
            }
            phase = .done
            finish(plan, request, env, now: now, status: 0, fault: fault)
            return .reset
        case .empty, .hang:
            phase = .done
            finish(plan, request, env, now: now, status: 0, fault: fault)
            return .close
        case .goaway:
            // The whole answer; HTTP/2's GOAWAY follows it (HTTP/1.1 has none to send).
            if request.httpVersion == .http2 { http2Effect = .goAwayAfterAnswer }
            phase = .done
            finish(plan, request, env, now: now, status: status, fault: fault)
            var answerHeaders = variant?.headers ?? []
            if let range = plan.range { answerHeaders.append(range.contentRange) }
            return .respond(status: status, body: .bytes(body, headers: answerHeaders))
        case .garbage:
            phase = .done
            finish(plan, request, env, now: now, status: 0, fault: fault)
            return .writeRaw(FaultBytes.garbage(), then: .close)
        case .truncate where request.isSecure:
            // Bytes written below TLS would not be inside its stream: the transport sends the part
            // through TLS and ends the body short.
            phase = .truncating(FaultBytes.sentPart(of: body))
            // The client got the head: its status is journaled, beside the fault.
            finish(plan, request, env, now: now, status: status, fault: fault)
            return .respond(status: status, body: .pulled(length: FaultBytes.promisedLength(of: body), headers: headers))
        case .truncate:
            phase = .done
            finish(plan, request, env, now: now, status: status, fault: fault)
            return .writeRaw(FaultBytes.truncatedResponse(status: status, headers: headers, body: body), then: .close)
        case .slowHeaders:
            let spread = plan.delayMs > 0 ? plan.delayMs : LifecycleEnvironment.slowHeadersDefaultMs
            var cursor = SlowHeadersCursor(head: FaultBytes.head(status: status, headers: headers, contentLength: body.count), body: body,
                                           spreadMs: spread)
            let action = cursor.next(now: now)
            self.plan = plan
            phase = .slowHeaders(cursor)
            return action
        }
    }
}
