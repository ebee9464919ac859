#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to one request: the access log line and the journal entry are made from it.
public struct RequestRecord: Sendable {
    /// The request as kept: packed as it arrived (decoded when read), or as given.
    private enum Storage: Sendable {
        case packed(PackedRequest, path: String?)
        case plain(StubRequest)
    }

    private var storage: Storage

    /// The request as received, control parameters removed.
    public var request: StubRequest {
        get {
            switch storage {
            case .packed(let packed, let path): return packed.decoded(path: path)
            case .plain(let request): return request
            }
        }
        set { storage = .plain(newValue) }
    }

    /// The method, without decoding the rest of the request.
    public var method: String {
        switch storage {
        case .packed(let packed, _): return packed.method
        case .plain(let request): return request.method
        }
    }

    /// The path as journaled (a session prefix taken off), without decoding the rest.
    public var path: String {
        switch storage {
        case .packed(let packed, let path): return path ?? packed.path
        case .plain(let request): return request.path
        }
    }

    /// True when the body is already cut to the journal's limit (a packed request keeps only that).
    var bodyIsTrimmed: Bool {
        if case .packed = storage { return true }
        return false
    }
    /// The `X-Stub-Session` it carried.
    public var session: String?
    /// The matched route, if any.
    public var routeID: String?
    /// The matched route; the parameters are read from its template only when asked for, so
    /// recording a request costs no allocation for them.
    package var route: Route?

    /// The matched route's path parameters, percent-decoded, in template order.
    public var pathParameters: [(name: String, value: String)] {
        guard let template = route?.template else { return [] }
        return template.parameterNames.map { ($0, template.value(of: $0, in: request.path) ?? "") }
    }
    /// The variant served, if any.
    public var variant: String?
    /// The status sent; 0 for faults.
    public var status: Int
    /// The delay applied, in milliseconds.
    public var delayMs: Int
    /// The fault served, if any.
    public var fault: Fault?
    /// True when the response came from the upstream (`--proxy-unmatched`).
    public var proxied = false
    /// How the request broke its API contract (`serve --openapi`); nil when not checked.
    public var contract: [ContractViolation]?
    /// For a streamed body: the events sent, and whether the client left before the end.
    public var stream: (eventsSent: Int, clientGone: Bool)?
    /// True when the client left before its answer was complete: while the request was delayed,
    /// held, hanging or deferred, or before a stream's end.
    public var clientGone = false
    /// Time from the request's arrival to the response being queued (or the fault).
    public var elapsedMs: Double
    /// The body size received (the journal keeps the first `Limits.journalBodyBytes`).
    public var bodyBytes: Int

    /// Wall-clock time the request arrived.
    public var receivedAt: Date

    /// Makes a record.
    public init(request: StubRequest, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                fault: Fault?, elapsedMs: Double, bodyBytes: Int, receivedAt: Date = Date()) {
        self.init(storage: .plain(request), session: session, routeID: routeID, variant: variant, status: status, delayMs: delayMs,
                  fault: fault, elapsedMs: elapsedMs, bodyBytes: bodyBytes, receivedAt: receivedAt)
    }

    /// A record of a packed request, journaled under `path` when given (a session prefix taken off).
    package init(packed: PackedRequest, path: String?, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                 fault: Fault?, elapsedMs: Double, bodyBytes: Int) {
        self.init(storage: .packed(packed, path: path), session: session, routeID: routeID, variant: variant, status: status,
                  delayMs: delayMs, fault: fault, elapsedMs: elapsedMs, bodyBytes: bodyBytes, receivedAt: Date())
    }

    private init(storage: Storage, session: String?, routeID: String?, variant: String?, status: Int, delayMs: Int,
                 fault: Fault?, elapsedMs: Double, bodyBytes: Int, receivedAt: Date) {
        self.storage = storage
        self.session = session
        self.routeID = routeID
        self.variant = variant
        self.status = status
        self.delayMs = delayMs
        self.fault = fault
        self.elapsedMs = elapsedMs
        self.bodyBytes = bodyBytes
        self.receivedAt = receivedAt
    }
}
