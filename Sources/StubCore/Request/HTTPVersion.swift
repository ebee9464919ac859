/// The HTTP version a request came in, as the journal and the access log record it.
public enum HTTPVersion: String, Sendable {
    /// `HTTP/1.0`.
    case http10 = "HTTP/1.0"
    /// `HTTP/1.1`.
    case http11 = "HTTP/1.1"
    /// `HTTP/2`, over TLS by ALPN.
    case http2 = "HTTP/2"
}
