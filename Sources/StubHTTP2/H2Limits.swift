/// The bounds of HTTP/2 connections: what stubd advertises in its SETTINGS and what it tolerates
/// of a client before it ends the connection. The fixed ones are set for a test tool on a fast
/// network (like `WebSocketLimits`); those a user may change come from the settings table.
package struct H2Limits: Sendable {
    /// Streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS).
    package var maxStreams = 100
    /// The largest request head served, decoded (`--connection-memory`): past it a stream gets the
    /// JSON 431 as over HTTP/1.1, and past four times it the connection ends (an HPACK bomb).
    package var maxHeadBytes = 8192
    /// The largest request body kept (`--max-body`); a larger one gets 413.
    package var maxBodyBytes = 1 << 20
    /// How long a client may leave sent bytes unread before its connection is cut (TCP_USER_TIMEOUT).
    package var stalledSendLimitMs: Int?
    /// How long a stream may have an answer to send and no flow-control window to send it in
    /// (a client that reads the socket but never sends WINDOW_UPDATE) before it is reset: the
    /// idle timeout, or 30 s where there is none.
    package var stalledWindowNs: UInt64 { UInt64(stalledSendLimitMs ?? 30_000) * 1_000_000 }
    /// How long a new socket may take to send its ClientHello before it is closed.
    package var helloTimeoutNs: UInt64 = 10_000_000_000
    /// Control frames (SETTINGS, PING, PRIORITY, WINDOW_UPDATE, RST_STREAM) and empty frames a
    /// client may send in a burst, and per second after it; past them, GOAWAY(ENHANCE_YOUR_CALM).
    package var controlBurst = 1000
    /// Control and empty frames a client may send each second once its burst is spent.
    package var controlPerSecond = 100
    /// Streams a client may reset in a burst (rapid reset).
    package var resetBurst = 200
    /// Streams a client may reset each second once its burst is spent.
    package var resetPerSecond = 33
    /// CONTINUATION frames after one HEADERS (nghttp2's own bound, set where the library has it).
    package var maxContinuations = 8

    /// The defaults above; the server sets the rest from its configuration.
    package init() {}
}
