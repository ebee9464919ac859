/// Turns a request into a `ResponsePlan`. The one place that decides precedence:
///
/// variant: request control > admin sequence > admin override > first `when` that holds > default;
/// delay: request control > admin override > variant > route > service, plus the server-wide base delay;
/// fault: request control > admin override > variant;
/// throttle: request control > admin override > variant > route > service.
public struct ResponsePlanner: Sendable {
    /// Milliseconds added to every stub response (`--delay`).
    public var baseDelayMs: Int

    /// Makes a planner.
    public init(baseDelayMs: Int = 0) {
        self.baseDelayMs = baseDelayMs
    }

    /// Plans the response; strips control query parameters from `request` so nothing downstream sees them.
    public func plan(_ request: inout StubRequest, catalog: StubCatalog, overrides: (any OverrideSource)? = nil, session: String? = nil) -> ResponsePlan {
        let controls: RequestControls
        switch RequestControls.extract(from: &request) {
        case .success(let c): controls = c
        case .failure(let f): return .reply(f.reply)
        }
        switch catalog.matcher.match(method: request.method, path: request.path) {
        case .notFound:
            let misses = catalog.matcher.nearMisses(method: request.method, path: request.path, in: catalog.routes)
            return .reply(.error(404, "no stub matches this request", [
                ("method", .string(request.method)), ("path", .string(request.path)),
                ("nearMisses", .array(misses.map { .object([("route", .string($0.id)), ("method", .string($0.method)), ("path", .string($0.fullPath))]) })),
            ]))
        case .methodNotAllowed(let allowed):
            return .reply(.error(405, "method not allowed", [
                ("method", .string(request.method)), ("path", .string(request.path)), ("allowed", .array(allowed.map { .string($0) })),
            ], headers: [HTTPHeader("Allow", allowed.joined(separator: ", "))]))
        case .route(let routeIndex, let parameters):
            let route = catalog.routes[routeIndex]
            let decision = overrides?.decision(forRoute: route.id, session: session, advance: controls.variant == nil)
            let chosen: (index: Int, selection: ResponsePlan.Selection)
            if let name = controls.variant {
                guard let i = route.variantIndex(named: name) else {
                    return .reply(.error(400, "unknown variant", [
                        ("route", .string(route.id)), ("variant", .string(name)),
                        ("variants", .array(route.variants.map { .string($0.name) })),
                    ]), routeID: route.id)
                }
                chosen = (i, .request)
            } else if let name = decision?.variant, let i = route.variantIndex(named: name) {
                chosen = (i, decision?.fromSequence == true ? .sequence : .override)
            } else if let i = route.variants.firstIndex(where: { $0.condition?.holds(for: request, parameters: parameters) == true }) {
                chosen = (i, .when)
            } else {
                chosen = (route.defaultIndex, .default)
            }
            let variant = route.variants[chosen.index]
            let rendered = variant.template?.render(request, parameters: parameters)
            let fault = controls.fault ?? decision?.fault ?? variant.fault
            let delay = controls.delayMs ?? (decision?.delay ?? variant.delay)?.sample() ?? 0
            var plan = ResponsePlan(response: .variant(route: routeIndex, variant: chosen.index), status: fault == nil ? variant.status : 0,
                                delayMs: delay + baseDelayMs, fault: fault,
                                throttleBytesPerSecond: controls.throttleBytesPerSecond ?? decision?.throttleBytesPerSecond ?? variant.throttleBytesPerSecond,
                                routeID: route.id, variantName: variant.name, selection: chosen.selection)
            plan.renderedBody = rendered
            return plan
        }
    }
}

/// What an admin override says for one request to a route.
public struct OverrideDecision: Sendable, Equatable {
    /// A variant to serve, from a sticky override or a sequence step.
    public var variant: String?
    /// True when `variant` is a sequence step.
    public var fromSequence: Bool
    /// A delay that beats the stub files.
    public var delay: DelaySpec?
    /// A fault that beats the stub files.
    public var fault: Fault?
    /// A body rate that beats the stub files.
    public var throttleBytesPerSecond: Int?

    /// Makes a decision.
    public init(variant: String? = nil, fromSequence: Bool = false, delay: DelaySpec? = nil, fault: Fault? = nil,
                throttleBytesPerSecond: Int? = nil) {
        self.variant = variant
        self.fromSequence = fromSequence
        self.delay = delay
        self.fault = fault
        self.throttleBytesPerSecond = throttleBytesPerSecond
    }
}

/// Where the planner asks for admin overrides; asking may advance a sequence.
public protocol OverrideSource: Sendable {
    /// The override for the next request to `routeID` in `session` (nil = global scope);
    /// `advance` is false when the request picked its own variant, so no sequence step is used.
    func decision(forRoute routeID: String, session: String?, advance: Bool) -> OverrideDecision?
}
