/// Requests to a GraphQL endpoint: routed by the operation they name, answered in GraphQL's shapes
/// when no operation route can answer (GraphQL over HTTP: a request that cannot be read is a 400,
/// an operation nobody stubbed is a 200 with `errors`, as a server whose schema lacks it answers).
extension ResponsePlanner {
    func planGraphQL(_ request: any RequestHead, endpoint: GraphQLEndpoints.Endpoint, catalog: StubCatalog, controls: RequestControls,
                     overrides: (any OverrideSource)?, session: String?, releasedFromHold: Bool, overSocket: Bool = false) -> ResponsePlan {
        if request.method == "GET", let upgrade = request.header("Upgrade"), ASCIICase.equal(upgrade, "websocket") {
            return planGraphQLSocket(request, endpoint: endpoint, catalog: catalog, overrides: overrides, session: session)
        }
        guard request.method == "POST" || request.method == "GET" else {
            var plan = ResponsePlan.reply(GraphQLReply.error(405, "a GraphQL endpoint takes GET and POST, not \(request.method)", code: "METHOD_NOT_ALLOWED",
                                                             headers: [HTTPHeader("Allow", "GET, POST")]))
            plan.unmatched = true
            return plan
        }
        // Matched on the result itself, so the request is moved out of it rather than copied.
        switch GraphQLRequest.parse(method: request.method, body: request.body, query: request.method == "GET" ? request.allQueryParameters() : [],
                                    limits: graphQLLimits) {
        case .failure(let failure):
            return .reply(GraphQLReply.error(400, failure.message, code: "BAD_REQUEST"))
        case .success(.single(var operation)):
            // Most requests send their query: a persisted query's hash is looked at only when sent.
            if operation.persistedHash != nil {
                switch GraphQLReply.resolve(operation, endpoint: endpoint, persisted: catalog.graphql.persisted) {
                case .success(let resolved): operation = resolved
                case .failure(let refusal): return .reply(refusal.reply)
                }
            }
            guard let name = operation.operationName, let index = endpoint.route(for: name) else {
                var plan = ResponsePlan.reply(GraphQLReply.unknown(operation, endpoint: endpoint))
                plan.unmatched = true
                plan.operation = operation.operationName
                return plan
            }
            if !overSocket, catalog.routes[index].operationKind == "subscription" {
                var plan = ResponsePlan.reply(GraphQLReply.error(200, "\(name) is a subscription: subscribe over the endpoint's WebSocket (graphql-transport-ws)",
                                                                 code: "STUBD_SUBSCRIPTION_OVER_HTTP"))
                plan.routeID = catalog.routes[index].id
                plan.operation = name
                return plan
            }
            return plan(route: index, request, catalog: catalog, controls: controls, overrides: overrides, session: session,
                        releasedFromHold: releasedFromHold, graphQL: operation, variables: endpoint.testsVariables)
        case .success(.batch(let operations)):
            return planBatch(operations, request, endpoint: endpoint, catalog: catalog, controls: controls, overrides: overrides, session: session)
        }
    }

    /// A batch: each operation is planned as if sent alone (sequences step once per operation),
    /// and the answer is the array of their bodies, after the longest of their delays. Faults,
    /// holds, throttles and streams apply to single operations only.
    private func planBatch(_ operations: [GraphQLRequest], _ request: any RequestHead, endpoint: GraphQLEndpoints.Endpoint, catalog: StubCatalog,
                           controls: RequestControls, overrides: (any OverrideSource)?, session: String?) -> ResponsePlan {
        var bodies: [[UInt8]] = []
        var delayMs = 0
        var first: ResponsePlan?
        for sent in operations {
            let operation: GraphQLRequest
            switch GraphQLReply.resolve(sent, endpoint: endpoint, persisted: catalog.graphql.persisted) {
            case .success(let resolved): operation = resolved
            case .failure(let refusal):
                bodies.append(refusal.reply.body)
                continue
            }
            guard let name = operation.operationName, let index = endpoint.route(for: name) else {
                bodies.append(GraphQLReply.unknown(operation, endpoint: endpoint).body)
                continue
            }
            let planned = plan(route: index, request, catalog: catalog, controls: controls, overrides: overrides, session: session,
                               releasedFromHold: true, graphQL: operation, variables: endpoint.testsVariables)
            delayMs = max(delayMs, planned.delayMs)
            switch planned.response {
            case .variant(let variant, _): bodies.append(planned.renderedBody ?? variant.body)
            case .reply(let reply): bodies.append(reply.body)
            case .deferred, .live, .webSocket: bodies.append(GraphQLReply.error(500, "operation \(name) cannot be answered in a batch", code: "INTERNAL").body)
            }
            if first == nil { first = planned }
        }
        var body: [UInt8] = [UInt8(ascii: "[")]
        for (i, part) in bodies.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body += part
        }
        body.append(UInt8(ascii: "]"))
        var plan = ResponsePlan.reply(Reply(status: 200, headers: [HTTPHeader("Content-Type", GraphQLReply.contentType)], body: body),
                                      routeID: first?.routeID)
        plan.route = first?.route
        plan.delayMs = delayMs
        plan.operation = operations.map { $0.operationName ?? "(anonymous)" }.joined(separator: ",")
        return plan
    }
}

