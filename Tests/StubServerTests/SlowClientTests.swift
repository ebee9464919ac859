import Foundation
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Clients that hold connections open by sending a byte at a time: cut off at the head deadline,
/// and never able to take every slot.
@Suite(.timeLimit(.minutes(3))) struct SlowClientTests {
    /// Opens `count` connections that send part of a head and stop.
    func slowClients(_ count: Int, port: Int) throws -> [RawSocket] {
        try (0..<count).map { _ in
            let socket = try RawSocket(port: port)
            socket.send(Array("GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
            return socket
        }
    }

    @Test func connectionsOverThePerClientCapAreRefusedAtOnce() async throws {
        try await withServer(configure: {
            $0.connectionLimit = 12
            $0.maxClientConnections = 6
            $0.headerTimeoutMs = 120_000
        }) { server in
            let slow = try slowClients(6, port: server.port)
            // Wait until the server holds all six (the test's own threads may be slow to run).
            for _ in 0..<200 where server.bridge.admission.counts.open < 6 { try await Task.sleep(nanoseconds: 20_000_000) }
            #expect(server.bridge.admission.counts.open == 6)
            // The seventh connection from this address is closed at once, not left in the backlog.
            let refused = try RawSocket(port: server.port)
            refused.send(Array("GET /api/v1/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(await refused.read(timeoutSeconds: 8).isEmpty)
            #expect(server.bridge.admission.counts.refusedPerClient >= 1)
            _ = slow
        }
    }

    @Test func aByteAtATimeDoesNotKeepAConnection() async throws {
        try await withServer(configure: { $0.headerTimeoutMs = 500 }) { server in
            let slow = try slowClients(6, port: server.port)
            for socket in slow { socket.send(Array("a".utf8)) }
            for socket in slow { #expect(await socket.read(timeoutSeconds: 8).isEmpty) }
            #expect(server.bridge.admission.counts.timedOut == 6, "\(server.bridge.admission.counts)")
            let after = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(after.status == 200)
        }
    }

    @Test func aBodySentSlowerThanTheMinimumRateIsCutOff() async throws {
        try await withServer(configure: { $0.bodyTimeoutMs = 600; $0.minBodyRate = 1000 }) { server in
            // A full head, then a byte now and then: each byte resets libmicrohttpd's idle timer,
            // but the body's deadline only moves a millisecond per byte.
            let slow = try (0..<4).map { _ in try RawSocket(port: server.port) }
            for socket in slow { socket.send(Array("POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{".utf8)) }
            for _ in 0..<6 {
                try await Task.sleep(nanoseconds: 200_000_000)
                for socket in slow { socket.send(Array(" ".utf8)) }
            }
            for socket in slow { #expect(await socket.read(timeoutSeconds: 8).isEmpty) }
            #expect(server.bridge.admission.counts.slowBodies == 4, "\(server.bridge.admission.counts)")
            // A body at speed is not cut, however long it is.
            let big = Data(("{\"n\": \"" + String(repeating: "x", count: 2_000_000) + "\"}").utf8)
            let fast = try await HTTPClient.fetch(server.url("/api/v1/changePass"), method: "POST", headers: ["Content-Type": "application/json"], body: big)
            #expect(fast.status != 0 && server.bridge.admission.counts.slowBodies == 4)
        }
    }

    @Test func atTheLimitTheSlowestSenderMakesRoomForANewClient() async throws {
        try await withServer(configure: { $0.connectionLimit = 8; $0.headerTimeoutMs = 120_000; $0.bodyTimeoutMs = 120_000 }) { server in
            // Every slot taken: six slow heads and two slow bodies.
            var slow = try slowClients(6, port: server.port)
            for _ in 0..<2 {
                let body = try RawSocket(port: server.port)
                body.send(Array("POST /api/v1/changePass HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{".utf8))
                slow.append(body)
            }
            for _ in 0..<200 where server.bridge.admission.counts.open < 8 { try await Task.sleep(nanoseconds: 20_000_000) }
            #expect(server.bridge.admission.counts.open == 8)
            // Ten normal requests, one after another: each is admitted by closing a slow sender.
            for _ in 0..<10 {
                let fetched = try await HTTPClient.fetch(server.url("/api/v1/users/1"), session: HTTPClient.session(timeout: 5))
                #expect(fetched.status == 200)
            }
            #expect(server.bridge.admission.counts.evicted >= 1 && server.bridge.admission.counts.refusedFull == 0, "\(server.bridge.admission.counts)")
            _ = slow
        }
    }

    @Test func aClientThatSentItsRequestAndFINTogetherIsClosedOnceAnswered() async throws {
        try await withServer { server in
            // Request and FIN in one go, many times: on edge-triggered epoll libmicrohttpd can miss
            // the end of file and keep the connection until its idle timeout.
            let sockets = try (0..<40).map { _ in try RawSocket(port: server.port) }
            for socket in sockets {
                socket.send(Array("GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                socket.finishSending()
            }
            // Each is answered and then closed by the server, within the sweeper's quarter second.
            for _ in 0..<150 where server.bridge.admission.counts.open > 0 { try await Task.sleep(nanoseconds: 20_000_000) }
            let open = server.bridge.admission.counts.open
            #expect(open == 0, "\(open) half-closed connection(s) kept open")
            guard open == 0 else { return }
            for socket in sockets {
                let answer = String(decoding: await socket.read(timeoutSeconds: 2), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    @Test func aQuietKeptAliveConnectionIsClosedAfterTheIdleTime() async throws {
        try await withServer(configure: { $0.idleTimeoutSeconds = 1 }) { server in
            let socket = try RawSocket(port: server.port)
            socket.send(Array("GET /api/v1/users/1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let start = ContinuousClock.now
            // Read until the server closes, or 8 s pass with nothing more.
            let answer = String(decoding: await socket.read(timeoutSeconds: 8), as: UTF8.self)
            let waited = ContinuousClock.now - start
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(waited > .milliseconds(900) && waited < .seconds(6), "closed after \(waited)")
            for _ in 0..<100 where server.bridge.admission.counts.open > 0 { try await Task.sleep(nanoseconds: 20_000_000) }
            #expect(server.bridge.admission.counts.open == 0)
        }
    }

    @Test func aClientThatStopsReadingItsAnswerIsCutOffAfterTheIdleTime() async throws {
        // 8 MB cannot sit in the sockets' buffers: the server is left with bytes it cannot send.
        let big = String(repeating: "x", count: 8 << 20)
        let stubs = try TemporaryStubDirectory(["svc/big/route.json": #"{"method": "GET", "path": "/big"}"#,
                                                "svc/big/200.json": #"{"data": "\#(big)"}"#])
        try await withServer(stubs: stubs.url, configure: { $0.idleTimeoutSeconds = 1 }) { server in
            let socket = try RawSocket(port: server.port)
            var small: Int32 = 4096
            setsockopt(socket.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            socket.send(Array("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            for _ in 0..<100 where server.bridge.admission.counts.open == 0 { try await Task.sleep(nanoseconds: 20_000_000) }
            #expect(server.bridge.admission.counts.open == 1)
            // Never read: the connection must be gone within the idle time and some slack.
            for _ in 0..<300 where server.bridge.admission.counts.open > 0 { try await Task.sleep(nanoseconds: 20_000_000) }
            #expect(server.bridge.admission.counts.open == 0, "a client that stopped reading kept its connection")
            _ = socket
        }
    }

    @Test func aKeptAliveConnectionIsNotCutWhileItsRequestWaits() async throws {
        try await withServer(configure: { $0.headerTimeoutMs = 300 }) { server in
            // A delay longer than the head deadline: the deadline covers the head only.
            let fetched = try await HTTPClient.fetch(server.url("/api/v1/users?__delay=800"))
            #expect(fetched.status == 200)
            #expect(server.bridge.admission.counts.timedOut == 0)
        }
    }

    @Test func thePerClientCapIsOffOnLoopbackAndHalfTheLimitElsewhere() {
        var configuration = StubServerConfiguration()
        configuration.connectionLimit = 1000
        #expect(configuration.admissionLimits.perClient == 0)
        configuration.host = "0.0.0.0"
        #expect(configuration.admissionLimits.perClient == 500)
        configuration.maxClientConnections = 7
        #expect(configuration.admissionLimits.perClient == 7)
    }

    @Test func loopbackAddressesInEveryFormAreLoopback() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"] {
            var configuration = StubServerConfiguration()
            configuration.host = host
            #expect(configuration.bindsLoopback, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.2", "::ffff:10.0.0.1"] {
            var configuration = StubServerConfiguration()
            configuration.host = host
            #expect(!configuration.bindsLoopback, "\(host)")
        }
    }
}
