/// Turns a request into a `ResponsePlan`. The one place that decides precedence:
///
/// variant: request control > admin sequence > admin override > first `when` that holds > default;
/// delay: request control > admin override > variant > route > service, plus the server-wide base delay;
/// fault: request control > admin override > variant;
/// throttle: request control > admin override > variant > route > service.
package struct ResponsePlanner: Sendable {
    /// Milliseconds added to every stub response (`--delay`).
    package var baseDelayMs: Int
    /// What a request to a GraphQL endpoint may send before it gets a 400 unread.
    package var graphQLLimits: GraphQLLimits
    /// State values and collections; nil plans every route as if none remembered.
    package var memory: StubMemory?
    /// The API contract, so a refused request changes no state (`--openapi` enforced).
    var contract: (any RequestContract)?

    /// Makes a planner.
    package init(baseDelayMs: Int = 0, graphQLLimits: GraphQLLimits = GraphQLLimits()) {
        self.baseDelayMs = baseDelayMs
        self.graphQLLimits = graphQLLimits
    }

    /// Plans the response for a request held by the transport; values are read by lookup.
    package func plan(_ request: some RequestHead, catalog: StubCatalog, overrides: (any OverrideSource)? = nil, session: String? = nil,
                      releasedFromHold: Bool = false) -> ResponsePlan {
        if let bad = PathDecoding.problem(in: request.path) {
            return .reply(.error(400, "invalid path", [
                ("path", .string(request.path)), ("segment", .string(bad.segment)), ("expected", .string(bad.expected)),
            ]))
        }
        let controls: RequestControls
        switch RequestControls.read(from: request) {
        case .success(let c): controls = c
        case .failure(let f): return .reply(f.reply)
        }
        if let endpoint = catalog.graphql.endpoint(at: request.path) {
            return planGraphQL(request, endpoint: endpoint, catalog: catalog, controls: controls, overrides: overrides, session: session,
                               releasedFromHold: releasedFromHold)
        }
        switch catalog.matcher.route(method: request.method, path: request.path) {
        case .notFound:
            let misses = catalog.nearMissesJSON(method: request.method, path: request.path)
            var plan = ResponsePlan.reply(.error(404, "no stub matches this request", [
                ("method", .string(request.method)), ("path", .string(request.path)), ("nearMisses", misses),
            ]))
            plan.unmatched = true
            plan.nearMisses = misses
            return plan
        case .methodNotAllowed(let allowed):
            var plan = ResponsePlan.reply(.error(405, "method not allowed", [
                ("method", .string(request.method)), ("path", .string(request.path)), ("allowed", .array(allowed.map { .string($0) })),
            ], headers: [HTTPHeader("Allow", allowed.joined(separator: ", "))]))
            plan.unmatched = true
            plan.nearMisses = catalog.nearMissesJSON(method: request.method, path: request.path)
            return plan
        case .route(let routeIndex):
            return plan(route: routeIndex, request, catalog: catalog, controls: controls, overrides: overrides, session: session,
                        releasedFromHold: releasedFromHold)
        }
    }

    /// Plans the answer of one route (an operation route: with its GraphQL operation, whose
    /// variables the conditions see when `variables`).
    func plan(route routeIndex: Int, _ request: some RequestHead, catalog: StubCatalog, controls: RequestControls,
              overrides: (any OverrideSource)?, session: String?, releasedFromHold: Bool, graphQL: GraphQLRequest? = nil,
              variables: Bool = false) -> ResponsePlan {
        catalog.prefetchRoute(routeIndex)
        let route = catalog.routes[routeIndex]
        let decision = overrides?.decision(forRoute: route.id, session: session, advance: controls.variant == nil, honorHold: !releasedFromHold)
        if decision?.hold == true || decision?.stepToken != nil {
            // Nothing is chosen yet: the request waits (for a release, for the store's step).
            var waiting = ResponsePlan(response: .reply(Reply(status: 503)), status: 503)
            waiting.hold = decision?.hold == true
            waiting.stepToken = decision?.stepToken
            waiting.routeID = route.id
            waiting.route = route
            return waiting
        }
        var view = RequestView(request, route: route)
        if let routeMemory = route.memory, let memory {
            guard memory.store.callableHere else { return ResponsePlan.awaitingMemory(route: route, catalog: catalog) }
            attachMemory(&view, route: route, routeMemory: routeMemory, memory: memory, session: session, catalog: catalog)
        }
        // The view gets the operation's variables only when a condition of the endpoint reads them.
        if variables, let graphQL { view.graphQL = graphQL }
        let chosen: (index: Int, selection: ResponsePlan.Selection)
        switch choose(route, controls: controls, decision: decision, view: &view) {
        case .success(let c): chosen = c
        case .failure(let f): return .reply(f.reply, routeID: route.id)
        }
        let variant = route.variants[chosen.index]
        let fault = controls.fault ?? decision?.fault ?? variant.fault
        var plan = ResponsePlan(response: .variant(variant, key: catalog.variantKey(route: routeIndex, variant: chosen.index)),
                                status: fault == nil ? variant.status : 0)
        plan.delayMs = (controls.delayMs ?? (decision?.delay ?? variant.delay)?.sample() ?? 0) + baseDelayMs
        plan.fault = fault
        if fault == .rstStream { plan.streamReset = controls.fault != nil ? controls.streamReset : decision?.fault != nil ? nil : variant.streamReset }
        plan.throttleBytesPerSecond = controls.throttleBytesPerSecond ?? decision?.throttleBytesPerSecond ?? variant.throttleBytesPerSecond
        plan.renderedBody = variant.template?.render(&view)
        if let stream = variant.stream, fault == nil {
            plan.stream = PlannedStream(stream, lastEventID: request.header("Last-Event-ID"), cutAfter: controls.cutAfter ?? variant.cutAfter)
        }
        plan.routeID = route.id
        plan.route = route
        plan.variantName = variant.name
        plan.selection = chosen.selection
        if chosen.selection == .sequence { plan.sequenceStep = decision?.sequenceStep }
        if let graphQL { plan.operation = graphQL.operationName }
        if let routeMemory = route.memory {
            plan.catalog = catalog
            remember(&plan, route: route, routeMemory: routeMemory, variant: variant, view: &view)
        }
        if fault == nil, case .variant = plan.response, let validators = variant.validators { answerConditionally(&plan, request, variant: variant, validators: validators) }
        if variant.status == 200, plan.status != 304, case .variant = plan.response, request.header("Range") != nil { answerRange(&plan, request, variant: variant) }
        return plan
    }

    /// Plans the response for an in-memory request and strips its control query parameters, as the
    /// journal sees it.
    package func plan(_ request: inout StubRequest, catalog: StubCatalog, overrides: (any OverrideSource)? = nil, session: String? = nil) -> ResponsePlan {
        let plan = plan(request, catalog: catalog, overrides: overrides, session: session)
        request.query.removeAll { RequestControls.queryNames.contains($0.name) }
        return plan
    }

    private func choose(_ route: Route, controls: RequestControls, decision: OverrideDecision?,
                        view: inout RequestView) -> Result<(index: Int, selection: ResponsePlan.Selection), ReplyFailure> {
        if let name = controls.variant {
            guard let i = route.variantIndex(named: name) else {
                return .failure(ReplyFailure(.error(400, "unknown variant", [
                    ("route", .string(route.id)), ("variant", .string(name)), ("variants", .array(route.variants.map { .string($0.name) })),
                ])))
            }
            return .success((i, .request))
        }
        if controls.mockName != nil || controls.mockCode != nil {
            // Of several that answer the headers, the one the request would get without them: the
            // first whose `when` it meets, else the route's default.
            let candidates = route.variantIndices(mockName: controls.mockName, code: controls.mockCode)
            let matching = candidates.count > 1
                ? candidates.first { route.selects(variant: $0, &view) } ?? candidates.first { $0 == route.defaultIndex } : nil
            guard let i = matching ?? candidates.first else {
                return .failure(ReplyFailure(.error(400, "no variant answers the x-mock-response headers", [
                    ("route", .string(route.id)), ("name", controls.mockName.map { .string($0) } ?? .null),
                    ("code", controls.mockCode.map { JSONValue.number(Double($0)) } ?? .null),
                    ("variants", .array(route.variants.map { .string($0.name) })),
                ])))
            }
            return .success((i, .request))
        }
        if let name = decision?.variant, let i = route.variantIndex(named: name) {
            return .success((i, decision?.fromSequence == true ? .sequence : .override))
        }
        let variants = route.variants
        for i in variants.indices where route.selects(variant: i, &view) {
            return .success((i, .when))
        }
        return .success((route.defaultIndex, .default))
    }

}
