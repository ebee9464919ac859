/// One response a route can give: a status, headers and body prepared at load time, or a fault.
public final class Variant: Sendable {
    /// The name tests select it by (`200`, `401`, `200-user-2`).
    public let name: String
    /// HTTP status; 0 for a fault variant that never sends a status line.
    public let status: Int
    /// Response headers after merging service, route and variant headers (Content-Type included).
    public let headers: [HTTPHeader]
    /// The exact bytes sent as the body.
    public let body: [UInt8]
    /// Conditions on the request that select this variant, if any.
    public let condition: RequestCondition?
    /// The effective delay (variant, else route, else service).
    public let delay: DelaySpec?
    /// When set, the body is sent at this many bytes per second (variant, else route, else service).
    public let throttleBytesPerSecond: Int?
    /// A network fault served instead of a response.
    public let fault: Fault?
    /// When set, the body is rendered per request with request values (`"template": true`).
    package let template: ResponseTemplate?
    /// A human note from route.json.
    public let description: String?
    /// When set, the body is sent as these events over time instead of at once.
    public let stream: EventStream?
    /// For a stream: reset the connection after this many events (`"fault": {"cutAfter": N}`).
    public let cutAfter: Int?
    /// The code and place of an `rst-stream` fault (`"fault": "rst-stream-after=512:cancel"`).
    public let streamReset: StreamReset?
    /// Where the body comes from, for messages: the body file (`app/user/200.json`) or the place in
    /// route.json (`app/user/route.json: variants.404.error`); nil without a body.
    public let bodySource: String?
    /// For a WebSocket route: the conversation held once the handshake is answered with 101;
    /// nil for a variant that answers the handshake over HTTP (a 401 refusing it).
    public var conversation: Conversation? { boxedConversation?.conversation }
    /// Boxed: in place, a conversation's hundreds of bytes pushed `validators` onto further cache
    /// lines, and every plain answer copied the whole optional out to find it nil (on the
    /// 10,000-route table: 6% of the simulated first-level misses per request and 80
    /// instructions, bench/instructions.py --cache-sim).
    private let boxedConversation: ConversationBox?
    /// For a GraphQL subscription: what a `subscribe` over `graphql-transport-ws` streams.
    package let subscription: SubscriptionScript?
    /// The `when` parts that read state and the `then` changes; nil for most variants.
    package let memory: VariantMemory?
    /// Its `ETag` and `Last-Modified`, when its headers have either: a conditional GET is then
    /// answered `304` when they match (nil for a stream, whose events are not one representation).
    package let validators: Validators?

    /// True when the variant has a `when` and it holds for the request behind `view`, its path
    /// part checked with `path` (the resolved form of it for `route`) when the view allows. The
    /// condition is read where it lies: copying it out would retain each of its dictionaries.
    func selected(by view: inout RequestView, path: borrowing PathCondition?, of route: ObjectIdentifier) -> Bool {
        if let held = view.pathHolds(path, of: route) {
            return held && condition?.holds(for: &view, skippingPath: true) == true && (memory?.condition.holds(for: &view) ?? true)
        }
        return (condition?.holds(for: &view) ?? false) && (memory?.condition.holds(for: &view) ?? true)
    }

    /// Makes a variant from prepared parts.
    package init(name: String, status: Int, headers: [HTTPHeader], body: [UInt8], condition: RequestCondition? = nil,
                delay: DelaySpec? = nil, throttleBytesPerSecond: Int? = nil, fault: Fault? = nil, template: ResponseTemplate? = nil,
                description: String? = nil, stream: EventStream? = nil, cutAfter: Int? = nil, streamReset: StreamReset? = nil, bodySource: String? = nil, conversation: Conversation? = nil,
                subscription: SubscriptionScript? = nil, memory: VariantMemory? = nil) {
        self.name = name
        self.status = status
        self.headers = headers
        self.body = body
        self.condition = condition
        self.delay = delay
        self.throttleBytesPerSecond = throttleBytesPerSecond
        self.fault = fault
        self.template = template
        self.description = description
        self.stream = stream
        self.cutAfter = cutAfter
        self.streamReset = streamReset
        self.bodySource = bodySource
        boxedConversation = conversation.map(ConversationBox.init)
        self.subscription = subscription
        self.memory = memory
        validators = stream == nil ? Validators(headers: headers) : nil
    }
}

/// A variant's conversation, held by reference (see `Variant.boxedConversation`).
private final class ConversationBox: Sendable {
    let conversation: Conversation
    init(_ conversation: Conversation) { self.conversation = conversation }
}
