import StubCore
import StubSystem

/// A GraphQL endpoint's socket: `graphql-transport-ws` (what Apollo iOS and `graphql-ws` speak),
/// or the legacy `subscriptions-transport-ws` when the client chose `graphql-ws`. Each
/// `subscribe` is planned by the core (`GraphQLSocket.resolve`) and its payloads streamed.
extension WebSocketPeer {
    /// The protocol's state on one connection.
    struct GraphQLState {
        /// How long a client has to send `connection_init` (graphql-ws's default: 3 s).
        static let initTimeoutNs: UInt64 = 3_000_000_000
        /// The legacy protocol's message names (`start`, `data`, `stop`).
        let legacy: Bool
        var initialized = false
        /// The subscriptions running, by the client's id.
        var active: Set<String> = []
    }

    /// One client message of the protocol.
    func graphQLMessage(_ text: String?) {
        guard let socket = open.conversation.graphQL, let legacy = graphQL?.legacy else { return }
        guard let text, let json = try? JSONParser.parse(Array(text.utf8)), case .object = json, case .string(let type)? = json["type"] else {
            return refuse(4400, "Invalid message received")
        }
        switch (type, legacy) {
        case ("connection_init", _):
            guard graphQL?.initialized == false else { return refuse(4429, "Too many initialisation requests") }
            graphQL?.initialized = true
            timers.removeAll { if case .graphQLInitTimeout = $0 { true } else { false } }
            sendJSON([("type", .string("connection_ack"))])
        case ("ping", false): sendJSON([("type", .string("pong"))])
        case ("pong", false): break
        case ("subscribe", false), ("start", true):
            guard graphQL?.initialized == true else { return refuse(4401, "Unauthorized") }
            guard case .string(let id)? = json["id"], !id.isEmpty, let payload = json["payload"], case .object = payload else {
                return refuse(4400, "Invalid message received")
            }
            guard graphQL?.active.contains(id) == false else { return refuse(4409, "Subscriber for \(id) already exists") }
            start(id, socket.resolve(payload))
        case ("complete", false), ("stop", true):
            guard case .string(let id)? = json["id"] else { return refuse(4400, "Invalid message received") }
            stop(id)
        case ("connection_terminate", true):
            end(Conversation.Ending(code: 1000, reason: ""))
        default:
            refuse(4400, "Invalid message received")
        }
    }

    /// Starts subscription `id` as the core answered it.
    private func start(_ id: String, _ answer: GraphQLSocket.Answer) {
        switch answer {
        case .errors(let errors):
            // The legacy protocol's `error` carries one error, the current one's an array.
            var payload = errors
            if graphQL?.legacy == true, case .array(let list) = errors, let first = list.first { payload = first }
            sendJSON([("id", .string(id)), ("type", .string("error")), ("payload", payload)])
        case .stream(let script, let delayMs):
            graphQL?.active.insert(id)
            var at = now &+ UInt64(delayMs) * 1_000_000
            for event in script.events {
                at &+= UInt64(event.delay?.sample() ?? 0) * 1_000_000
                timers.push(at, .subscription(id: id, payload: event.payload))
            }
            if script.complete { timers.push(at, .subscription(id: id, payload: nil)) }
        }
    }

    /// The client completed (or stopped) subscription `id`: nothing more is sent for it.
    private func stop(_ id: String) {
        // The legacy protocol answers a `stop` with `complete`; the current one says nothing more.
        if graphQL?.active.remove(id) != nil, graphQL?.legacy == true { sendJSON([("id", .string(id)), ("type", .string("complete"))]) }
        timers.removeAll { action in
            if case .subscription(let other, _) = action { other == id } else { false }
        }
    }

    /// A due `next` (or, with no payload, the `complete`) of subscription `id`.
    func subscriptionEvent(_ id: String, _ payload: JSONValue?) {
        guard graphQL?.active.contains(id) == true else { return }
        guard let payload else {
            graphQL?.active.remove(id)
            return sendJSON([("id", .string(id)), ("type", .string("complete"))])
        }
        sendJSON([("id", .string(id)), ("type", .string(graphQL?.legacy == true ? "data" : "next")), ("payload", payload)])
    }

    /// Pushes `payload` as a `next` into subscription `subscription`, or into every running one
    /// (the admin API's steering).
    func pushNext(_ payload: JSONValue, subscription: String?) {
        let targets = (graphQL?.active ?? []).filter { subscription == nil || $0 == subscription }
        for id in targets.sorted() { subscriptionEvent(id, payload) }
    }

    /// Closes the connection with one of the protocol's codes (4400 invalid message, 4401
    /// unauthorized, 4408 no init in time, 4409 duplicate id, 4429 init twice).
    func refuse(_ code: Int, _ reason: String) {
        end(Conversation.Ending(code: code, reason: reason))
    }

    private func sendJSON(_ members: [(key: String, value: JSONValue)]) {
        send(.text(JSONValue.object(members).serialized(pretty: false)))
    }
}
