import StubCore

/// Per-request state kept in libmicrohttpd's `con_cls` from the first handler call to completion.
/// It is also the request the core reads (`RequestContext+RequestHead.swift`): one allocation per
/// request holds both.
final class RequestContext {
    enum Phase {
        /// Headers (and maybe body) are arriving.
        case receiving
        /// Suspended until the delay is up, then the response is queued.
        case delayed
        /// Suspended for a `hang` fault; on resume the connection is closed.
        case hanging
        /// Suspended while a background thread makes the reply (a reload).
        case deferred
        /// The response is queued (a throttled body may still be sending).
        case answered
    }

    let startNs: UInt64
    var phase = Phase.receiving
    var body: [UInt8] = []
    var bodyBytesSeen = 0
    /// Set when the request is complete, before the bridge sees it.
    private(set) var connection: MHDConnection?
    private(set) var method = "GET"
    private(set) var path = "/"
    /// The whole request, copied before planning when it will be recorded (see `takeCopy`).
    var copy: StubRequest?
    /// Whether a header or query name has a control's prefix, once asked (see `mayCarryControls`).
    var controlsSeen: Bool?
    var plan: ResponsePlan?
    var prepared: PreparedCatalog?
    /// Set through `SuspendedConnections` only.
    var suspension = SuspensionMark()
    /// Where a background thread leaves a deferred reply before resuming the connection; made
    /// only for deferred replies, so a plain request allocates no lock.
    var deferredReply: Locked<Reply?>?

    init(startNs: UInt64) {
        self.startNs = startNs
    }

    /// Records the request line once the whole request has arrived.
    func received(on connection: MHDConnection, method: String, path: String) {
        self.connection = connection
        self.method = RequestMethod.normalized(method)
        self.path = path
    }

    /// Keeps up to `Limits.requestBodyBytes` of the body for `when` conditions and the journal.
    func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        bodyBytesSeen += bytes.count
        let room = Limits.requestBodyBytes - body.count
        guard room > 0 else { return }
        body.append(contentsOf: bytes.prefix(room))
    }
}
