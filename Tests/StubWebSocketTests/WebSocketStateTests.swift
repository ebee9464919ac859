import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// A conversation's templated messages read the service's state in the handshake's session, as
/// HTTP answers do.
@Suite(.timeLimit(.minutes(1))) struct WebSocketStateTests {
    @Test func aTemplatedMessageReadsStateAnHTTPRequestSet() async throws {
        let folder = try TemporaryStubDirectory([
            "ws/_state.json": #"{"nickname": "guest"}"#,
            "ws/name/route.json": #"{"method": "PUT", "path": "/name", "variants": {"200": {"body": {}, "then": {"set": {"nickname": "{{body.nickname}}"}}}}}"#,
            "ws/room/route.json": #"{"path": "/room", "websocket": {}, "variants": {"room": {"conversation": {"onOpen": [{"json": {"hello": "{{state.nickname}}"}, "template": true}]}}}}"#,
        ])
        try await withServer(stubs: folder.url) { server in
            let before = try RawWebSocket(port: server.port, path: "/room", extraHeaders: ["X-Stub-Session: w"])
            #expect(before.next()?.text == #"{"hello":"guest"}"#)
            let set = try await HTTPClient.fetch(server.url("/name"), method: "PUT", headers: ["X-Stub-Session": "w", "Content-Type": "application/json"],
                                                 body: Data(#"{"nickname": "ann"}"#.utf8))
            #expect(set.status == 200)
            let after = try RawWebSocket(port: server.port, path: "/room", extraHeaders: ["X-Stub-Session: w"])
            #expect(after.next()?.text == #"{"hello":"ann"}"#)
            let elsewhere = try RawWebSocket(port: server.port, path: "/room")
            #expect(elsewhere.next()?.text == #"{"hello":"guest"}"#, "another scope keeps the seed")
        }
    }
}
