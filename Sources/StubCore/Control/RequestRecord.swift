#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to one request: the access log line and the journal entry are made from it.
public struct RequestRecord: Sendable {
    /// The request as kept: packed as it arrived (decoded when read), or as given.
    private enum Kept: Sendable {
        case packed(PackedRequest, path: String?)
        case plain(StubRequest)
    }

    /// Every field, behind one reference copied on write: a record is moved through the journal
    /// and the log, and copying one reference costs a fraction of copying a dozen.
    private final class Fields: @unchecked Sendable {
        // @unchecked: an instance is only written through `unique()`, which copies it first
        // unless the writing record is its only owner; a shared instance is never written.
        var kept: Kept
        var session: String? = nil
        var routeID: String? = nil
        var operation: String? = nil
        var route: Route? = nil
        var variant: String? = nil
        var selection: ResponsePlan.Selection? = nil
        var sequenceStep: (step: Int, of: Int)? = nil
        var nearMisses: JSONValue? = nil
        var status: Int = 0
        var delayMs: Int = 0
        var fault: Fault? = nil
        var proxied: Bool = false
        var contract: [ContractViolation]? = nil
        var stream: (eventsSent: Int, clientGone: Bool)? = nil
        var clientGone: Bool = false
        var elapsedMs: Double = 0
        var bodyBytes: Int = 0
        var receivedAt: Date

        init(kept: Kept, receivedAt: Date) {
            self.kept = kept
            self.receivedAt = receivedAt
        }

        func copy() -> Fields {
            let other = Fields(kept: kept, receivedAt: receivedAt)
            other.session = session
            other.routeID = routeID
            other.operation = operation
            other.route = route
            other.variant = variant
            other.selection = selection
            other.sequenceStep = sequenceStep
            other.nearMisses = nearMisses
            other.status = status
            other.delayMs = delayMs
            other.fault = fault
            other.proxied = proxied
            other.contract = contract
            other.stream = stream
            other.clientGone = clientGone
            other.elapsedMs = elapsedMs
            other.bodyBytes = bodyBytes
            return other
        }
    }

    private var fields: Fields

    /// The fields, copied first when another record shares them.
    private mutating func unique() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    /// The request as received, control parameters removed.
    public var request: StubRequest {
        get {
            switch fields.kept {
            case .packed(let packed, let path): return packed.decoded(path: path)
            case .plain(let request): return request
            }
        }
        set { unique().kept = .plain(newValue) }
    }

    /// The method, without decoding the rest of the request.
    public var method: String {
        switch fields.kept {
        case .packed(let packed, _): return packed.method
        case .plain(let request): return request.method
        }
    }

    /// The path as journaled (a session prefix taken off), without decoding the rest.
    public var path: String {
        switch fields.kept {
        case .packed(let packed, let path): return path ?? packed.path
        case .plain(let request): return request.path
        }
    }

    /// True when the body is already cut to the journal's limit (a packed request keeps only that).
    var bodyIsTrimmed: Bool {
        if case .packed = fields.kept { return true }
        return false
    }

    /// The matched route's path parameters, percent-decoded, in template order.
    public var pathParameters: [(name: String, value: String)] {
        guard let template = route?.template else { return [] }
        return template.parameterNames.map { ($0, template.value(of: $0, in: request.path) ?? "") }
    }
    /// The `X-Stub-Session` it carried.
    public var session: String? {
        get { fields.session }
        set { unique().session = newValue }
    }
    /// The matched route, if any.
    public var routeID: String? {
        get { fields.routeID }
        set { unique().routeID = newValue }
    }
    /// The GraphQL operation named, for a request to a GraphQL endpoint (a batch: the names,
    /// comma-separated).
    public var operation: String? {
        get { fields.operation }
        set { unique().operation = newValue }
    }
    /// The matched route; the parameters are read from its template only when asked for, so
    /// recording a request costs no allocation for them.
    package var route: Route? {
        get { fields.route }
        set { unique().route = newValue }
    }
    /// The variant served, if any.
    public var variant: String? {
        get { fields.variant }
        set { unique().variant = newValue }
    }
    /// Why the variant was chosen: `request` (a control header or parameter), `sequence`,
    /// `override`, `when` (its conditions held) or `default`; nil when no variant was served.
    public var selection: String? { fields.selection?.rawValue }
    /// For a variant chosen by an admin sequence: which step, of how many.
    public var sequenceStep: (step: Int, of: Int)? { fields.sequenceStep }

