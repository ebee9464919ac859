/// A request as the transport holds it, read by lookup: the core asks only for the headers and
/// query parameters that controls, `when` conditions and templates name, so a plain request costs
/// no copy of every header. The whole request is copied once, when the journal or the access log
/// takes it: packed by the transport (`packedCopy`), or, for a request without one, by
/// `snapshot()`.
package protocol RequestHead {
    /// The method as received.
    var method: String { get }
    /// The path as sent, without the query; segments are percent-decoded one by one where read.
    var path: String { get }
    /// The raw body bytes (up to the server's body limit).
    var body: [UInt8] { get }
    /// Plain HTTP or HTTPS.
    var scheme: RequestScheme { get }
    /// The first value of a header, compared case-insensitively.
    func header(_ name: String) -> String?
    /// The first value of a query parameter, percent-decoded.
    func queryValue(_ name: String) -> String?
    /// Every value of a query parameter, in order, percent-decoded.
    func queryValues(_ name: String) -> [String]
    /// Every query parameter in order.
    func allQueryParameters() -> [(name: String, value: String)]
    /// Every header in order.
    func allHeaders() -> [(name: String, value: String)]
    /// False when no header name starts with `X-Stub-` and no query parameter name with `__`: then
    /// the request carries no control and no session, and their lookups are skipped.
    var mayCarryControls: Bool { get }
    /// The request already packed for the journal and the log, when the transport made that copy.
    var packedCopy: PackedRequest? { get }
    /// True for an HTTP/1.0 request (which cannot be upgraded to a WebSocket).
    var isHTTP10: Bool { get }
    /// The version the request came in, for its record.
    var httpVersion: HTTPVersion { get }
}

extension RequestHead {
    /// No packed copy: the record is made from the request's parts.
    package var packedCopy: PackedRequest? { nil }
    /// HTTP/1.1 unless the transport says otherwise.
    package var isHTTP10: Bool { false }
    /// HTTP/1.0 or HTTP/1.1, as `isHTTP10` says, unless the transport says otherwise.
    package var httpVersion: HTTPVersion { isHTTP10 ? .http10 : .http11 }
}

extension RequestHead {
    /// The request as the journal keeps it: control query parameters removed, the method upper-cased.
    package func snapshot() -> StubRequest {
        var query = allQueryParameters()
        // Checked first: removing mutates, and would copy an array shared with a held copy.
        if query.contains(where: { RequestControls.queryNames.contains($0.name) }) {
            query.removeAll { RequestControls.queryNames.contains($0.name) }
        }
        return StubRequest(method: method, path: path, query: query, headers: allHeaders(), body: body, scheme: scheme)
    }
}

extension StubRequest: RequestHead {
    /// Every query parameter in order.
    package func allQueryParameters() -> [(name: String, value: String)] { query }
    /// Every header in order.
    package func allHeaders() -> [(name: String, value: String)] { headers }
    /// Every value of a query parameter, in order.
    package func queryValues(_ name: String) -> [String] { query.compactMap { $0.name == name ? $0.value : nil } }

    /// Whether a header or query parameter has a control's prefix.
    package var mayCarryControls: Bool {
        headers.contains { ControlNames.isControlHeader($0.name) } || query.contains { ControlNames.isControlQuery($0.name) }
    }
}

/// The name prefixes of request controls: `X-Stub-` and `X-Mock-Response-` headers (any case)
/// and `__` query parameters.
package enum ControlNames {
    /// True for a header name starting with `X-Stub-`, or `X-Mock-Response-` (a Postman mock
    /// server's selection headers), in any case. Concrete and loop-based: it runs for every
    /// header of every request, from another module, where a generic would not be specialized
    /// and would look up type metadata on each call.
    package static func isControlHeader(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        hasPrefix(name, "x-stub-") || hasPrefix(name, "x-mock-response-")
    }

    /// True when `name` starts with `prefix` (lower-case ASCII letters and `-`) in any case.
    @inline(__always)
    private static func hasPrefix(_ name: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard name.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { want in
            for i in 0..<want.count where name[i] | 0x20 != want[i] { return false }
            return true
        }
    }

    /// True for a header name starting with `X-Stub-` in any case.
    package static func isControlHeader(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isControlHeader($0) }
    }

    /// True for a query parameter name starting with `__`.
    package static func isControlQuery(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.count >= 2 && name[0] == UInt8(ascii: "_") && name[1] == UInt8(ascii: "_")
    }

    /// True for a query parameter name starting with `__`.
    package static func isControlQuery(_ name: String) -> Bool { name.utf8.starts(with: "__".utf8) }
}
