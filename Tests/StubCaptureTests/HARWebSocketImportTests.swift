import Foundation
import StubCapture
import StubCore
import StubTestSupport
import Testing

/// A Chrome capture of a WebSocket (`_webSocketMessages`) imported and served: the conversation
/// it becomes answers a real client as the captured server did, ids and tokens aside.
@Suite(.timeLimit(.minutes(2)), .requires(.websockets))
struct HARWebSocketImportTests {
    static let chrome = #"""
{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
 {"startedDateTime": "2026-12-01T10:00:00.000Z", "_resourceType": "websocket",
  "request": {"method": "GET", "url": "wss://api.example.com/v2/live?token=abc", "headers": [{"name": "Sec-WebSocket-Protocol", "value": "prices.v1"}]},
  "response": {"status": 101, "headers": [{"name": "Sec-WebSocket-Protocol", "value": "prices.v1"}], "content": {"size": 0, "mimeType": "x-unknown"}},
  "_webSocketMessages": [
   {"type": "receive", "time": 1764583200.10, "opcode": 1, "data": "{\"type\":\"hello\",\"session\":\"a8f3e9b2c4d5e6f7a8b9\"}"},
   {"type": "send", "time": 1764583200.20, "opcode": 1, "data": "{\"type\":\"subscribe\",\"symbol\":\"AAPL\",\"id\":1,\"authToken\":\"s3cr3t-t0ken-value\"}"},
   {"type": "receive", "time": 1764583200.25, "opcode": 1, "data": "{\"type\":\"subscribed\",\"symbol\":\"AAPL\"}"},
   {"type": "receive", "time": 1764583201.25, "opcode": 1, "data": "{\"type\":\"price\",\"symbol\":\"AAPL\",\"price\":191.2}"},
   {"type": "send", "time": 1764583202.0, "opcode": 9, "data": ""},
   {"type": "send", "time": 1764583202.5, "opcode": 1, "data": "ping"},
   {"type": "receive", "time": 1764583202.52, "opcode": 1, "data": "pong"},
   {"type": "send", "time": 1764583203.5, "opcode": 1, "data": "ping"},
   {"type": "receive", "time": 1764583203.52, "opcode": 1, "data": "pong"},
   {"type": "receive", "time": 1764583204.0, "opcode": 2, "data": "AAEC"}
  ]},
 {"startedDateTime": "2026-12-01T10:00:00.000Z", "request": {"method": "GET", "url": "https://api.example.com/v2/quotes", "headers": []},
  "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "[]"}}}
]}}
"""#

    @Test func chromesWebSocketMessagesBecomeAConversation() async throws {
        let (result, stubs, _) = try await HARImportTests().importHAR(HARWebSocketImportTests.chrome)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("GET /v2/live  variants: conversation"), "\(result.stdout)")
        let route = try String(contentsOf: stubs.appendingPathComponent("api.example.com/get-live/route.json"), encoding: .utf8)
        #expect(!route.contains("s3cr3t"), "the client's token is not written: \(route)")
        #expect(route.contains(#""subprotocols""#) && route.contains("prices.v1"))
        #expect(route.contains("1 client messages repeated an earlier one"), "the answer left out is said: \(route)")
        try await withServer(stubs: stubs) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_captured.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, PythonWebSockets.url(server) + "/v2/live?token=other"])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(seen["subprotocol"] as? String == "prices.v1")
            #expect(seen["hello"] as? String == "hello")
            // Another id and another token than the capture's: the reply is still chosen.
            #expect(seen["answers"] as? [String] == ["subscribed", "price"])
            #expect((seen["priceAfterMs"] as? Double ?? 0) >= 900, "the captured second between them is kept")
            #expect(seen["pong"] as? String == "pong")
        }
    }
}
