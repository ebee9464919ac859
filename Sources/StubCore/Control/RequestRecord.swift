#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to one request: the access log line and the journal entry are made from it.
///
/// A record keeps three things: the request (packed as it arrived and decoded when read, or as
/// given), the plan it was answered by, and how it ended. What the record says about the route,
/// the variant and why it was chosen is read from the plan, one reference: recording a request
/// copies no field.
public struct RequestRecord: Sendable {
    /// The request as kept: packed as it arrived (decoded when read), or as given.
    private enum Kept: Sendable {
        case packed(PackedRequest, path: String?)
        indirect case plain(StubRequest)
    }

    /// How a planned request ended, for its record.
    struct Outcome: Sendable {
        var status: Int
        var fault: Fault?
        var elapsedMs: Double
        var bodyBytes: Int
        var stream: (eventsSent: Int, clientGone: Bool)?
        var clientGone: Bool
        /// When the request arrived.
        var receivedAt: Date
        /// The HTTP version it came in.
        var httpVersion: HTTPVersion = .http11
    }

    private var kept: Kept
    /// The plan, without what it sent (see `ResponsePlan.keptByRecord`).
    private var plan: ResponsePlan
    private var outcome: Outcome

    /// What dropping this record from the journal writes to (see `JournalDropHint`).
    var dropHint: JournalDropHint {
        var hint = plan.dropHint
        if case .packed(let packed, _) = kept { hint.request = packed.span }
        return hint
    }

    /// True when credential headers are read back verbatim (`--journal-credentials`); otherwise
    /// `request` gives them redacted (`CredentialRedaction`). Kept as sent either way, and
    /// redacted when read: every reader (admin API, dashboard, fleet store, in-process journal)
    /// goes through `request`, and the hot path copies no header.
    public var credentialsKept = false

    /// The request as received, control parameters removed; credentials redacted unless
    /// `credentialsKept`.
    public var request: StubRequest {
        get {
            let request: StubRequest
            switch kept {
            case .packed(let packed, let path): request = packed.decoded(path: path)
            case .plain(let plain): request = plain
            }
            return credentialsKept ? request : CredentialRedaction.redacted(request)
        }
        set { kept = .plain(newValue) }
    }

    /// The method, without decoding the rest of the request.
    public var method: String {
        switch kept {
        case .packed(let packed, _): return packed.method
        case .plain(let request): return request.method
        }
    }

    /// The path as journaled (a session prefix taken off), without decoding the rest.
    public var path: String {
        switch kept {
        case .packed(let packed, let path): return path ?? packed.path
        case .plain(let request): return request.path
        }
    }

    /// True when the body is already cut to the journal's limit (a packed request keeps only that).
    var bodyIsTrimmed: Bool {
        if case .packed = kept { return true }
        return false
    }

    /// The matched route's path parameters, percent-decoded, in template order.
    public var pathParameters: [(name: String, value: String)] {
        guard let template = route?.template else { return [] }
        return template.parameterNames.map { ($0, template.value(of: $0, in: request.path) ?? "") }
    }
    /// The `X-Stub-Session` it carried.
    public var session: String? {
        get { plan.session }
        set { plan.session = newValue }
    }
    /// The matched route, if any.
    public var routeID: String? {
        get { plan.routeID }
        set { plan.routeID = newValue }
    }
    /// The GraphQL operation named, for a request to a GraphQL endpoint (a batch: the names,
    /// comma-separated).
    public var operation: String? {
        get { plan.operation }
        set { plan.operation = newValue }
    }
    /// The matched route; the parameters are read from its template only when asked for, so
    /// recording a request costs no allocation for them.
    package var route: Route? {
        get { plan.route }
        set { plan.route = newValue }
    }
    /// The variant served, if any.
    public var variant: String? {
        get { plan.variantName }
        set { plan.variantName = newValue }
    }
    /// Why the variant was chosen: `request` (a control header or parameter), `sequence`,
    /// `override`, `when` (its conditions held) or `default`; nil when no variant was served.
    public var selection: String? { plan.selection?.rawValue }
    /// What the request changed in state and collections (`state token`, `app/todos 4 created`).
    public var stateChanges: [String] { plan.memoryChanges ?? [] }
    /// For a variant chosen by an admin sequence: which step, of how many.
    public var sequenceStep: (step: Int, of: Int)? { plan.sequenceStep }

