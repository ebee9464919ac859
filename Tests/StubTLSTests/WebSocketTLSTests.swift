import Foundation
import StubServer
import StubTestSupport
import Testing

/// A WebSocket conversation over TLS: libmicrohttpd hands the upgraded connection over as a
/// plain socket and keeps the TLS itself, so the hub's code is the same for wss:// and ws://.
@Suite(.timeLimit(.minutes(2)), .requires(.websockets))
struct WebSocketTLSTests {
    @Test func theShippedChatRoomTalksOverWSS() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let url = "wss://localhost:\(server.tlsPort!)/chat/lobby"
            let script = Repository.root.appendingPathComponent("Tests/Clients/wss_chat.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, url, tls.directory.authorityCertificate])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(seen["subprotocol"] as? String == "chat.v1")
            #expect(seen["welcome"] as? String == "welcome")
            #expect(seen["reply"] as? String == "Hi there!")
            #expect(seen["bye"] as? String == "See you!")
            #expect((seen["close"] as? [Any])?.first as? Int == 1000)
        }
    }
}
