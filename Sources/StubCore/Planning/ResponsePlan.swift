/// What the transport should do for one request: which prepared response or reply, after what delay, or which fault.
public struct ResponsePlan: Sendable {
    /// The response to send.
    public enum Response: Sendable {
        /// A variant prepared at load time (its bytes and headers are in the catalog).
        case variant(route: Int, variant: Int)
        /// A reply made for this request.
        case reply(Reply)
    }

    /// Why a variant was chosen, for the access log and the journal.
    public enum Selection: String, Sendable {
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

    /// The response.
    public var response: Response
    /// The status that will be sent (0 when a fault sends none).
    public var status: Int
    /// Milliseconds to wait before responding or faulting.
    public var delayMs: Int
    /// A fault to serve instead of the response.
    public var fault: Fault?
    /// When set, the body is sent at this many bytes per second.
    public var throttleBytesPerSecond: Int?
    /// The body rendered for this request, for a templated variant; nil sends the prepared body.
    public var renderedBody: [UInt8]?
    /// The matched route's id, if any.
    public var routeID: String?
    /// The chosen variant's name, if any.
    public var variantName: String?
    /// How the variant was chosen.
    public var selection: Selection?

    /// A plan that sends a reply at once.
    public static func reply(_ reply: Reply, routeID: String? = nil) -> ResponsePlan {
        ResponsePlan(response: .reply(reply), status: reply.status, delayMs: 0, fault: nil, throttleBytesPerSecond: nil,
                     routeID: routeID, variantName: nil, selection: nil)
    }
}
