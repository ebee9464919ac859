import StubCore
import StubTransport

/// One request on an HTTP/2 connection, from its HEADERS to its stream's close: the head and body
/// as they arrive, then the request the core reads, and its lifecycle (`RequestLifecycle`), the
/// same one a libmicrohttpd request runs. Only the engine's thread touches it.
final class H2Stream: LifecycleRequest {
    let id: Int32
    unowned let connection: H2Connection
    let startNs: UInt64
    var life = RequestLifecycle()
    /// The request as the core reads it, made when the whole request arrived.
    private(set) var request = StubRequest(method: "GET", path: "/", scheme: .https)
    private var authority: String?
    private var target = ""
    /// The decoded head's size as HTTP/2 counts it (name, value and 32 for each field).
    private(set) var headBytes = 0
    private(set) var bodyBytesSeen = 0
    /// The catalog the request was planned with, kept to its end.
    var catalog: H2Catalog?
    /// The ticket of the wait the stream is in, and what it waits for.
    var ticket: UInt64?
    var waitingForData = false
    /// The response's body as the read callback sends it, once submitted.
    var outgoing: Outgoing?
    /// True once the request's END_STREAM came and its life started.
    private(set) var started = false
    /// True once the last body byte was handed to nghttp2.
    var bodySent = false
    /// Since when the answer has had no flow-control window to go out in (see `resetStalledStreams`).
    var stalledSince: UInt64?

    /// True while an answer's body waits to go out (not while it waits for its own next piece).
    var hasUnsentBody: Bool { outgoing != nil && !bodySent && !waitingForData }

    /// A response body being sent.
    enum Outgoing {
        /// These bytes, `sent` of them already.
        case bytes([UInt8], sent: Int)
        /// Pulled from the lifecycle, `sent` bytes so far.
        case pulled(sent: Int)
    }

    init(id: Int32, connection: H2Connection, startNs: UInt64) {
        self.id = id
        self.connection = connection
        self.startNs = startNs
    }

    var environment: LifecycleEnvironment { connection.engine.services.environment }
    var limits: H2Limits { connection.engine.limits }

    /// Takes one header field; false when the head passed four times the largest served (an
    /// HPACK bomb: the connection ends). Past the largest served, fields are counted, not kept.
    func addHeader(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        headBytes += name.count + value.count + 32
        guard headBytes <= limits.maxHeadBytes else { return headBytes <= 4 * limits.maxHeadBytes }
        let text = String(decoding: value, as: UTF8.self)
        guard name.first == UInt8(ascii: ":") else {
            request.headers.append((String(decoding: name, as: UTF8.self), text))
            return true
        }
        switch String(decoding: name, as: UTF8.self) {
        case ":method": request.method = RequestMethod.normalized(text)
        case ":path": target = text
        case ":authority": authority = text
        default: break
        }
        return true
    }

    /// A piece of the body: kept up to `--max-body`, counted past it (answered with 413).
    func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        bodyBytesSeen += bytes.count
        connection.engine.services.admission.bodyProgress(connection.admitted, count: bytes.count)
        if bodyBytesSeen <= limits.maxBodyBytes { request.body.append(contentsOf: bytes) } else if !request.body.isEmpty { request.body = [] }
    }

    /// The whole request arrived: its life starts.
    func requestComplete() {
        guard !started else { return }
        started = true
        let services = connection.engine.services
        services.admission.requestReceived(connection.admitted, now: connection.now)
        finishHead()
        if headBytes > limits.maxHeadBytes {
            let reply = RequestFraming.headTooLarge(size: headBytes, target: target.utf8.count, limit: limits.maxHeadBytes).reply
            return execute(life.refuse(reply))
        }
        if bodyBytesSeen > limits.maxBodyBytes {
            return execute(life.refuse(RequestFraming.tooLarge(maxBody: limits.maxBodyBytes, received: String(bodyBytesSeen)).reply))
        }
        let catalog = services.catalog()
        self.catalog = catalog
        execute(life.requestComplete(self, catalog: catalog.catalog, env: environment, now: connection.now))
    }

    /// Splits the target into path and query, and gives the core a `Host` from `:authority` and
    /// one `Cookie` (HTTP/2 may split it into several fields, RFC 9113 §8.2.3).
    private func finishHead() {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        request.path = parts.first.map(String.init) ?? "/"
        if parts.count > 1 { request.query = FormDecoding.pairs(String(parts[1])) }
        if let authority, request.header("Host") == nil { request.headers.insert(("Host", authority), at: 0) }
        let cookies = request.headers.filter { $0.name == "cookie" }
        if cookies.count > 1 {
            request.headers.removeAll { $0.name == "cookie" }
            request.headers.append(("cookie", cookies.map(\.value).joined(separator: "; ")))
        }
    }

    /// The stream's wait ended (its time came, or an early wake), or the server is stopping.
    func wake(stopping: Bool) {
        if waitingForData {
            waitingForData = false
            connection.resumeData(id)
            return
        }
        guard let catalog else { return }
        execute(life.resumed(self, catalog: catalog.catalog, env: environment, now: connection.now, stopping: stopping, clientGone: false))
    }

    /// The stream closed (answered, reset, or the connection ended): the lifecycle hears the end.
    func ended() {
        if let ticket { connection.engine.waits[ticket] = nil }
        ticket = nil
        if case .pulled = outgoing { life.responseFreed(self, env: environment, now: connection.now) }
        if started { life.connectionEnded(self, env: environment, now: connection.now) }
    }
}

/// The request as the core reads it.
extension H2Stream: RequestHead {
    var method: String { request.method }
    var path: String { request.path }
    var body: [UInt8] { request.body }
    var scheme: RequestScheme { .https }
    var isSecure: Bool { true }
    var httpVersion: HTTPVersion { .http2 }
    func header(_ name: String) -> String? { request.header(name) }
    func queryValue(_ name: String) -> String? { request.queryValue(name) }
    func queryValues(_ name: String) -> [String] { request.queryValues(name) }
    func allQueryParameters() -> [(name: String, value: String)] { request.query }
    func allHeaders() -> [(name: String, value: String)] { request.headers }
    var mayCarryControls: Bool { request.mayCarryControls }
    /// Nothing to copy: the request is already whole, in Swift values.
    func takeCopy() {}
    func releaseBody(keeping bytes: Int) {
        if request.body.count > bytes { request.body = Array(request.body.prefix(bytes)) }
    }
}
