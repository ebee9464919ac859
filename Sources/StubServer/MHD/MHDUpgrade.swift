internal import CMicroHTTPD
import StubCore
import StubSystem
import StubWebSocket

/// What a 101 hands the connection to: the hub, the place reserved there and the conversation
/// to hold. The request's context owns it to the request's end, which libmicrohttpd reaches
/// only after `stubdUpgraded` ran (once, when the 101 is sent) or after the 101 was never sent;
/// then the place goes back to the hub.
final class UpgradeTarget {
    let hub: WebSocketHub
    let open: OpenConversation
    /// Set on the connection's polling thread when the hub took the socket (and the place).
    var adopted = false

    init(hub: WebSocketHub, open: OpenConversation) {
        self.hub = hub
        self.open = open
    }

    deinit {
        if !adopted { hub.unreserve() }
    }
}

/// An upgraded connection's handle, for closing it from the hub's thread.
struct UpgradeHandle: @unchecked Sendable {
    // @unchecked: libmicrohttpd lets any thread take the close action, once.
    let pointer: OpaquePointer
}

extension MHDResponse {
    /// The 101 that gives the connection to `target` (`MHD_create_response_for_upgrade`), with
    /// `headers` (the handshake's `Upgrade`, `Sec-WebSocket-Accept`, …). `Connection: Upgrade` is
    /// libmicrohttpd's: it adds it to every upgrade response, and ours beside it went out as
    /// `Connection: Upgrade, Upgrade` on 0.9.75. The caller keeps `target` alive to the
    /// request's end: the response holds it unretained.
    convenience init?(upgradingTo target: UpgradeTarget, headers: [HTTPHeader]) {
        guard let made = MHD_create_response_for_upgrade(stubdUpgraded, Unmanaged.passUnretained(target).toOpaque()) else { return nil }
        self.init(adopting: made, headers: headers.filter { $0.name.lowercased() != "connection" })
    }
}

/// libmicrohttpd sent the 101: the socket is the hub's until it closes it through `urh`.
func stubdUpgraded(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ requestContext: UnsafeMutableRawPointer?,
                   _ extra: UnsafePointer<CChar>?, _ extraSize: Int, _ socket: Int32, _ urh: OpaquePointer?) {
    guard let cls, let urh else { return }
    let target = Unmanaged<UpgradeTarget>.fromOpaque(cls).takeUnretainedValue()
    target.adopted = true
    let bytes = extra.map { pointer in pointer.withMemoryRebound(to: UInt8.self, capacity: extraSize) { Array(UnsafeBufferPointer(start: $0, count: extraSize)) } } ?? []
    let handle = UpgradeHandle(pointer: urh)
    // libmicrohttpd turns Nagle back on for the socket it hands over. Over TLS, `socket` is one
    // end of a socket pair and the TCP socket is libmicrohttpd's own, which relays each read
    // as a TLS record: with Nagle, every record after the first waited for the client's
    // delayed ACK (40 ms a message on Linux). A failure leaves Nagle on: slower, still correct.
    if let connection { _ = try? LibC.setNoDelay(CMHD_connection_fd(connection)) }
    target.hub.adopt(fd: socket, extra: bytes, open: target.open) {
        // Closing an upgraded connection fails only for a handle already closed, which the hub never does.
        _ = CMHD_upgrade_close(handle.pointer)
    }
}
