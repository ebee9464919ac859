import Foundation
@testable import StubServer
import StubTesting
import Testing

/// Clients that hold connections open by sending a byte at a time: cut off at the head deadline,
/// and never able to take every slot.
@Suite struct SlowClientTests {
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
