import StubSystem

/// The core's whole answer to one request, and the only entry point the transport calls: admin
/// routing, the session header, the response plan, and afterwards what is journaled and logged.
/// The transport only moves bytes, waits and breaks connections as the plan says.
package final class StubResponder: Sendable {
    /// Overrides, sequences and the journal.
    package let control: StubControl
    let admin: AdminAPI?
    let planner: ResponsePlanner
    let logger: (any RequestLogger)?
    /// Answers requests no route matches (`--proxy-unmatched`); nil answers them with 404 or 405.
    let unmatched: (any UnmatchedRequestHandler)?
    /// Checks requests to stubbed routes against an API contract (`--openapi`).
    let contract: (any RequestContract)?
    /// `contract != nil`, kept apart: binding the optional existential copies it, and every
    /// request would pay for that without `--openapi`.
    let checksContract: Bool
    /// `logger != nil`, kept apart for the same reason: `logger != nil` copies the existential.
    let logs: Bool

    /// A responder; `admin` nil turns the admin API off, `logger` nil the access log.
    package init(control: StubControl, admin: AdminAPI?, baseDelayMs: Int = 0, logger: (any RequestLogger)? = nil,
                 unmatched: (any UnmatchedRequestHandler)? = nil, contract: (any RequestContract)? = nil,
                 graphQLLimits: GraphQLLimits = GraphQLLimits()) {
        self.control = control
        self.admin = admin
        var planner = ResponsePlanner(baseDelayMs: max(0, min(baseDelayMs, Limits.maxDurationMs)), graphQLLimits: graphQLLimits)
        planner.memory = control.memory
        planner.contract = contract
        self.planner = planner
        self.logger = logger
        self.unmatched = unmatched
        self.contract = contract
        checksContract = contract != nil
        logs = logger != nil
    }

    /// Plans the response to `request` against `catalog`, the snapshot the request keeps to its end.
    /// `step` is the sequence step the fleet's store handed this request after its first plan
    /// asked for one (`ResponsePlan.stepToken`).
    package func respond(to request: some RequestHead, catalog: StubCatalog, releasedFromHold: Bool = false, step: TakenStep? = nil) -> ResponsePlan {
        let overrides: any OverrideSource = step.map { StepAnswer(control: control, taken: $0) } ?? control
        // A session in the path beats the header: it is the more specific of the two.
        if StubResponder.mayBeReserved(request.path), let split = SessionScopedRequest.split(request) {
            switch split {
            case .failure(let failure): return .reply(failure.reply)
            case .success(let scoped):
                return respond(to: scoped, session: scoped.session, scopedPath: scoped.path, catalog: catalog, overrides: overrides,
                               releasedFromHold: releasedFromHold)
            }
        }
        // An empty session header is no session: "" must never name (and so expire) the global scope.
        let session = request.mayCarryControls ? request.header(Limits.sessionHeader).flatMap { $0.isEmpty ? nil : $0 } : nil
        return respond(to: request, session: session, scopedPath: nil, catalog: catalog, overrides: overrides, releasedFromHold: releasedFromHold)
    }

    /// Plans the response to `head` (the request, or its session-scoped form). Generic, as the
    /// planner is: an existential of the request is copied (retained) in each function it passes.
    private func respond(to head: some RequestHead, session: String?, scopedPath: String?, catalog: StubCatalog,
                         overrides: any OverrideSource, releasedFromHold: Bool) -> ResponsePlan {
        var plan: ResponsePlan
        // The prefix test comes first and compares bytes: a plain request pays for nothing more.
        if StubResponder.isAdminPath(head.path), let admin {
            var call = head.snapshot()
            // Admin ids hold slashes (`app/users`); a client may send them as `%2F`.
            call.path = PathDecoding.decodedWhole(call.path)
            plan = ResponsePlan(response: admin.respond(to: call, session: session), status: 0)
            if case .reply(let reply) = plan.response { plan.status = reply.status }
            plan.journaled = false
        } else {
            plan = planner.plan(head, catalog: catalog, overrides: overrides, session: session, releasedFromHold: releasedFromHold)
            if plan.unmatched, let unmatched {
                // The whole request goes upstream; the answer may take long, and no thread waits for it.
                let call = head.snapshot()
                plan.response = .deferred(DeferredReply(start: { done in unmatched.reply(to: call, done: done) }))
                plan.proxied = true
            }
            if checksContract, !plan.hold, plan.stepToken == nil, let contract, let route = plan.route { check(&plan, head, route: route, contract: contract) }
        }
        // Written only when set: nil is what a plan has, and a write checks its storage's owner.
        if let session { plan.session = session }
        if let scopedPath { plan.scopedPath = scopedPath }
        return plan
    }

    /// Notes a request's contract violations on its plan; when enforced, answers them instead.
    private func check(_ plan: inout ResponsePlan, _ head: any RequestHead, route: Route, contract: any RequestContract) {
        guard let violations = contract.violations(of: head, route: route) else { return }
        plan.contract = violations
        guard !violations.isEmpty else { return }
        control.countContractViolation()
        guard contract.enforces else { return }
        let status = contract.refusalStatus(violations, route: route)
        let message = StubResponder.contractMessage(violations)
        let made = StubResponder.contractBody(status, violations, message: message, route: route)
        let fitted = contract.refusalBody(status, route: route, refusal: made.body, message: message)
        let marked = made.enveloped || fitted != nil
        var reply = Reply.json(status, fitted ?? made.body, headers: marked ? [HTTPHeader("X-Stubd-Contract", "violated")] : [])
        if let type = contract.refusalMediaType(status, route: route) { reply.headers.set("Content-Type", type) }
        plan.response = .reply(reply)
        plan.status = status
        plan.fault = nil
        plan.delayMs = 0
        plan.variantName = nil
    }

    /// A refused request's answer: in the service's error envelope when it has one, so the app's
    /// error decoder reads it as any other API error (the problems joined into its message), else
    /// stubd's JSON with each problem apart.
    /// `enveloped` is true for the envelope's form.
    static func contractBody(_ status: Int, _ violations: [ContractViolation], message: String,
                             route: Route) -> (body: JSONValue, enveloped: Bool) {
        guard let envelope = route.errorEnvelope else {
            return (.object([("error", .string("request does not match the API contract")),
                             ("route", .string(route.id)),
                             ("problems", .array(violations.map { .object([("where", .string($0.location)), ("problem", .string($0.problem))]) }))]),
                    false)
        }
        let codes = [415: "unsupported_media_type", 422: "unprocessable_entity"]
        let values = ["title": HTTPStatusText.reason(status), "message": message, "code": codes[status] ?? "bad_request"]
        return (envelope.render(values, status: status), true)
    }

    /// The problems of a refused request joined into one message.
    static func contractMessage(_ violations: [ContractViolation]) -> String {
        violations.map { "\($0.location): \($0.problem)" }.joined(separator: "; ")
    }

    /// False for most paths, by their second byte: only `/_…` can be the admin API or a session.
    static func mayBeReserved(_ path: String) -> Bool {
        var bytes = path.utf8.makeIterator()
        return bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "_")
    }

    /// True for paths under `Limits.adminPrefix`; most paths are turned away by their second byte.
    static func isAdminPath(_ path: String) -> Bool {
        mayBeReserved(path) && path.utf8.starts(with: Limits.adminPrefix.utf8)
    }

    /// Whether finished requests are copied for the journal or the log at all. When they are, the
    /// transport copies each request once, before planning, and answers every lookup from that
    /// copy; a request that waits then carries no copying into the burst when many delays end.
    package var recordsRequests: Bool {
        control.keepsJournal || logs
    }

    /// Whether `completed` records this request (admin calls are logged but not journaled).
    func keepsRecord(of plan: ResponsePlan) -> Bool {
        (plan.journaled && control.keepsJournal) || logs
    }

    /// Journals and logs a finished request. `status` is what was sent (0 for a fault),
    /// `bodyBytes` the body size received, `arrivedNs` when it arrived on the monotonic clock
    /// (now when not given). Nothing is copied when neither the journal nor a logger takes it.
    package func completed(_ plan: ResponsePlan, request: some RequestHead, status: Int, fault: Fault?, elapsedMs: Double, bodyBytes: Int,
                           stream: (eventsSent: Int, clientGone: Bool)? = nil, clientGone: Bool = false, arrivedNs: UInt64? = nil) {
        guard keepsRecord(of: plan) else { return }
        let journals = plan.journaled && control.keepsJournal
        let outcome = RequestRecord.Outcome(status: status, fault: fault, elapsedMs: elapsedMs, bodyBytes: bodyBytes, stream: stream,
                                            clientGone: clientGone, receivedAt: WallClock.date(atMonotonic: arrivedNs ?? MonotonicClock.now()),
                                            httpVersion: request.httpVersion)
        let record: RequestRecord
        if let packed = request.packedCopy {
            // The copy made before planning is the record's: nothing is decoded or copied again.
            record = RequestRecord(packed: packed, plan: plan, outcome: outcome)
        } else {
            var snapshot = request.snapshot()
            if let scopedPath = plan.scopedPath { snapshot.path = scopedPath }
            record = RequestRecord(snapshot: snapshot, plan: plan, outcome: outcome)
        }
        if logs, let logger { logger.log(record) }
        if journals { control.record(record) }
    }
}