    /// For a request no route matched: the closest routes of the stubs that answered it, and why
    /// each did not match (as its 404 body gave them).
    package var nearMisses: JSONValue? {
        get { plan.nearMisses }
        set { plan.nearMisses = newValue }
    }

    /// Notes why the variant was chosen, in one write.
    package mutating func chosen(by selection: ResponsePlan.Selection, step: (step: Int, of: Int)?) {
        plan.selection = selection
        plan.sequenceStep = step
    }
    /// The status sent; 0 when no head was (a fault other than `truncate`, a client gone first).
    public var status: Int {
        get { outcome.status }
        set { outcome.status = newValue }
    }
    /// The delay applied, in milliseconds.
    public var delayMs: Int {
        get { plan.delayMs }
        set { plan.delayMs = newValue }
    }
    /// The fault served, if any.
    public var fault: Fault? {
        get { outcome.fault }
        set { outcome.fault = newValue }
    }
    /// True when the response came from the upstream (`--proxy-unmatched`).
    public var proxied: Bool {
        get { plan.proxied }
        set { plan.proxied = newValue }
    }
    /// How the request broke its API contract (`serve --openapi`); nil when not checked.
    public var contract: [ContractViolation]? {
        get { plan.contract }
        set { plan.contract = newValue }
    }
    /// For a streamed body: the events sent, and whether the client left before the end.
    public var stream: (eventsSent: Int, clientGone: Bool)? {
        get { outcome.stream }
        set { outcome.stream = newValue }
    }
    /// True when the client left before its answer was complete: while the request was delayed,
    /// held, hanging or deferred, or before a stream's end.
    public var clientGone: Bool {
        get { outcome.clientGone }
        set { outcome.clientGone = newValue }
    }
    /// Time from the request's arrival to the response being queued (or the fault).
    public var elapsedMs: Double {
        get { outcome.elapsedMs }
        set { outcome.elapsedMs = newValue }
    }
    /// The body size received (the journal keeps the first `Limits.journalBodyBytes`).
    public var bodyBytes: Int {
        get { outcome.bodyBytes }
        set { outcome.bodyBytes = newValue }
    }
    /// Wall-clock time the request arrived.
    public var receivedAt: Date {
        get { outcome.receivedAt }
        set { outcome.receivedAt = newValue }
    }
    /// The HTTP version the request came in.
    public var httpVersion: HTTPVersion {
        get { outcome.httpVersion }
        set { outcome.httpVersion = newValue }
    }

    /// Makes a record.
    public init(request: StubRequest, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                fault: Fault?, elapsedMs: Double, bodyBytes: Int, receivedAt: Date = Date()) {
        var plan = ResponsePlan(response: .reply(Reply(status: status)), status: status)
        if let session { plan.session = session }
        if let routeID { plan.routeID = routeID }
        if let variant { plan.variantName = variant }
        if delayMs != 0 { plan.delayMs = delayMs }
        kept = .plain(request)
        self.plan = plan
        outcome = Outcome(status: status, fault: fault, elapsedMs: elapsedMs, bodyBytes: bodyBytes, stream: nil, clientGone: false,
                          receivedAt: receivedAt)
    }

    /// The record of a request answered by `plan`, from its packed copy.
    init(packed: PackedRequest, plan: ResponsePlan, outcome: Outcome) {
        self.init(kept: .packed(packed, path: plan.scopedPath), plan: plan, outcome: outcome)
    }

    /// The record of a request answered by `plan`, from a snapshot (the journal's path already in it).
    init(snapshot: StubRequest, plan: ResponsePlan, outcome: Outcome) {
        self.init(kept: .plain(snapshot), plan: plan, outcome: outcome)
    }

    /// This runs for every request the journal or the log keeps: the plan is kept as it is (one
    /// reference), nothing is copied field by field.
    private init(kept: Kept, plan: ResponsePlan, outcome: Outcome) {
        self.kept = kept
        self.plan = plan.keptByRecord
        var outcome = outcome
        outcome.clientGone = outcome.clientGone || outcome.stream?.clientGone == true
        self.outcome = outcome
    }
}
