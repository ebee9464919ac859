import Foundation
import StubCore
import StubServer
import StubSystem
import StubTestSupport
import StubTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one WebSocket client can do to the others, from raw sockets: flood, stop reading, sit
/// idle, send a message and its close together; and handshakes that are not an HTTP/1.1 GET.
/// The figures (reply times under a flood, memory, wss against ws) are bench/websocket-assault.py's.
@Suite(.timeLimit(.minutes(3))) struct WebSocketBoundsTests {
    static let stubs = [
        "ws/echo/route.json": #"{"path": "/ws/echo", "websocket": {}, "variants": {"echo": {"conversation": {"replies": [{"send": [{"echo": true}]}]}}}}"#,
        "ws/quiet/route.json": #"{"path": "/ws/quiet", "websocket": {}, "variants": {"quiet": {"conversation": {"onOpen": [{"text": "hi"}]}}}}"#,
        "ws/room/route.json": #"""
        {"path": "/ws/room", "websocket": {}, "default": "room", "variants": {
          "room": {"conversation": {"replies": [{"when": {"text": "hello"}, "send": [{"text": "hi there"}]}, {"send": [{"text": "?"}]}]}},
          "drops": {"conversation": {"replies": [{"send": [{"text": "delivered"}]}], "close": {"afterMessages": 3, "drop": true}}}
        }}
        """#,
        "app/ping/route.json": #"{"method": "GET", "path": "/ping"}"#,
        "app/ping/200.json": #"{"ok": true}"#,
    ]

    @Test func aFloodingClientLeavesEveryOtherConversationItsTurn() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let flooder = try RawWebSocket(port: server.port, path: "/ws/room")
            #expect(flooder.upgraded, "\(flooder.statusLine)")
            // One-byte messages as fast as the socket takes them, the replies read and dropped.
            let batch = Array(repeating: RawWebSocket.frame(Array("a".utf8)), count: 4096).flatMap { $0 }
            let flooding = Task.detached {
                try await OffPool.run {
                    for _ in 0..<60 { flooder.socket.send(batch) }
                }
            }
            let draining = Task.detached { try await OffPool.run { _ = flooder.socket.readAll(timeoutSeconds: 3) } }
            // Before the hub read in slices, the flooding client's read never ended: no reply in 90 s.
            for attempt in 0..<5 {
                let probe = try RawWebSocket(port: server.port, path: "/ws/room")
                #expect(probe.upgraded)
                probe.send("hello")
                let reply = probe.next(timeoutSeconds: 5)
                #expect(reply?.text == "hi there", "probe \(attempt): \(String(describing: reply))")
            }
            // The server stops while the flood goes on (before, it waited on the flooded thread for good).
            server.stop()
            _ = try await flooding.value
            _ = try await draining.value
        }
    }

    @Test func aClientThatNeverReadsIsNotReadEither() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url, configure: { $0.webSocketMaxQueueBytes = 1 << 20 }) { server in
            let client = try RawWebSocket(port: server.port, path: "/ws/echo")
            #expect(client.upgraded)
            var timeout = LibC.timeval(seconds: 1)
            setsockopt(client.socket.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let message = RawWebSocket.frame([UInt8](repeating: 7, count: 1 << 20), opcode: 2)
            // 256 MiB offered; stubd stops reading once 1 MiB of echoes waits for this client, so
            // the writes stall after what the socket buffers on both sides hold. Before the bound
            // every byte was read and its echo queued (about 200 MB a second).
            var accepted = 0
            for _ in 0..<256 {
                let sent = message.withUnsafeBytes { LibC.sendNoSignal(client.socket.fd, $0.baseAddress, $0.count) }
                guard sent > 0 else { break }
                accepted += sent
                if sent < message.count { break }
            }
            #expect(accepted < 64 << 20, "the server took \(accepted) bytes from a client that reads nothing")
            // Others are still served meanwhile.
            let other = try RawWebSocket(port: server.port, path: "/ws/echo")
            other.send("still here")
            #expect(other.next(timeoutSeconds: 5)?.text == "still here")
        }
    }

    @Test func pushesToAClientThatNeverReadsEndItWith1008() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url, configure: { $0.webSocketMaxQueueBytes = 64 << 10 }) { server in
            let client = try RawWebSocket(port: server.port, path: "/ws/quiet")
            #expect(client.next()?.text == "hi")
            let id = try #require(server.control.conversations.list(route: "ws/quiet", openOnly: true).first?.id)
            // 64 MiB pushed at a client that reads nothing: past four times its 64 KiB bound it is closed.
            for _ in 0..<64 { _ = server.control.conversations.send(.binary([UInt8](repeating: 1, count: 1 << 20)), to: [id]) }
            try await waitUntil("the conversation's end", seconds: 10) { server.control.conversations.entry(id)?.ending != nil }
            let ending = server.control.conversations.entry(id)?.ending
            #expect(ending?.code == 1008, "\(String(describing: ending))")
            #expect(ending?.reason.contains("not reading") == true, "\(String(describing: ending))")
        }
    }

    @Test func aQuietConversationIsClosedAfterTheIdleLimit() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url, configure: { $0.webSocketIdleTimeoutMs = 300 }) { server in
            let client = try RawWebSocket(port: server.port, path: "/ws/quiet")
            #expect(client.next()?.text == "hi")
            let close = client.next(timeoutSeconds: 10)
            #expect(close?.opcode == 8 && close?.closeCode == 1001, "\(String(describing: close))")
            #expect(close?.payload.dropFirst(2).elementsEqual("idle timeout".utf8) == true)
            try await waitUntil("the conversation's end") { server.control.conversations.list(route: "ws/quiet").first?.ending != nil }
            let ending = server.control.conversations.list(route: "ws/quiet").first?.ending
            #expect(ending?.by == "server" && ending?.code == 1001, "\(String(describing: ending))")
        }
    }

    @Test func conversationsNeverTakeTheConnectionsPlainRequestsNeed() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url, configure: { $0.connectionLimit = 8 }) { server in
            // Three quarters of 8: six conversations; the seventh handshake gets a 503.
            var open: [RawWebSocket] = []
            for _ in 0..<6 {
                let client = try RawWebSocket(port: server.port, path: "/ws/quiet")
                #expect(client.upgraded, "\(client.statusLine)")
                open.append(client)
            }
            let refused = try RawWebSocket(port: server.port, path: "/ws/quiet")
            #expect(refused.statusLine.hasPrefix("HTTP/1.1 503"), "\(refused.statusLine)")
            let plain = try await HTTPClient.fetch(server.url("/ping"))
            #expect(plain.status == 200)
            // A conversation that ends gives its place back.
            open.removeLast()
            let again = try await eventually(5) { (try? RawWebSocket(port: server.port, path: "/ws/quiet"))?.upgraded == true }
            #expect(again)
        }
    }

    @Test func theDropFaultSendsTheLastRepliesFirst() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let client = try RawWebSocket(port: server.port, path: "/ws/room?__variant=drops")
            #expect(client.upgraded)
            // Three messages in one write: the three replies go out, then the connection drops.
            client.socket.send((1...3).flatMap { RawWebSocket.frame(Array("m\($0)".utf8)) })
            let (frames, closed) = client.framesToEnd()
            #expect(frames.map(\.text) == ["delivered", "delivered", "delivered"], "\(frames.map(\.opcode))")
            #expect(closed && !frames.contains { $0.opcode == 8 })
        }
    }

    @Test func aMessageAndItsCloseInOneWriteGetTheReplyFirst() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let client = try RawWebSocket(port: server.port, path: "/ws/echo")
            client.socket.send(RawWebSocket.frame(Array("last words".utf8)) + RawWebSocket.frame(RawWebSocket.closePayload(1000), opcode: 8))
            let (frames, _) = client.framesToEnd()
            #expect(frames.map(\.opcode) == [1, 8], "\(frames.map(\.opcode))")
            #expect(frames.first?.text == "last words")
            #expect(frames.last?.closeCode == 1000)
        }
    }

    @Test func handshakesThatCannotSwitchAreRefusedAndJournaledAsSent() async throws {
        let folder = try TemporaryStubDirectory(WebSocketBoundsTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
            let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            let requests = [
                "HTTP/1.0": "GET /ws/echo HTTP/1.0\r\nHost: a\r\n\(upgrade)\(key)\r\n\r\n",
                "HEAD": "HEAD /ws/echo HTTP/1.1\r\nHost: a\r\n\(upgrade)\(key)\r\n\r\n",
                "two keys": "GET /ws/echo HTTP/1.1\r\nHost: a\r\n\(upgrade)\(key)\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n\r\n",
            ]
            for (name, request) in requests {
                let socket = try RawSocket(port: server.port)
                socket.send(Array(request.utf8))
                let answer = String(decoding: socket.readSome(timeoutSeconds: 5), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 400") || answer.hasPrefix("HTTP/1.0 400"), "\(name): \(answer.prefix(200))")
            }
            let statuses = server.journal(route: "ws/echo").map(\.status)
            #expect(statuses == [400, 400, 400], "\(statuses)")
        }
    }
}
