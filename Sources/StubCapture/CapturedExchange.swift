#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request and the response it got, as a capture (a HAR entry) or a recording saw it. Header
/// values are as sent; the body is the decoded bytes.
package struct CapturedExchange: Sendable {
    /// Upper-case method.
    package var method: String
    /// `http` or `https`.
    package var scheme: String
    /// Host, with `:port` when it is not the scheme's default.
    package var host: String
    /// The path as sent, without the query.
    package var path: String
    /// Query parameters in order, percent-decoded.
    package var query: [(name: String, value: String)]
    /// Request headers in order.
    package var requestHeaders: [(name: String, value: String)]
    /// The request body.
    package var requestBody: [UInt8]
    /// The response status.
    package var status: Int
    /// Response headers in order.
    package var responseHeaders: [(name: String, value: String)]
    /// The response body, decoded (base64 undone, content encodings undone).
    package var responseBody: [UInt8]
    /// The response's media type (`application/json; charset=utf-8`), when known.
    package var mimeType: String?
    /// The response body kept in a file instead of `responseBody` (a recording), already
    /// processed as a stub body: secrets out, JSON re-indented.
    package var spooledBody: SpooledBody?
    /// A name the source gave this response (a Postman example's), for its variant.
    package var label: String? = nil
    /// Where the exchange came from, for its route's description (`Postman: Users / Get user`).
    package var note: String? = nil
    /// Path segments the source declares parameters (Postman's `:id`), by position among the
    /// path's segments: always a `{name}` in the route, whatever their values.
    package var pathVariables: [Int: String] = [:]
    /// For a WebSocket handshake (a browser's `_webSocketMessages`): the messages both ways, in
    /// order; nil for an HTTP exchange.
    package var webSocketMessages: [CapturedMessage]? = nil

    /// An exchange.
    package init(method: String, scheme: String = "https", host: String, path: String, query: [(name: String, value: String)] = [],
                requestHeaders: [(name: String, value: String)] = [], requestBody: [UInt8] = [], status: Int,
                responseHeaders: [(name: String, value: String)] = [], responseBody: [UInt8] = [], mimeType: String? = nil) {
        self.method = method.uppercased()
        self.scheme = scheme
        self.host = host
        self.path = path.isEmpty ? "/" : path
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.mimeType = mimeType
    }

    /// The first value of a response header, any letter case.
    func responseHeader(_ name: String) -> String? {
        responseHeaders.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The response's media type without parameters, lower-cased (`application/json`).
    var mediaType: String {
        let full = mimeType ?? responseHeader("Content-Type") ?? ""
        return String(full.split(separator: ";").first ?? "").trimmingWhitespace().lowercased()
    }
}

/// A response body a recording keeps on disk rather than in memory, processed once as it arrived.
package struct SpooledBody: Sendable, Hashable {
    /// The file holding the processed body.
    package var path: String
    /// The extension the stub body file gets (`json`, `txt`, `bin`).
    package var fileExtension: String
    /// Identifies the bytes (a hash and the size), so equal bodies are one variant.
    package var identity: String
    /// The body's size in bytes.
    package var size: Int

    /// A spooled body.
    package init(path: String, fileExtension: String, identity: String, size: Int) {
        self.path = path
        self.fileExtension = fileExtension
        self.identity = identity
        self.size = size
    }
}

/// One WebSocket message a capture saw.
package struct CapturedMessage: Sendable {
    /// True for the client's message, false for the server's.
    package var sent: Bool
    /// When, in seconds (any epoch: only differences are used); nil when the capture has none.
    package var time: Double?
    /// A binary frame's message rather than text.
    package var binary: Bool
    /// The payload (text as UTF-8).
    package var bytes: [UInt8]

    /// A message.
    package init(sent: Bool, time: Double?, binary: Bool, bytes: [UInt8]) {
        self.sent = sent
        self.time = time
        self.binary = binary
        self.bytes = bytes
    }
}
