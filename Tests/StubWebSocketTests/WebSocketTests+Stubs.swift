import Foundation
import StubServer
import StubTestSupport
import StubTesting
import StubdClient
import Testing

/// WebSocket routes as stubs: templated messages, messages from files, sessions, overrides and
/// holds on the handshake, and a second independent client.
extension WebSocketTests {
    @Test(.requires(.websockets))
    func templatedMessagesAndMessagesFromFiles() async throws {
        let folder = try TemporaryStubDirectory([
            "t/room/route.json": #"""
            {"path": "/t/{room}", "websocket": {}, "variants": {"t": {"conversation": {
              "onOpen": [{"text": "welcome to {{path.room}}, {{query.name}}", "template": true}],
              "replies": [{"send": [{"json": {"echoed": "{{body.text}}", "app": "{{header.X-App}}"}, "template": true}]}]}}}}
            """#,
            // Messages from files beside route.json: bytes as a binary frame, .txt as text.
            "f/route.json": #"{"path": "/file", "websocket": {}, "variants": {"f": {"conversation": {"onOpen": [{"file": "frame.message.bin"}, {"file": "hello.message.txt"}]}}}}"#,
            "f/frame.message.bin": "\u{0}\u{1}\u{2}\u{7F}",
            "f/hello.message.txt": "hello from a file",
        ])
        try await withServer(stubs: folder.url) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_template.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, WebSocketTests.webSocketURL(server)])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(seen["welcome"] as? String == "welcome to lobby, Ann")
            // A quote in the client's text is escaped: the reply is still JSON.
            let reply = try #require(seen["reply"] as? [String: String])
            #expect(reply == ["echoed": #"hi "there""#, "app": "Shop/1.2"])
            #expect(seen["fileBytes"] as? [Int] == [0, 1, 2, 127])
            #expect(seen["fileText"] as? String == "hello from a file")
            // The handshake's Origin is kept with the conversation.
            let record = try await StubdClient(baseURL: server.baseURL).conversations(route: "t/room")
            #expect(record.first?.origin == "https://app.example", "\(record)")
        }
    }

    /// The handshake picks its variant as any request does: an override for one session (by the
    /// path prefix or the header) leaves everyone else's conversation alone, and a hold keeps
    /// the handshake waiting until released.
    @Test(.requires(.websockets))
    func sessionsOverridesAndHoldsPickTheConversation() async throws {
        let folder = try TemporaryStubDirectory(WebSocketTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let base = WebSocketTests.webSocketURL(server)
            let script = Repository.root.appendingPathComponent("Tests/Clients/ws_first.py").path
            func first(_ url: String, _ extra: [String] = []) async throws -> String {
                let run = try await Subprocess.run("/usr/bin/env", ["python3", script, url] + extra)
                return run.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? run.stderr
            }
            _ = try await AdminClient(server: server, session: "qa").call("PUT", "/routes/chat/room", json: #"{"variant": "flaky"}"#)
            #expect(try await first(base + "/__session/qa/chat/lobby") == "hi")
            #expect(try await first(base + "/chat/lobby", ["qa"]) == "hi")
            #expect(try await first(base + "/chat/lobby") == "welcome", "another session's override is not everyone's")
            // A hold: the handshake waits, unanswered, until the test lets it go.
            let admin = AdminClient(server: server)
            _ = try await admin.call("PUT", "/routes/chat/room", json: #"{"hold": true}"#)
            let waiting = try Spawned("/usr/bin/env", ["python3", script, base + "/chat/lobby"])
            #expect(waiting.readLine().hasPrefix("connecting"))
            #expect(try await eventually(10) { (try? await admin.object("GET", "/routes/chat/room"))?["held"] as? Int == 1 })
            #expect(try await StubdClient(baseURL: server.baseURL).conversations(openOnly: true).isEmpty, "no conversation before the release")
            _ = try await admin.call("POST", "/routes/chat/room/release")
            #expect(waiting.readLine().hasPrefix("welcome"), "the released handshake gets its conversation")
        }
    }

    /// A second client, independent of `websockets`: wsproto (python-hyper's sans-IO protocol),
    /// with a ping and a message sent in two fragments.
    @Test(.requires(.wsproto))
    func wsprotoHoldsTheShippedChatRoom() async throws {
        try await withServer { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/wsproto_chat.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, "127.0.0.1", String(server.port)])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(seen["subprotocol"] as? String == "chat.v1")
            #expect(seen["pong"] as? String == "are you there")
            #expect((seen["texts"] as? [String])?.suffix(2) == ["Hi there!", "See you!"], "\(seen)")
            let close = seen["close"] as? [Any]
            #expect(close?.first as? Int == 1000 && close?.last as? String == "bye", "\(seen)")
        }
    }

    /// `"ping": {"everyMs": N}`: the server pings on its own, and the client's pongs keep nothing going wrong.
    @Test(.requires(.wsproto))
    func theServerPingsWhenAsked() async throws {
        let folder = try TemporaryStubDirectory(["p/route.json": #"{"path": "/p", "websocket": {}, "variants": {"p": {"conversation": {"ping": {"everyMs": 100}}}}}"#])
        try await withServer(stubs: folder.url) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/wsproto_pings.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, "127.0.0.1", String(server.port), "/p", "1"])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            #expect(seen["accepted"] as? Bool == true)
            // About ten in a second; the count is loose, the machine may be busy.
            #expect((seen["pings"] as? Int ?? 0) >= 3, "\(seen)")
            #expect((seen["payloads"] as? [String])?.allSatisfy { $0.hasPrefix("stubd ") } == true)
            let client = StubdClient(baseURL: server.baseURL)
            #expect(try await eventually(5) { try await client.conversations(openOnly: true).isEmpty }, "the client left; its conversation ended")
        }
    }
}
