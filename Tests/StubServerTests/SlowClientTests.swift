import Foundation
@testable import StubServer
import StubTesting
import Testing

/// Clients that hold connections open by sending a byte at a time: cut off at the head deadline,
/// and never able to take every slot.
@Suite struct SlowClientTests {
    @Test func slowClientsAreCutOffAndExcessConnectionsAreRefusedAtOnce() async throws {
        try await withServer(configure: {
            $0.connectionLimit = 12
            $0.maxClientConnections = 6
            $0.headerTimeoutMs = 800
        }) { server in
            var slow: [RawSocket] = []
            for _ in 0..<6 {
                let socket = try RawSocket(port: server.port)
                socket.send(Array("GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
                slow.append(socket)
            }
            try await Task.sleep(nanoseconds: 200_000_000)
            // The seventh connection from this address is closed at once, not left in the backlog.
            let started = monotonicMs()
            let refused = try RawSocket(port: server.port)
            refused.send(Array("GET /api/v1/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(await refused.read(timeoutSeconds: 5).isEmpty)
            #expect(monotonicMs() - started < 4000, "refused, not left waiting")
            #expect(server.bridge.admission.counts.refusedPerClient >= 1)
            // A byte at a time does not keep a connection: each is closed at the deadline.
            for socket in slow { socket.send(Array("a".utf8)) }
            for socket in slow { #expect(await socket.read(timeoutSeconds: 5).isEmpty) }
            #expect(server.bridge.admission.counts.timedOut == 6)
            let after = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(after.status == 200)
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
