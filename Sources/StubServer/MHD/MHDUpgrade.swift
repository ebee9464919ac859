internal import CMicroHTTPD
import StubCore
import StubWebSocket

/// What a 101 hands the connection to: the hub and the conversation to hold there. Retained by
/// the upgrade response until libmicrohttpd calls `stubdUpgraded` (once, when the 101 is sent).
final class UpgradeTarget {
    let hub: WebSocketHub
    let open: OpenConversation

    init(hub: WebSocketHub, open: OpenConversation) {
        self.hub = hub
        self.open = open
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
    /// `Connection: Upgrade, Upgrade` on 0.9.75.
    convenience init?(upgradingTo target: UpgradeTarget, headers: [HTTPHeader]) {
        let cls = Unmanaged.passRetained(target).toOpaque()
        guard let made = MHD_create_response_for_upgrade(stubdUpgraded, cls) else {
            Unmanaged<UpgradeTarget>.fromOpaque(cls).release()
            return nil
        }
        self.init(adopting: made, headers: headers.filter { $0.name.lowercased() != "connection" })
    }
}

/// libmicrohttpd sent the 101: the socket is the hub's until it closes it through `urh`.
func stubdUpgraded(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ requestContext: UnsafeMutableRawPointer?,
                   _ extra: UnsafePointer<CChar>?, _ extraSize: Int, _ socket: Int32, _ urh: OpaquePointer?) {
    guard let cls, let urh else { return }
    let target = Unmanaged<UpgradeTarget>.fromOpaque(cls).takeRetainedValue()
    let bytes = extra.map { pointer in pointer.withMemoryRebound(to: UInt8.self, capacity: extraSize) { Array(UnsafeBufferPointer(start: $0, count: extraSize)) } } ?? []
    let handle = UpgradeHandle(pointer: urh)
    target.hub.adopt(fd: socket, extra: bytes, open: target.open) { _ = CMHD_upgrade_close(handle.pointer) }
}
