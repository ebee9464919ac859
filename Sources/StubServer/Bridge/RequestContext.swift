import StubCore

/// Per-request state kept in libmicrohttpd's `con_cls` from the first handler call to completion.
final class RequestContext {
    enum Phase {
        /// Headers (and maybe body) are arriving.
        case receiving
        /// Suspended until the delay is up, then the response is queued.
        case delayed
        /// Suspended for a `hang` fault; on resume the connection is closed.
        case hanging
    }

    /// Body bytes kept for `when` conditions and the journal; more is read and dropped.
    static let bodyLimit = 1 << 20

    let startNs: UInt64
    var phase = Phase.receiving
    var body: [UInt8] = []
    var bodyBytesSeen = 0
    var request: StubRequest?
    var plan: ResponsePlan?
    var prepared: PreparedCatalog?
    var session: String?
    var delayMs = 0
    /// True between MHD_suspend_connection and the handler's next call (or completion).
    var isSuspended = false

    init(startNs: UInt64) {
        self.startNs = startNs
    }

    func appendBody(_ data: UnsafePointer<CChar>, count: Int) {
        bodyBytesSeen += count
        let room = RequestContext.bodyLimit - body.count
        guard room > 0 else { return }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: min(room, count)))
        }
    }
}
