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

    /// The names, for error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