/// The answers stubd makes at a GraphQL endpoint, in GraphQL's response shape.
enum GraphQLReply {
    /// Why an operation is answered with an error before any route sees it.
    struct Refusal: Error {
        let reply: Reply
    }

    /// Fills in a persisted query: a hash sent with its query is checked and remembered; a hash
    /// sent alone is looked up in the endpoint's manifest, then among the queries remembered, and
    /// is `PersistedQueryNotFound` (HTTP 200, as Apollo's protocol has it) when neither has it.
    static func resolve(_ sent: GraphQLRequest, endpoint: GraphQLEndpoints.Endpoint, persisted: PersistedQueries) -> Result<GraphQLRequest, Refusal> {
        guard let hash = sent.persistedHash else { return .success(sent) }
        var operation = sent
        if let query = sent.query {
            guard endpoint.manifest[hash] != nil || SHA256.hex(query) == hash else {
                return .failure(Refusal(reply: error(400, "provided sha does not match query", code: "BAD_REQUEST")))
            }
            persisted.remember(query, hash: hash)
            return .success(operation)
        }
        if let known = endpoint.manifest[hash] {
            operation.query = known.query
            operation.operationName = operation.operationName ?? known.name
        } else if let query = persisted.query(for: hash) {
            operation.query = query
            operation.operationName = operation.operationName ?? GraphQLDocument.firstOperationName(in: query)
        } else {
            return .failure(Refusal(reply: error(200, "PersistedQueryNotFound", code: "PERSISTED_QUERY_NOT_FOUND")))
        }
        return .success(operation)
    }

    static let contentType = "application/json; charset=utf-8"

    /// `{"errors": [{"message": …, "extensions": {"code": …, …}}]}` with `status`.
    static func error(_ status: Int, _ message: String, code: String, extensions: [(String, JSONValue)] = [],
                      headers: [HTTPHeader] = []) -> Reply {
        let error = JSONValue.object([("message", .string(message)), ("extensions", .object([("code", .string(code))] + extensions))])
        let body = JSONValue.object([("errors", .array([error]))]).serialized()
        return Reply(status: status, headers: [HTTPHeader("Content-Type", contentType)] + headers, body: Array(body.utf8))
    }

    /// An operation no route answers: named, with the closest operation names there are.
    static func unknown(_ operation: GraphQLRequest, endpoint: GraphQLEndpoints.Endpoint) -> Reply {
        let known = endpoint.operations.keys.sorted()
        guard let name = operation.operationName else {
            return error(200, "an anonymous operation; stubd finds a stub by the operation's name", code: "STUBD_NO_OPERATION_NAME",
                         extensions: [("operations", .array(known.map { .string($0) }))])
        }
        let near = known.map { ($0, StringDistance.levenshtein(name.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= max(2, name.count / 3) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
        return error(200, "no stub answers operation \(name)", code: "STUBD_NO_STUB",
                     extensions: [("operation", .string(name)), ("nearMisses", .array(near.map { .string($0) })),
                                  ("operations", .array(known.map { .string($0) }))])
    }
}
