internal import CNGHTTP2
import StubCore
import StubSystem
import StubTransport

/// The lifecycle's actions carried out on an HTTP/2 stream: submit a response, wait on a ticket,
/// reset the stream. A fault never touches the connection the stream shares with others: what
/// HTTP/1.1 does to its socket (a reset, a close, raw bytes), HTTP/2 does to the one stream.
extension H2Stream {
    func execute(_ action: LifecycleAction) {
        switch action {
        case .proceed:
            return
        case .respond(let status, .prepared(let key)):
            guard let variant = catalog?.variants[key] else { return reset(NGHTTP2_INTERNAL_ERROR) }
            respond(status: status, headers: variant.headers, body: .bytes(variant.body, sent: 0), length: variant.body.count)
        case .respond(let status, .bytes(let bytes, let headers)):
            respond(status: status, headers: headers, body: .bytes(bytes, sent: 0), length: bytes.count)
            // `goaway`: this stream is the last the connection takes.
            if life.http2Effect == .goAwayAfterAnswer { connection.sayGoingAway(lastStream: id) }
        case .respond(let status, .pulled(let length, let headers)):
            respond(status: status, headers: headers, body: .pulled(sent: 0), length: length)
        case .suspend(let until):
            life.suspended(ticket: wait(until: until), env: environment)
        case .startDeferred(let work, let box):
            let ticket = wait(until: .max)
            life.suspended(ticket: ticket, env: environment)
            let engine = connection.engine, jobs = engine.services.jobs
            if !jobs.start(work, done: { reply in
                box.deliver(reply)
                engine.resumeEarly(ticket)
            }) {
                box.deliver(jobs.busyReply(work))
                engine.resumeEarly(ticket)
            }
        case .suspendFor(let until, let start):
            let ticket = wait(until: until)
            life.suspended(ticket: ticket, env: environment)
            let engine = connection.engine
            start { engine.resumeEarly(ticket) }
        case .writeRaw:
            // `garbage`: bytes that are no HTTP/2 at all would end every stream of the
            // connection; this stream alone ends as malformed.
            reset(NGHTTP2_PROTOCOL_ERROR)
        case .upgrade:
            // No WebSocket over HTTP/2 (no SETTINGS_ENABLE_CONNECT_PROTOCOL is sent): nghttp2
            // refuses a request with `Upgrade` before it gets here.
            environment.conversations?.unreserve()
            reset(NGHTTP2_PROTOCOL_ERROR)
        case .reset:
            switch life.http2Effect {
            case .goAwayAbrupt?: connection.terminate(NGHTTP2_INTERNAL_ERROR)
            case .resetCode(let code)?: reset(nghttp2_error_code(rawValue: code))
            default: reset(NGHTTP2_INTERNAL_ERROR)
            }
        case .close:
            reset(NGHTTP2_CANCEL)
        }
    }

    /// Waits on a new ticket until `until` (`.max`: an early wake only).
    private func wait(until: UInt64) -> UInt64 {
        let made = connection.engine.ticket(for: .stream(connection: connection.id, stream: id), until: until)
        ticket = made
        return made
    }

    /// Ends this stream alone with RST_STREAM(`code`).
    func reset(_ code: nghttp2_error_code) {
        guard let session = connection.session else { return }
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), id, code.rawValue)
    }

    /// Submits the response head, and the body through `h2ReadBody` unless it has none (HEAD,
    /// 204, 304). Header names go lower case and connection-specific ones are left out
    /// (RFC 9113 §8.2); a known length is sent as `content-length`.
    private func respond(status: Int, headers: [HTTPHeader], body: Outgoing, length: Int?) {
        guard let session = connection.session else { return }
        outgoing = body
        var fields: [(name: [UInt8], value: [UInt8])] = [(Array(":status".utf8), Array(String(status).utf8))]
        var hasLength = false
        for header in headers {
            let name = header.name.lowercased()
            if H2Stream.connectionHeaders.contains(name) { continue }
            if name == "content-length" { hasLength = true }
            fields.append((Array(name.utf8), Array(header.value.utf8)))
        }
        let bodyless = method == "HEAD" || status == 204 || status == 304 || status < 200
        if !hasLength, let length, status != 204, status >= 200 { fields.append((Array("content-length".utf8), Array(String(length).utf8))) }
        var provider = nghttp2_data_provider()
        provider.read_callback = h2ReadBody
        if bodyless { bodySent = true }
        let submitted = H2Stream.withFields(fields) { nv in
            bodyless ? nghttp2_submit_response(session, id, nv.baseAddress, nv.count, nil)
                : nghttp2_submit_response(session, id, nv.baseAddress, nv.count, &provider)
        }
        if submitted != 0 { reset(NGHTTP2_INTERNAL_ERROR) }
    }

    /// Headers HTTP/2 forbids in a message (RFC 9113 §8.2.2).
    static let connectionHeaders: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]

    /// Calls `body` with `fields` as nghttp2's name-value pairs, valid for the call (nghttp2 copies them).
    private static func withFields<R>(_ fields: [(name: [UInt8], value: [UInt8])], _ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> R) -> R {
        var packed: [UInt8] = []
        packed.reserveCapacity(fields.reduce(0) { $0 + $1.name.count + $1.value.count })
        for field in fields {
            packed.append(contentsOf: field.name)
            packed.append(contentsOf: field.value)
        }
        return packed.withUnsafeMutableBufferPointer { bytes in
            var at = 0
            var nv = fields.map { field -> nghttp2_nv in
                let name = bytes.baseAddress! + at
                let value = name + field.name.count
                at += field.name.count + field.value.count
                return nghttp2_nv(name: name, value: value, namelen: field.name.count, valuelen: field.value.count,
                                  flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            return nv.withUnsafeMutableBufferPointer { body($0) }
        }
    }

    /// One read of the response body: bytes copied, or a wait (`NGHTTP2_ERR_DEFERRED`, resumed
    /// on a ticket), or the end, or a cut (the stream is reset).
    func read(into buffer: UnsafeMutableRawBufferPointer, flags: UnsafeMutablePointer<UInt32>) -> Int {
        let eof = UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
        switch outgoing {
        case .bytes(let bytes, let sent):
            let count = min(buffer.count, bytes.count - sent)
            if count > 0 { bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + sent, byteCount: count) } }
            outgoing = .bytes(bytes, sent: sent + count)
            if sent + count == bytes.count {
                flags.pointee |= eof
                bodySent = true
            }
            return count
        case .pulled(let sent):
            let result = life.pull(at: sent, into: PullBuffer(buffer), now: connection.now, stopping: connection.engine.stopping, clientGone: false)
            switch result {
            case .copied(0):
                // Nothing now but more to come: asked again shortly rather than sent an empty frame.
                _ = wait(until: connection.now &+ 1_000_000)
                waitingForData = true
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            case .copied(let count):
                outgoing = .pulled(sent: sent + count)
                return count
            case .end:
                flags.pointee |= eof
                bodySent = true
                return 0
            case .wait(let until):
                // Reported as for a suspension: a live journal parks its reader with the feed, which wakes it early.
                life.suspended(ticket: wait(until: until), env: environment)
                waitingForData = true
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            case .abort, .reset:
                guard case .resetCode(let code)? = life.http2Effect else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
                // `rst-stream-after`: its own code, not the INTERNAL_ERROR a failed read gives.
                reset(nghttp2_error_code(rawValue: code))
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        case nil:
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
    }
}
