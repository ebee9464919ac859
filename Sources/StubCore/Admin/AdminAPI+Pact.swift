/// `GET /__stubd/journal/pact`: the journal as a Pact contract; `POST /__stubd/pact/state`: a
/// Pact verifier's provider-state call, set up as an override.
extension AdminAPI {
    /// The pact for the session's journal (`consumer` and `provider` name the sides; `since` and
    /// the journal's other filters apply).
    func pact(_ request: StubRequest, session: String?) -> Reply {
        guard request.method == "GET" else { return notAllowed(["GET"]) }
        guard let consumer = request.queryValue("consumer"), !consumer.isEmpty, let provider = request.queryValue("provider"), !provider.isEmpty else {
            return .error(400, "consumer and provider are required", [("expected", .string("?consumer=NAME&provider=NAME"))])
        }
        switch filter(from: request) {
        case .failure(let f): return f.reply
        case .success(let filter):
            let pact = PactWriter(consumer: consumer, provider: provider).pact(control.journal(session: session, filter: filter), version: version)
            return Reply(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array((pact.serialized(pretty: true) + "\n").utf8))
        }
    }

    /// A provider-state change as a Pact verifier sends it (`{"state": …, "params": {…},
    /// "action": "setup" | "teardown"}`, in the body or the query). Setup serves the state's
    /// variant from then on: the one `params` names (`export-pact` writes `route` and `variant`),
    /// else, on every route, a variant named or described as the state. Teardown clears those
    /// overrides. An unknown state is a 404: the verification would test nothing.
    func pactState(_ request: StubRequest, session: String?) -> Reply {
        guard request.method == "POST" else { return notAllowed(["POST"]) }
        let json = (try? JSONParser.parse(request.body)) ?? .object([])
        let state = json["state"]?.scalarText ?? request.queryValue("state") ?? ""
        let action = json["action"]?.scalarText ?? request.queryValue("action") ?? "setup"
        // The empty state is a verifier's general set-up and tear-down: nothing to do.
        if state.isEmpty { return .json(200, .object([("state", .string(state)), ("routes", .array([]))])) }
        var targets: [(route: Route, variant: String)] = []
        let routes = host.currentCatalog.routes
        if let routeID = json["params"]?["route"]?.scalarText, let variant = json["params"]?["variant"]?.scalarText,
           let route = routes.first(where: { $0.id == routeID }), route.variantIndex(named: variant) != nil {
            targets = [(route, variant)]
        } else {
            for route in routes {
                if let variant = route.variants.first(where: { $0.name == state || $0.description == state }) { targets.append((route, variant.name)) }
            }
        }
        guard !targets.isEmpty else {
            return .error(404, "no variant stands for this provider state", [("state", .string(state)),
                                                                              ("hint", .string("a variant named or described as the state, or params {route, variant}"))])
        }
        for (route, variant) in targets {
            if action == "teardown" {
                guard control.clearOverride(routeID: route.id, session: session, requireStore: true) else { return storeAwayReply }
            } else {
                do { try control.setOverride(RouteOverride(variant: variant), for: route, session: session, requireStore: true) } catch {
                    return reply(for: error)
                }
            }
        }
        return .json(200, .object([("state", .string(state)), ("action", .string(action)),
                                   ("routes", .array(targets.map { .string("\($0.route.id) → \($0.variant)") }))]))
    }
}
