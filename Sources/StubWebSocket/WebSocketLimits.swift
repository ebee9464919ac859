/// The bounds that keep one WebSocket client from freezing, flooding or locking out the rest:
/// what one turn of the hub takes from a client, what stubd queues for a client that does not
/// read, how long a quiet conversation stays, and how many conversations there may be.
package struct WebSocketLimits: Sendable {
    /// The largest message a client may send (wslay closes with 1009 beyond it).
    package var maxMessageBytes = 1 << 20
    /// Bytes queued for one client (messages not yet taken by its socket) past which stubd stops
    /// reading that client, until half of them are gone (`--websocket-max-queue`). A client that
    /// sends and never reads then waits in its own TCP buffer, as against a real server.
    package var queueBytes = 4 << 20
    /// The same, over every conversation at once (`--websocket-max-queue-total`): past it, no
    /// conversation with anything queued is read.
    package var totalQueueBytes = 256 << 20
    /// A conversation with no frame from the client and no message from stubd for this long is
    /// closed with 1001 (`--websocket-idle-timeout`); 0 for never.
    package var idleNs: UInt64 = 300_000_000_000
    /// Conversations open at once; a handshake past it gets 503. At most three quarters of the
    /// connection limit, so plain requests always keep connections of their own.
    package var conversations = Int.max

    /// Bytes read from one client in one turn of the hub before the next conversation's turn:
    /// a client that sends without pause is read in slices, and every other one still gets its
    /// turn (wslay may hold up to 4 KiB more of it, already read). Beside a client flooding the
    /// shipped chat room with 1-byte messages another one's reply took 170 ms at the median with
    /// 16 KiB slices and 33 ms with 4 KiB; a 64 KiB echo took 0.4 and 0.5 ms
    /// (bench/websocket-assault.py).
    static let readSliceBytes = 4 * 1024
    /// Bytes gathered before a write to the socket: a frame's head and payload go out in one
    /// write (over TLS, one record instead of two).
    static let outboxBytes = 64 * 1024

    package init() {}

    /// The conversations `connections` open connections leave room for: three quarters, at least one.
    package static func conversations(forConnections connections: Int) -> Int {
        max(1, connections - max(1, connections / 4))
    }

    /// The queue past which a conversation is closed rather than only not read: what the script
    /// or the admin API pushes to a client that reads nothing is not held without end.
    var closingQueueBytes: Int { queueBytes > Int.max / 4 ? Int.max : queueBytes * 4 }
}
