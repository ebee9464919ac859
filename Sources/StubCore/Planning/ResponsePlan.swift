import StubSystem
/// What the transport should do for one request: which prepared response or reply, after what
/// delay, or which fault; and whether the request is journaled.
package struct ResponsePlan: Sendable {
    /// The response to send.
    package enum Response: Sendable {
        /// A variant prepared at load time; `key` indexes the catalog's flat list of variants
        /// (`StubCatalog.variantKey(route:variant:)`), where the transport keeps its prepared bytes.
        case variant(Variant, key: Int)
        /// A reply made for this request.
        case reply(Reply)
        /// A reply that takes long to make (a reload), to be made off the threads serving requests.
        case deferred(DeferredReply)
        /// The journal as it happens (`GET /__stubd/journal/stream`), until the client leaves.
        case live(LiveJournal)
        /// A WebSocket the core answers itself: a GraphQL endpoint's `graphql-transport-ws`.
        case webSocket(SocketAnswer)
    }

    /// Why a variant was chosen, for the access log and the journal.
    package enum Selection: String, Sendable {
        /// `X-Stub-Variant` or `__variant` on the request.
        case request
        /// The next step of an admin sequence.
        case sequence
        /// A sticky admin override.
        case override
        /// A variant's `when` conditions held.
        case when
        /// Nothing else applied.
        case `default`
    }

    /// Every field, behind one reference that is copied on write: a plan passes through several
    /// functions per request, and copying one reference costs a fraction of copying a dozen.
    private var storage: ResponsePlanStorage

    /// The response.
    package var response: Response {
        get { storage.response }
        set { unique().response = newValue }
    }
    /// The status that will be sent (0 when a fault sends none; 0 for a deferred reply until made).
    package var status: Int {
        get { storage.status }
        set { unique().status = newValue }
    }
    /// Milliseconds to wait before responding or faulting.
    package var delayMs: Int {
        get { storage.delayMs }
        set { unique().delayMs = newValue }
    }
    /// A fault to serve instead of the response.
    package var fault: Fault? {
        get { storage.fault }
        set { unique().fault = newValue }
    }
    /// The code and place of an `rst-stream` fault; nil: CANCEL before the headers.
    package var streamReset: StreamReset? {
        get { storage.streamReset }
        set { unique().streamReset = newValue }
    }
    /// When set, the body is sent at this many bytes per second.
    package var throttleBytesPerSecond: Int? {
        get { storage.throttleBytesPerSecond }
        set { unique().throttleBytesPerSecond = newValue }
    }
    /// The body rendered for this request, for a templated variant; nil sends the prepared body.
    package var renderedBody: [UInt8]? {
        get { storage.renderedBody }
        set { unique().renderedBody = newValue }
    }
    /// The matched route's id, if any.
    package var routeID: String? {
        get { storage.routeID }
        set { unique().routeID = newValue }
    }
    /// The matched route, whose template reads the path parameters for the journal.
    package var route: Route? {
        get { storage.route }
        set { unique().route = newValue }
    }
    /// The chosen variant's name, if any.
    package var variantName: String? {
        get { storage.variantName }
        set { unique().variantName = newValue }
    }
    /// How the variant was chosen.
    package var selection: Selection? {
        get { storage.selection }
        set { unique().selection = newValue }
    }
    /// Which step of an admin sequence chose the variant (1-based, of how many).
    package var sequenceStep: (step: Int, of: Int)? {
        get { storage.sequenceStep }
        set { unique().sequenceStep = newValue }
    }
    /// For a request no route matched (404, 405): the closest routes and why each did not match,
    /// as the 404 body and the journal give them.
    package var nearMisses: JSONValue? {
        get { storage.nearMisses }
        set { unique().nearMisses = newValue }
    }
    /// The GraphQL operation the request named, for a request to a GraphQL endpoint.
    package var operation: String? {
        get { storage.operation }
        set { unique().operation = newValue }
    }
    /// The session the request named (`X-Stub-Session` or a `/__session/<id>` prefix).
    package var session: String? {
        get { storage.session }
        set { unique().session = newValue }
    }
    /// The path without its `/__session/<id>` prefix, which the journal and the log record.
    package var scopedPath: String? {
        get { storage.scopedPath }
        set { unique().scopedPath = newValue }
    }
    /// False for admin calls, which the journal leaves out.
    package var journaled: Bool {
        get { storage.journaled }
        set { unique().journaled = newValue }
    }
    /// The variant's events and when each is due, for a streamed body.
    package var stream: PlannedStream? {
        get { storage.stream }
        set { unique().stream = newValue }
    }
    /// Contract violations (`--openapi`); nil when not checked.
    package var contract: [ContractViolation]? {
        get { storage.contract }
        set { unique().contract = newValue }
    }
    /// An admin hold: the transport waits for a release, then plans again.
    package var hold: Bool {
        get { storage.hold }
        set { unique().hold = newValue }
    }
    /// A sequence step only the fleet's store can hand out: the request waits, suspended, for
    /// the step (`StubControl.takeStep`), then is planned again with it. Nil for every other plan.
    package var stepToken: String? {
        get { storage.stepToken }
        set { unique().stepToken = newValue }
    }
    /// No route matched (a 404 or 405): a proxy may answer instead.
    package var unmatched: Bool {
        get { storage.unmatched }
        set { unique().unmatched = newValue }
    }
    /// The reply comes from the upstream (`--proxy-unmatched`).
    package var proxied: Bool {
        get { storage.proxied }
        set { unique().proxied = newValue }
    }

    /// The part of the variant's body a `Range` request gets (status 206), or nil for all of it.
    package var range: ByteRange? {
        get { storage.range }
        set { unique().range = newValue }
    }

    /// What the request changed in state and collections (`state token`, `app/todos 4 created`),
    /// for the journal; nil when nothing.
    package var memoryChanges: [String]? {
        get { storage.memoryChanges }
        set { unique().memoryChanges = newValue }
    }
    /// The route remembers and its fleet store is called only from the store's thread: the
    /// request waits, suspended, and is planned there (`StubMemory`).
    package var awaitsMemory: Bool {
        get { storage.awaitsMemory }
        set { unique().awaitsMemory = newValue }
    }

    /// The catalog of a route that remembers: a plan waiting for the memory store is made again
    /// from it, and a conversation's templated messages read its state seed.
    package var catalog: StubCatalog? {
        get { storage.catalog }
        set { unique().catalog = newValue }
    }

    /// A plan that waits to be made on the memory store's thread.
    static func awaitingMemory(route: Route, catalog: StubCatalog) -> ResponsePlan {
        var waiting = ResponsePlan(response: .reply(Reply(status: 503)), status: 503)
        waiting.awaitsMemory = true
        waiting.catalog = catalog
        waiting.routeID = route.id
        waiting.route = route
        return waiting
    }

    /// Makes a plan that sends `response`.
    package init(response: Response, status: Int) {
        storage = ResponsePlanStorage(response: response, status: status)
    }

    /// The storage's identity, for the journal's drop hint (`JournalDropHint`).
    var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// The storage, copied first when another plan shares it.
    private mutating func unique() -> ResponsePlanStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// A plan that sends a reply at once.
    package static func reply(_ reply: Reply, routeID: String? = nil) -> ResponsePlan {
        var plan = ResponsePlan(response: .reply(reply), status: reply.status)
        plan.routeID = routeID
        return plan
    }

    /// The plan as a journal record keeps it: what it says of the route, the variant and why,
    /// without what it sent (a rendered or replied body, a stream, deferred work) or the catalog
    /// of a route that remembers, so a record holds no body. A plan that serves a variant as
    /// prepared is kept as it is.
    var keptByRecord: ResponsePlan {
        if case .variant = response, renderedBody == nil, stream == nil, catalog == nil { return self }
        var kept = self
        kept.response = .reply(Reply(status: status))
        kept.renderedBody = nil
        kept.stream = nil
        // A record must not keep a replaced catalog alive after a reload.
        kept.catalog = nil
        return kept
    }

    /// The variant served, when the plan serves one.
    package var variant: Variant? {
        if case .variant(let variant, _) = response { return variant }
        return nil
    }
}

/// The conversation a WebSocket handshake the core answers itself opens, and its endpoint. A
/// class: the plan's answer stays the size of its other cases (every request's plan holds one).
package final class SocketAnswer: Sendable {
    package let conversation: Conversation
    package let endpoint: WebSocketEndpoint

    package init(conversation: Conversation, endpoint: WebSocketEndpoint) {
        self.conversation = conversation
        self.endpoint = endpoint
    }
}
