/// A GraphQL endpoint's WebSocket (`graphql-transport-ws`, or the legacy `graphql-ws`): the
/// transport speaks the protocol, and asks `resolve` for each `subscribe`, which plans it as the
/// same operation sent over HTTP would be (variables, overrides, sequences, the session).
package struct GraphQLSocket: Sendable {
    /// The subprotocols served: the current protocol first, then the legacy one
    /// (subscriptions-transport-ws, which names itself `graphql-ws`).
    package static let subprotocols = ["graphql-transport-ws", "graphql-ws"]

    /// How a `subscribe` is answered.
    package enum Answer: Sendable {
        /// `next` these payloads (the first after `delayMs` more), then `complete` if the script
        /// says so: a subscription variant's script, or a query's or mutation's one answer.
        case stream(SubscriptionScript, delayMs: Int)
        /// An `error` message with these GraphQL errors (an array): an operation nobody stubbed,
        /// a request that cannot be read, an error variant.
        case errors(JSONValue)
    }

    /// Plans a `subscribe` message's payload (`query`, `operationName`, `variables`, `extensions`).
    package let resolve: @Sendable (JSONValue) -> Answer

    package init(resolve: @escaping @Sendable (JSONValue) -> Answer) {
        self.resolve = resolve
    }
}

extension ResponsePlanner {
    /// The 101 a GraphQL endpoint answers a WebSocket handshake with: its subscriptions are then
    /// planned one by one, as POSTs of their payload to the endpoint with the handshake's headers.
    func planGraphQLSocket(_ request: any RequestHead, endpoint: GraphQLEndpoints.Endpoint, catalog: StubCatalog,
                           overrides: (any OverrideSource)?, session: String?) -> ResponsePlan {
        let handshake = request.snapshot()
        let upgradeHeaders: Set<String> = ["upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
                                           "sec-websocket-extensions", "content-length", "content-type", "transfer-encoding"]
        let headers = handshake.headers.filter { !upgradeHeaders.contains($0.name.lowercased()) } + [("Content-Type", "application/json")]
        let socket = GraphQLSocket { [self] payload in
            let post = StubRequest(method: "POST", path: handshake.path, headers: headers, body: payload.serializedBytes(), scheme: handshake.scheme)
            let controls: RequestControls
            switch RequestControls.read(from: post) {
            case .success(let read): controls = read
            case .failure(let failure): return GraphQLSocket.answer(.reply(failure.reply))
            }
            return GraphQLSocket.answer(planGraphQL(post, endpoint: endpoint, catalog: catalog, controls: controls, overrides: overrides,
                                                    session: session, releasedFromHold: true, overSocket: true))
        }
        var conversation = Conversation()
        conversation.graphQL = socket
        let answer = SocketAnswer(conversation: conversation, endpoint: WebSocketEndpoint(subprotocols: GraphQLSocket.subprotocols))
        var plan = ResponsePlan(response: .webSocket(answer), status: 101)
        // Named for the conversation record: the endpoint's service, then what it serves.
        plan.routeID = (endpoint.service.map { $0 + "/" } ?? "") + "subscriptions"
        plan.variantName = "subscriptions"
        return plan
    }
}

extension GraphQLSocket {
    /// What a planned `subscribe` streams: a subscription variant's script; a query's or a
    /// mutation's body as one `next` (its `errors` with `data: null` as an `error` message); any
    /// other reply's `errors`.
    static func answer(_ plan: ResponsePlan) -> Answer {
        let body: [UInt8]
        switch plan.response {
        case .variant(let variant, _):
            if let script = variant.subscription {
                return .stream(script, delayMs: plan.delayMs)
            }
            body = plan.renderedBody ?? variant.body
        case .reply(let reply): body = reply.body
        default: body = []
        }
        guard let json = try? JSONParser.parse(body), case .object = json else {
            return .errors(.array([.object([("message", .string("the stub's answer is not a GraphQL result (a JSON object)"))])]))
        }
        if let errors = json["errors"], json["data"] == nil || json["data"] == .null {
            return .errors(errors)
        }
        return .stream(SubscriptionScript(events: [.init(payload: json, delay: nil)], complete: true), delayMs: plan.delayMs)
    }
}
