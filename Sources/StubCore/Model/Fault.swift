/// A network failure served instead of an HTTP response, named by what the client sees.
public enum Fault: String, Sendable, CaseIterable, Codable {
    /// The connection is reset (RST) before any response.
    case reset
    /// The connection closes with no bytes sent.
    case empty
    /// Random bytes that are not HTTP, then close.
    case garbage
    /// A valid head promising more body than is sent, then close.
    case truncate
    /// Nothing is sent until the client gives up (or the server's hold cap passes).
    case hang
    /// The head arrives a few bytes at a time, spread over the delay (5 s without one), then
    /// the body; the connection then closes.
    case slowHeaders = "slow-headers"
    /// HTTP/2: the stream alone is reset (RST_STREAM, CANCEL unless a code is given), before its
    /// headers or after some body bytes (`StreamReset`). Over HTTP/1.1, as `reset`.
    case rstStream = "rst-stream"
    /// HTTP/2: the answer goes out, with GOAWAY(NO_ERROR) naming this stream as the last one the
    /// connection takes: the client opens a new connection for its next requests. Over HTTP/1.1
    /// there is no GOAWAY: the answer goes out as usual.
    case goaway
    /// HTTP/2: GOAWAY(INTERNAL_ERROR) and the connection closes at once, no answer; every stream
    /// open on it fails. Over HTTP/1.1, as `reset`.
    case goawayAbrupt = "goaway-abrupt"

    /// The names, for error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
