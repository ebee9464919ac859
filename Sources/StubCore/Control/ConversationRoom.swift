/// Where WebSocket conversations are held, as the request lifecycle asks before it answers a
/// handshake with 101: conversations are bounded so that plain requests always keep connections.
package protocol ConversationRoom: Sendable {
    /// Takes a place for one more conversation; false when every place conversations may hold
    /// is taken. The transport gives the place back if the 101 is never sent.
    func reserve() -> Bool
    /// Gives back a place whose 101 was never sent (an HTTP/2 stream, which cannot be upgraded).
    func unreserve()
}
