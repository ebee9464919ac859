/// What an HTTP/2 fault does beyond its stream's action, for the HTTP/2 transport to carry out:
/// the lifecycle decides, the transport owns the frames. HTTP/1.1 has none of these.
package enum HTTP2Effect: Equatable, Sendable {
    /// The stream's RST_STREAM carries this code (`rst-stream`), whether it comes before the
    /// headers (`.reset`) or once part of the body is out (a pull's `.abort`).
    case resetCode(UInt32)
    /// After this stream's answer, GOAWAY(NO_ERROR) naming it the last stream (`goaway`).
    case goAwayAfterAnswer
    /// GOAWAY(INTERNAL_ERROR) now, and the connection closes (`goaway-abrupt`).
    case goAwayAbrupt
}
