import StubCore
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request as libmicrohttpd delivers it, kept in its `con_cls` from the request line to
/// completion: the head's lookups, the body as it arrives, and the request's lifecycle, whose
/// phases carry the rest. It is also the request the core reads (`RequestContext+RequestHead.swift`):
/// one allocation per request holds all of it.
final class RequestContext: LifecycleRequest {
    let startNs: UInt64
    /// Where the request is in its life, and what it waits for (see `RequestLifecycle`).
    /// Only the connection's own polling thread touches a request, one call at a time. (Turning
    /// the run-time exclusivity checks off here saved 1.4% of instructions but under 2% of
    /// server CPU in paired runs, bench/README.md: they stay on.)
    var life = RequestLifecycle()
    /// False until the first access-handler call, which checks the head before any body is read.
    var headChecked = false
    /// True once the whole request arrived and its lifecycle started.
    var started = false
    /// The body as received.
    var body: [UInt8] = []
    var bodyBytesSeen = 0
    /// The largest body kept (`--max-body`); a larger one is answered with 413.
    let maxBody: Int
    /// What all requests' bodies may hold together; nil in tests that do not count.
    let budget: BodyBudget?
    /// Body bytes taken from `budget` and not yet given back.
    private var budgeted = 0
    /// True once the body could not be kept within `budget`: answered with 503.
    private(set) var overBudget = false
    /// The connection's entry in `ConnectionAdmission`, for its head deadline.
    let admitted: ConnectionAdmission.Connection?
    /// True on a TLS connection.
    let isSecure: Bool
    /// Set when the request is complete, before the lifecycle starts.
    private(set) var connection: MHDConnection?
    private(set) var method = "GET"
    /// The path as sent, without the query (decoded segment by segment in the core).
    let path: String
    /// The length of the request target as sent (path and query), for the head-size check.
    var targetLength = 0
    /// True once a target over the largest head was answered as the request line arrived.
    var refusedAtRequestLine = false
    /// The whole request packed in one buffer before planning, when it will be recorded (see
    /// `takeCopy`); the journal keeps this very copy.
    var copy: PackedRequest?
    /// Whether a header or query name has a control's prefix, once asked (see `mayCarryControls`).
    var controlsSeen: Bool?
    /// Whether a header name has the control prefix, learnt while checking the head.
    var controlHeaderSeen = false
    /// Query parameters and headers, counted while checking the head: room for the packed copy.
    var pairCount = 0
    /// The catalog snapshot (with its prepared responses) the request keeps to its end.
    var prepared: PreparedCatalog?
    /// Set through `SuspendedConnections` only.
    var suspension = SuspensionMark()
    /// The WebSocket hand-over of a 101, kept to the request's end (`UpgradeTarget`).
    var upgrade: UpgradeTarget?
    /// True for an HTTP/1.0 request, noted while checking the head.
    var isHTTP10 = false
    /// True once a fault's raw bytes were handed to `RawWriter` (the connection's socket is then
    /// cancelled there before it may close); plain requests never reach the writer.
    var rawWriteHandedOver = false

    init(startNs: UInt64, path: String, maxBody: Int, admitted: ConnectionAdmission.Connection?, secure: Bool = false, budget: BodyBudget? = nil) {
        self.startNs = startNs
        isSecure = secure
        self.path = path
        self.maxBody = maxBody
        self.admitted = admitted
        self.budget = budget
    }

    deinit { budget?.give(budgeted) }

    /// The path of a request target as sent: up to the `?`, nothing decoded.
    static func path(ofTarget target: UnsafePointer<CChar>) -> String {
        let length = strcspn(target, "?")
        return target.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Records the method once the whole request has arrived.
    func received(on connection: MHDConnection, method: String) {
        self.connection = connection
        self.method = method
    }

    /// True once more body arrived than `maxBody`.
    var bodyTooLarge: Bool { bodyBytesSeen > maxBody }

    /// Keeps the body up to `maxBody` for `when` conditions, templates and the journal; a longer
    /// body is counted, dropped and answered with 413 (see `bodyIsRunaway` for the bound).
    func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        bodyBytesSeen += bytes.count
        if !bodyTooLarge && !overBudget, let budget, !budget.take(bytes.count) { overBudget = true }
        guard !bodyTooLarge && !overBudget else {
            if !body.isEmpty { body = [] }
            budget?.give(budgeted)
            budgeted = 0
            return
        }
        if budget != nil { budgeted += bytes.count }
        body.append(contentsOf: bytes)
    }

    /// Makes room for the start of a body of the declared length. At most 64 KiB: a client could
    /// declare a length and never send it, and the array grows by doubling past that anyway.
    func expectBody(length: String?) {
        guard let length, let bytes = Int(length), bytes > 0, bytes <= maxBody else { return }
        body.reserveCapacity(min(bytes, 64 * 1024))
    }

    /// True once a body over the limit has gone on past what is drained (`RequestFraming.drainedPast`):
    /// it is not read to its end (a client could send forever); the connection closes unanswered.
    var bodyIsRunaway: Bool { bodyBytesSeen > maxBody &+ RequestFraming.drainedPast(maxBody) }

    /// Once the plan is made only the journal reads the body: keep what it keeps, free the rest
    /// (a large upload held through a delay would otherwise hold its memory to the end).
    func releaseBody(keeping bytes: Int) {
        // Most requests have no body: one comparison and done.
        guard body.count > bytes else { return }
        body = Array(body.prefix(bytes))
        if budget != nil {
            budget?.give(budgeted - body.count)
            budgeted = body.count
        }
    }
}
