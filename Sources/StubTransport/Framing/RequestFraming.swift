import StubCore

/// What libmicrohttpd lets through in a request head and a server behind a proxy must not:
/// checked once per request, in one pass over the headers, on the first access-handler call
/// (before any body is read). The library itself answers an invalid Content-Length and heads over
/// its connection memory, and 1.0 (at the discipline level `MHDLibrary` asks for) also folded
/// lines, a missing Host, bad header bytes and codings other than chunked; the rest is here, so
/// each check holds on both series. (A NUL in a header value is not seen on 0.9.75: it cuts the
/// value at it.) A request it rejects gets one JSON error and the connection closes, so bytes
/// after it are never read as another request.
package struct RequestFraming {
    /// Why a request is refused.
    package struct Rejection: Equatable {
        package let status: Int
        package let message: String
        package let details: [(key: String, value: String)]

        package init(status: Int, message: String, details: [(key: String, value: String)]) {
            self.status = status
            self.message = message
            self.details = details
        }

        package static func == (a: Rejection, b: Rejection) -> Bool {
            a.status == b.status && a.message == b.message && a.details.map(\.key) == b.details.map(\.key)
                && a.details.map(\.value) == b.details.map(\.value)
        }

        /// The reply sent for it; the connection closes after it.
        package var reply: Reply {
            .error(status, message, details.map { ($0.key, .string($0.value)) }, headers: [HTTPHeader("Connection", "close")])
        }
    }

    private(set) var hosts = 0
    package private(set) var contentLength: String?
    private var conflictingLengths = false
    private var transferEncodings = 0
    private var chunked = false
    private var badName: String?
    private var badValue: String?
    private var folded: String?
    /// Whether a header name starts with `X-Stub-` (found in the same pass, for the controls).
    package private(set) var controlHeader = false
    /// Query parameters and headers seen, counted in the same pass: the packed copy's room.
    package private(set) var pairs = 0

    /// Nothing seen yet.
    package init() {}

    /// True when a body follows the head (a length above 0, or chunked).
    package var expectsBody: Bool { transferEncodings > 0 || (contentLength.flatMap { UInt64($0) } ?? 0) > 0 }

    /// Counts a query parameter (the head's checks are on headers only).
    package mutating func countQueryPair() { pairs += 1 }

    /// Notes that the transport found a folded line in this header (where the library cannot be
    /// asked to refuse one itself, see `MHDLegacyFolding`).
    package mutating func foldedLine(in name: UnsafeBufferPointer<UInt8>) {
        if folded == nil { folded = String(decoding: name, as: UTF8.self) }
    }

    /// Takes one header as received.
    package mutating func add(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        pairs += 1
        if !controlHeader && ControlNames.isControlHeader(name) { controlHeader = true }
        if badName == nil && !RequestFraming.isToken(name) { badName = String(decoding: name, as: UTF8.self) }
        if badValue == nil && !RequestFraming.isFieldValue(value) { badValue = String(decoding: name, as: UTF8.self) }
        if RequestFraming.equalsIgnoringCase(name, "host") { hosts += 1 }
        if RequestFraming.equalsIgnoringCase(name, "content-length") {
            let text = String(decoding: value, as: UTF8.self)
            if let first = contentLength, first != text { conflictingLengths = true }
            if contentLength == nil { contentLength = text }
        }
        if RequestFraming.equalsIgnoringCase(name, "transfer-encoding") {
            transferEncodings += 1
            chunked = RequestFraming.equalsIgnoringCase(value, "chunked")
        }
    }

    /// The first reason to refuse the request, or nil. `http10` waives the Host requirement;
    /// `maxBody` is the largest body accepted. A declared larger one is refused before it is sent
    /// when `waitsForGoAhead` (`Expect: 100-continue`: the client sends nothing until told) or it
    /// would run past what is drained (`drainedPast`); otherwise it is read, dropped and then
    /// refused, since closing on a client still sending resets the connection and the client loses
    /// the answer (URLSession on Linux sends its body without asking).
    func rejection(http10: Bool, maxBody: Int, waitsForGoAhead: @autoclosure () -> Bool) -> Rejection? {
        if let folded {
            return Rejection(status: 400, message: "obsolete line folding in a header", details: [("header", folded), ("expected", "each header on one line (RFC 9112 §5.2)")])
        }
        if let badName { return Rejection(status: 400, message: "invalid header name", details: [("header", badName), ("expected", "a name of letters, digits and !#$%&'*+-.^_`|~, with no space before the colon")]) }
        if let badValue { return Rejection(status: 400, message: "invalid header value", details: [("header", badValue), ("expected", "no CR, LF, NUL or other control character in a value")]) }
        if hosts == 0 && !http10 { return Rejection(status: 400, message: "missing Host header", details: [("expected", "one Host header on HTTP/1.1")]) }
        if hosts > 1 { return Rejection(status: 400, message: "more than one Host header", details: [("expected", "one Host header")]) }
        if transferEncodings > 0 && http10 {
            return Rejection(status: 400, message: "Transfer-Encoding on HTTP/1.0", details: [("expected", "Content-Length (HTTP/1.0 has no chunked framing, RFC 9112 §6.1)")])
        }
        if transferEncodings > 0 && contentLength != nil {
            return Rejection(status: 400, message: "both Content-Length and Transfer-Encoding", details: [("expected", "one way to frame the body")])
        }
        if transferEncodings > 1 || (transferEncodings == 1 && !chunked) {
            return Rejection(status: 501, message: "unsupported transfer coding", details: [("expected", "Transfer-Encoding: chunked")])
        }
        if conflictingLengths { return Rejection(status: 400, message: "conflicting Content-Length headers", details: [("expected", "one length")]) }
        if let contentLength, let length = UInt64(contentLength), length > UInt64(max(0, maxBody)),
           length > UInt64(max(0, maxBody)) + UInt64(RequestFraming.drainedPast(maxBody)) || waitsForGoAhead() {
            return RequestFraming.tooLarge(maxBody: maxBody, received: String(length))
        }
        return nil
    }

    /// What becomes of a complete head, before any body is read.
    package enum HeadVerdict: Equatable {
        /// Serve it.
        case serve
        /// Over the largest head served: 431, or 414 for a long target. Written on the socket
        /// where the transport can, since the library may have no room left to queue a reply.
        case tooLarge(Rejection)
        /// Refused (`rejection`); the connection closes after the reply.
        case refuse(Rejection)
    }

    /// The verdict on a head of `headSize` bytes whose target is `target` bytes long: first the
    /// size against `maxHead`, then `rejection`.
    package func verdict(headSize: Int, target: Int, maxHead: Int, http10: Bool, maxBody: Int,
                         waitsForGoAhead: @autoclosure () -> Bool) -> HeadVerdict {
        if headSize > maxHead { return .tooLarge(RequestFraming.headTooLarge(size: headSize, target: target, limit: maxHead)) }
        if let rejection = rejection(http10: http10, maxBody: maxBody, waitsForGoAhead: waitsForGoAhead()) { return .refuse(rejection) }
        return .serve
    }

    /// The 431 for a head over `limit` bytes, or the 414 when its request target alone is over it.
    package static func headTooLarge(size: Int, target: Int, limit: Int) -> Rejection {
        let hint = ("hint", "raise it with --connection-memory or STUBD_CONNECTION_MEMORY")
        if target > limit {
            return Rejection(status: 414, message: "request target too long", details: [("limit", "\(limit) bytes for the request head"),
                                                                                      ("received", "\(target) bytes in the target"), hint])
        }
        return Rejection(status: 431, message: "request head too large", details: [("limit", "\(limit) bytes for the request head"),
                                                                                  ("received", "\(size) bytes"), hint])
    }

    /// How far past `maxBody` a body is read (and dropped) so that its 413 reaches the client: as
    /// much again as the limit, at least a MiB. A longer one is cut off by closing the connection
    /// (a client could send forever).
    package static func drainedPast(_ maxBody: Int) -> Int { max(1 << 20, maxBody) }

    /// The 413 for a body over `maxBody` bytes.
    package static func tooLarge(maxBody: Int, received: String) -> Rejection {
        Rejection(status: 413, message: "request body too large",
                  details: [("limit", "\(maxBody) bytes"), ("received", "\(received) bytes"), ("hint", "raise it with --max-body or STUBD_MAX_BODY")])
    }

    /// True for a non-empty RFC 9110 token.
    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes where !isTokenByte(byte) { return false }
        return true
    }

    /// True when no byte is forbidden in a field value.
    static func isFieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where isForbiddenInValue(byte) { return false }
        return true
    }

    /// RFC 9110 token characters: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~, one bit each
    /// for bytes 0–63 and 64–127 (a header name is checked byte by byte on every request).
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000, high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        switch byte {
        case 0..<64: return low >> UInt64(byte) & 1 == 1
        case 64..<128: return high >> UInt64(byte - 64) & 1 == 1
        default: return false
        }
    }

    /// Control characters other than tab, and DEL.
    static func isForbiddenInValue(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// Compares ASCII letters, digits and `-` without case; a plain loop, no generic sequence.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { want in
            for i in 0..<want.count where bytes[i] | 0x20 != want[i] { return false }
            return true
        }
    }
}