    /// For a request no route matched: the closest routes of the stubs that answered it, and why
    /// each did not match (as its 404 body gave them).
    package var nearMisses: JSONValue? {
        get { fields.nearMisses }
        set { unique().nearMisses = newValue }
    }

    /// Notes why the variant was chosen, in one write.
    package mutating func chosen(by selection: ResponsePlan.Selection, step: (step: Int, of: Int)?) {
        let f = unique()
        f.selection = selection
        f.sequenceStep = step
    }
    /// The status sent; 0 for faults.
    public var status: Int {
        get { fields.status }
        set { unique().status = newValue }
    }
    /// The delay applied, in milliseconds.
    public var delayMs: Int {
        get { fields.delayMs }
        set { unique().delayMs = newValue }
    }
    /// The fault served, if any.
    public var fault: Fault? {
        get { fields.fault }
        set { unique().fault = newValue }
    }
    /// True when the response came from the upstream (`--proxy-unmatched`).
    public var proxied: Bool {
        get { fields.proxied }
        set { unique().proxied = newValue }
    }
    /// How the request broke its API contract (`serve --openapi`); nil when not checked.
    public var contract: [ContractViolation]? {
        get { fields.contract }
        set { unique().contract = newValue }
    }
    /// For a streamed body: the events sent, and whether the client left before the end.
    public var stream: (eventsSent: Int, clientGone: Bool)? {
        get { fields.stream }
        set { unique().stream = newValue }
    }
    /// True when the client left before its answer was complete: while the request was delayed,
    /// held, hanging or deferred, or before a stream's end.
    public var clientGone: Bool {
        get { fields.clientGone }
        set { unique().clientGone = newValue }
    }
    /// Time from the request's arrival to the response being queued (or the fault).
    public var elapsedMs: Double {
        get { fields.elapsedMs }
        set { unique().elapsedMs = newValue }
    }
    /// The body size received (the journal keeps the first `Limits.journalBodyBytes`).
    public var bodyBytes: Int {
        get { fields.bodyBytes }
        set { unique().bodyBytes = newValue }
    }
    /// Wall-clock time the request arrived.
    public var receivedAt: Date {
        get { fields.receivedAt }
        set { unique().receivedAt = newValue }
    }

    /// Makes a record.
    public init(request: StubRequest, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                fault: Fault?, elapsedMs: Double, bodyBytes: Int, receivedAt: Date = Date()) {
        self.init(kept: .plain(request), session: session, routeID: routeID, variant: variant, status: status, delayMs: delayMs,
                  fault: fault, elapsedMs: elapsedMs, bodyBytes: bodyBytes, receivedAt: receivedAt)
    }

    /// A record of a packed request, journaled under `path` when given (a session prefix taken off).
    package init(packed: PackedRequest, path: String?, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                 fault: Fault?, elapsedMs: Double, bodyBytes: Int) {
        self.init(kept: .packed(packed, path: path), session: session, routeID: routeID, variant: variant, status: status,
                  delayMs: delayMs, fault: fault, elapsedMs: elapsedMs, bodyBytes: bodyBytes, receivedAt: Date())
    }

    private init(kept: Kept, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                 fault: Fault?, elapsedMs: Double, bodyBytes: Int, receivedAt: Date) {
        let fields = Fields(kept: kept, receivedAt: receivedAt)
        fields.session = session
        fields.routeID = routeID
        fields.variant = variant
        fields.status = status
        fields.delayMs = delayMs
        fields.fault = fault
        fields.elapsedMs = elapsedMs
        fields.bodyBytes = bodyBytes
        self.fields = fields
    }
}
