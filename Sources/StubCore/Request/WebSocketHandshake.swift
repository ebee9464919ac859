#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The server's side of the RFC 6455 opening handshake (§4.2): checks the client's request and
/// makes the 101's headers, or the HTTP answer that refuses it.
package enum WebSocketHandshake {
    /// The GUID RFC 6455 §1.3 appends to the key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// An accepted handshake: the 101's headers and the subprotocol chosen, if any.
    package struct Accepted: Sendable {
        package let headers: [HTTPHeader]
        package let subprotocol: String?
    }

    /// Accepts `request` for `endpoint`, or the reply refusing it: 426 to a request that asks for
    /// no upgrade or another version (with the version served), 400 to a malformed one: not an
    /// HTTP/1.1 GET (RFC 6455 §4.2.1: HEAD and HTTP/1.0 cannot switch protocols, and a 101 to
    /// them left the client with nothing), a key missing, malformed or sent twice (§11.3.1).
    package static func accept(_ request: some RequestHead, endpoint: WebSocketEndpoint) -> Result<Accepted, ReplyFailure> {
        let upgrading = tokens(request.header("Upgrade")).contains("websocket") && tokens(request.header("Connection")).contains("upgrade")
        if upgrading && (request.isHTTP10 || request.method != "GET") {
            return .failure(ReplyFailure(Reply.error(400, "a WebSocket handshake is an HTTP/1.1 GET", [
                ("found", .string("\(request.method) over HTTP/\(request.isHTTP10 ? "1.0" : "1.1")")),
                ("expected", .string("GET over HTTP/1.1 or later (RFC 6455 §4.2.1)")),
            ])))
        }
        guard upgrading else {
            return .failure(ReplyFailure(Reply.error(426, "this route is a WebSocket endpoint", [
                ("expected", .string("a GET with Upgrade: websocket and Connection: Upgrade (RFC 6455 §4.1)")),
            ], headers: [HTTPHeader("Upgrade", "websocket"), HTTPHeader("Connection", "Upgrade")])))
        }
        guard request.header("Sec-WebSocket-Version")?.trimmingWhitespace() == "13" else {
            return .failure(ReplyFailure(Reply.error(426, "unsupported WebSocket version", [
                ("found", .string(request.header("Sec-WebSocket-Version") ?? "none")), ("expected", .string("13")),
            ], headers: [HTTPHeader("Sec-WebSocket-Version", "13")])))
        }
        let keys = request.allHeaders().filter { $0.name.lowercased() == "sec-websocket-key" }
        guard keys.count <= 1 else {
            return .failure(ReplyFailure(Reply.error(400, "Sec-WebSocket-Key sent \(keys.count) times", [
                ("expected", .string("one Sec-WebSocket-Key header (RFC 6455 §11.3.1)")),
            ])))
        }
        let key = request.header("Sec-WebSocket-Key")?.trimmingWhitespace() ?? ""
        guard let nonce = Data(base64Encoded: key), nonce.count == 16 else {
            return .failure(ReplyFailure(Reply.error(400, "invalid Sec-WebSocket-Key", [
                ("found", .string(key)), ("expected", .string("16 random bytes in base64 (RFC 6455 §4.1)")),
            ])))
        }
        let offered = request.header("Sec-WebSocket-Protocol").map { $0.split(separator: ",").map { String($0).trimmingWhitespace() } } ?? []
        let chosen = offered.first { endpoint.subprotocols.contains($0) }
        var headers = [HTTPHeader("Upgrade", "websocket"), HTTPHeader("Connection", "Upgrade"),
                       HTTPHeader("Sec-WebSocket-Accept", acceptValue(key: key))]
        if let chosen { headers.append(HTTPHeader("Sec-WebSocket-Protocol", chosen)) }
        return .success(Accepted(headers: headers, subprotocol: chosen))
    }

    /// `Sec-WebSocket-Accept` for `key`: base64 of the SHA-1 of the key and the GUID.
    package static func acceptValue(key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The comma-separated tokens of a header, lower-cased.
    private static func tokens(_ value: String?) -> [String] {
        value?.lowercased().split(separator: ",").map { String($0).trimmingWhitespace() } ?? []
    }
}
