import Foundation
import StubServer
import StubTestSupport
import StubTesting
import StubdClient
import Testing

/// A WebSocket route: the handshake over libmicrohttpd's upgrade, a scripted conversation held
/// by the hub's thread, and what it does with clients that break RFC 6455.
@Suite(.timeLimit(.minutes(3))) struct WebSocketTests {
    static let stubs = [
        "chat/room/route.json": #"""
        {
          "path": "/chat/{room}",
          "websocket": {"subprotocols": ["chat.v1"]},
          "variants": {
            "talk": {
              "conversation": {
                "onOpen": [{"text": "welcome"}, {"json": {"type": "presence", "online": 3}, "delay": {"ms": 100}}],
                "replies": [
                  {"when": {"text": "ping"}, "send": [{"text": "pong"}]},
                  {"when": {"body": {"type": "message"}}, "send": [{"json": {"type": "ack"}}]},
                  {"when": {"matches": "^bye"}, "send": [{"text": "see you"}], "close": {"code": 4000, "reason": "bye"}},
                  {"send": [{"base64": "AAEC"}]}
                ],
                "close": {"afterMessages": 10, "code": 1000, "reason": "enough"}
              }
            },
            "flaky": {"when": {"query": {"flaky": "1"}}, "conversation": {"onOpen": [{"text": "hi"}], "close": {"afterMessages": 1, "drop": true}}},
            "401": {"when": {"headers": {"Authorization": "expired"}}, "body": {"error": "token expired"}}
          }
        }
        """#,
    ]

    static func webSocketURL(_ server: StubServer) -> String { PythonWebSockets.url(server) }

    @Test(.requires(.websockets))
    func aRealClientHoldsTheScriptedConversation() async throws {
        let folder = try TemporaryStubDirectory(WebSocketTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_conversation.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, WebSocketTests.webSocketURL(server)])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(seen["subprotocol"] as? String == "chat.v1")
            #expect(seen["onOpen"] as? [String] == ["welcome", #"{"type":"presence","online":3}"#])
            #expect(seen["ping"] as? String == "pong")
            #expect(seen["json"] as? String == #"{"type":"ack"}"#)
            #expect(seen["fallback"] as? [Int] == [0, 1, 2])
            #expect(seen["pong"] as? Bool == true)
            // A reply's last message arrives before its close.
            #expect(seen["bye"] as? String == "see you")
            #expect((seen["closed"] as? [Any])?.first as? Int == 4000)
            #expect((seen["closed"] as? [Any])?.last as? String == "bye")
            // The variant picked by the handshake's query drops the connection without a close frame.
            #expect(seen["flakyOpen"] as? String == "hi")
            #expect((seen["dropped"] as? [String: Bool])?["closeFrame"] == false)
            // The handshakes are in the journal as 101s of the route.
            let journal = try await HTTPClient.fetch(server.url("/__stubd/journal"))
            #expect(journal.text.contains("\"status\" : 101") || journal.text.contains("\"status\": 101"), "\(journal.text.prefix(400))")
        }
    }

    @Test func violationsOfRFC6455AreClosedWithTheirCodes() async throws {
        let folder = try TemporaryStubDirectory(WebSocketTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_violations.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, String(server.port), "/chat/x"])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            let expected: [String: Int] = [
                "unmasked frame": 1002, "reserved bit set": 1002, "unknown opcode 3": 1002, "continuation without start": 1002,
                "close code 999": 1002, "close code 1005": 1002, "invalid UTF-8 text": 1007, "close reason not UTF-8": 1007,
                "message over the limit": 1009,
                // wslay fails these in its frame layer and answers with a close frame without a code.
                "fragmented ping": 1005, "ping of 126 bytes": 1005,
            ]
            for (name, code) in expected {
                #expect(seen[name] as? Int == code, "\(name): \(String(describing: seen[name]))")
            }
            #expect(try await HTTPClient.fetch(server.url("/__stubd/health")).status == 200)
        }
    }

    @Test func handshakesThatAreNotOneAreAnsweredOverHTTP() async throws {
        let folder = try TemporaryStubDirectory(WebSocketTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let url = server.url("/chat/lobby").absoluteString
            let upgrade = ["-H", "Upgrade: websocket", "-H", "Connection: Upgrade", "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]
            let plain = try await Curl.run(["-si", url])
            #expect(plain.stdout.hasPrefix("HTTP/1.1 426"), "\(plain.stdout)")
            #expect(plain.stdout.contains("this route is a WebSocket endpoint"))
            let version = try await Curl.run(["-si", url] + upgrade + ["-H", "Sec-WebSocket-Version: 8"])
            #expect(version.stdout.hasPrefix("HTTP/1.1 426") && version.stdout.contains("Sec-WebSocket-Version: 13"), "\(version.stdout)")
            let key = try await Curl.run(["-si", url, "-H", "Upgrade: websocket", "-H", "Connection: Upgrade", "-H", "Sec-WebSocket-Version: 13",
                                          "-H", "Sec-WebSocket-Key: short"])
            #expect(key.stdout.hasPrefix("HTTP/1.1 400") && key.stdout.contains("invalid Sec-WebSocket-Key"), "\(key.stdout)")
            // A variant without a conversation refuses the handshake as the API would.
            let refused = try await Curl.run(["-si", url] + upgrade + ["-H", "Sec-WebSocket-Version: 13", "-H", "Authorization: expired"])
            #expect(refused.stdout.hasPrefix("HTTP/1.1 401") && refused.stdout.contains("token expired"), "\(refused.stdout)")
            // The RFC's own example key gets the RFC's accept value.
            let accepted = try await Curl.run(["-si", "--max-time", "1", url] + upgrade + ["-H", "Sec-WebSocket-Version: 13"])
            #expect(accepted.stdout.hasPrefix("HTTP/1.1 101"), "\(accepted.stdout)")
            #expect(accepted.stdout.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "\(accepted.stdout)")
            // One Connection header, naming Upgrade once (libmicrohttpd writes it).
            let connection = accepted.stdout.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("connection:") }
            #expect(connection.map { $0.lowercased() } == ["connection: upgrade"], "\(accepted.stdout)")
        }
    }

    @Test(.requires(.websockets))
    func aStoppingServerSaysGoingAwayToEveryConversation() async throws {
        let folder = try TemporaryStubDirectory(WebSocketTests.stubs)
        var configuration = StubServerConfiguration()
        configuration.port = 0
        let server = try StubServer(stubsAt: folder.url, configuration: configuration)
        defer { server.stop() }
        let script = Repository.root.appendingPathComponent("Tests/Clients/ws_hold_open.py").path
        let clients = try Spawned("/usr/bin/env", ["python3", script, WebSocketTests.webSocketURL(server) + "/chat/lobby", "50"])
        #expect(clients.readLine().hasPrefix("ready"))
        server.stop()
        let output = clients.readToEnd()
        let codes = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [Int], "\(output.stdout)\(output.stderr)")
        #expect(codes == Array(repeating: 1001, count: 50))
    }

    @Test(.requires(.websockets))
    func aTestPushesAMessageAndClosesThroughTheAdminAPI() async throws {
        let folder = try TemporaryStubDirectory(WebSocketTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let client = StubdClient(baseURL: server.baseURL)
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_steered.py").path
            let steered = try Spawned("/usr/bin/env", ["python3", script, WebSocketTests.webSocketURL(server) + "/chat/lobby"])
            #expect(steered.readLine().hasPrefix("ready"))
            let open = try await client.conversations(route: "chat/room", openOnly: true)
            #expect(open.count == 1 && open.first?.variant == "talk" && open.first?.path == "/chat/lobby")
            #expect(try await client.sendToConversations(route: "chat/room", text: "pushed from the test") == 1)
            // The client answers the push with "ping": once stubd has replied, close with the test's own code.
            let id = try #require(open.first?.id)
            #expect(try await eventually { try await client.conversations(route: "chat/room").first?.messagesOut == 4 })
            try await client.closeConversation(id, code: 4001, reason: "test over")
            let output = steered.readToEnd()
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.split(separator: "\n").last.map(String.init)?.utf8 ?? "".utf8)) as? [String: Any],
                                    "\(output.stdout)\(output.stderr)")
            #expect(seen["pushed"] as? String == "pushed from the test")
            #expect(seen["pong"] as? String == "pong")
            #expect((seen["closed"] as? [Any])?.first as? Int == 4001)
            let ended = try #require(try await client.conversations(route: "chat/room").first)
            #expect(ended.state == "ended" && ended.ending?.by == "server" && ended.ending?.code == 4001)
            #expect(ended.messagesIn == 1 && ended.messagesOut == 4)
            // What was said, both ways, in order.
            let detail = try await HTTPClient.fetch(server.url("/__stubd/conversations/\(id)"))
            let messages = try #require((try detail.json() as? [String: Any])?["messages"] as? [[String: Any]])
            #expect(messages.map { $0["direction"] as? String ?? "" } == ["out", "out", "out", "in", "out"])
            #expect(messages.compactMap { $0["text"] as? String }.contains("pushed from the test"))
            // An ended conversation cannot be steered.
            await #expect(throws: (any Error).self) { try await client.sendToConversation(id, text: "too late") }
        }
    }

    @Test(.requires(.websockets))
    func socketFaultsFailAsRealServersDo() async throws {
        let folder = try TemporaryStubDirectory([
            "f/echo/route.json": #"{"path": "/f/echo", "websocket": {}, "variants": {"echo": {"conversation": {"replies": [{"send": [{"echo": true}]}]}}}}"#,
            "f/hang/route.json": #"""
            {"path": "/f/hang", "websocket": {}, "variants": {"hang": {"conversation": {
              "replies": [{"send": [{"text": "answered"}]}], "fault": {"kind": "hang", "afterMessages": 1}}}}}
            """#,
            "f/cut/route.json": #"{"path": "/f/cut", "websocket": {}, "variants": {"cut": {"conversation": {"fault": {"kind": "cut", "afterMs": 0}}}}}"#,
            "f/slow/route.json": #"""
            {"path": "/f/slow", "websocket": {}, "variants": {"slow": {"conversation": {
              "onOpen": [{"text": "\#(String(repeating: "x", count: 400))"}], "throttle": {"bytesPerSecond": 200}}}}}
            """#,
        ])
        try await withServer(stubs: folder.url) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_faults.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, WebSocketTests.webSocketURL(server)])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            // An echo sends each message back as it came, text as text and bytes as bytes.
            #expect((seen["echo"] as? [Any])?.first as? String == "hello")
            #expect((seen["echo"] as? [Any])?.last as? [Int] == [1, 2])
            // A hung server answered before, and now answers nothing, not even a ping.
            #expect(seen["beforeHang"] as? String == "answered")
            #expect(seen["pongBeforeHang"] as? Bool == true)
            #expect(seen["pongAfterHang"] as? Bool == false)
            // A frame cut in the middle: the connection ends without a close frame.
            #expect((seen["cut"] as? [String: Bool])?["closeFrame"] == false)
            // 402 bytes of frame at 200 bytes a second take about two seconds.
            let slow = try #require(seen["slow"] as? [String: Any])
            #expect(slow["bytes"] as? Int == 400)
            #expect((slow["seconds"] as? Double ?? 0) >= 1.5, "\(slow)")
            let book = try await HTTPClient.fetch(server.url("/__stubd/conversations?route=f/cut"))
            #expect(book.text.contains("cut mid-frame"), "\(book.text)")
        }
    }

    @Test(arguments: [
        (#"{"method": "GET", "path": "/a", "variants": {"x": {"conversation": {}}}}"#, "expected a conversation only in a WebSocket route"),
        (#"{"path": "/a", "websocket": {}, "method": "POST", "variants": {"x": {"conversation": {}}}}"#, "expected GET for a WebSocket route"),
        (#"{"path": "/a", "websocket": {}, "variants": {"x": {"conversation": {"onOpen": [{"file": "../secret.message.bin"}]}}}}"#,
         "expected a file beside route.json named <name>.message.<ext> (like frame.message.bin), found \"../secret.message.bin\""),
        (#"{"path": "/a", "websocket": {}, "variants": {"x": {"conversation": {"onOpen": [{"file": "gone.message.bin"}]}}}}"#,
         "svc/a/gone.message.bin"),
        (#"{"path": "/a", "websocket": {}, "variants": {"x": {"conversation": {"onOpen": [{"text": "a", "json": 1}]}}}}"#,
         "variants.x.conversation.onOpen[0].json: expected one of text, json, base64, file or echo in a message, found a second"),
        (#"{"path": "/a", "websocket": {}, "variants": {"x": {"conversation": {"close": {"afterMs": 5, "code": 1005}}}}}"#,
         "variants.x.conversation.close.code: expected a close code a server may send"),
        (#"{"path": "/a", "websocket": {}, "variants": {"x": {"conversation": {"close": {"code": 1000}}}}}"#,
         "variants.x.conversation.close: expected afterMessages or afterMs"),
        (#"{"path": "/a", "websocket": {}, "variants": {"x": {"conversation": {"replies": [{"when": {"matches": "(("}}]}}}}"#,
         "variants.x.conversation.replies[0].when.matches: expected a regular expression"),
        (#"{"path": "/a", "websocket": {"subprotocols": ["a b"]}, "variants": {"x": {"conversation": {}}}}"#,
         "websocket.subprotocols[0]: expected a token"),
    ])
    func brokenConversationsAreExplained(route: String, expected: String) async throws {
        let folder = try TemporaryStubDirectory(["svc/a/route.json": route])
        let check = try await Subprocess.run(Repository.stubdBinary, ["check", folder.url.path])
        #expect(check.exitCode == 1)
        #expect((check.stdout + check.stderr).contains("svc/a/route.json"), "\(check.stdout)\(check.stderr)")
        #expect((check.stdout + check.stderr).contains(expected), "\(check.stdout)\(check.stderr)")
    }
}

