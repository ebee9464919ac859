import Foundation
import StubCore
import StubFleet
import StubServer
import StubTestSupport
import StubTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replicas sharing control state through a real Redis (or Valkey): three in-process servers on
/// one store, talked to over real sockets as a client fleet would.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetTests {
    static let users = "/api/v1/users"

    /// Starts `count` replicas named r1… on `store` and always stops them.
    static func withFleet<T>(_ store: StoreFixture, count: Int = 3, configure: (inout StubServerConfiguration) -> Void = { _ in },
                             _ body: ([StubServer]) async throws -> T) async throws -> T {
        var servers: [StubServer] = []
        defer { for server in servers { server.stop() } }
        for i in 1...count {
            var configuration = StubServerConfiguration()
            configuration.sharedState = try SharedStateStore.redis(store.url, authorities: store.tlsAuthority, replica: "r\(i)")
            configure(&configuration)
            servers.append(try StubServer(stubsAt: Repository.shippedStubs, configuration: configuration))
        }
        return try await body(servers)
    }

    static func status(_ server: StubServer, _ path: String = users, session: String? = nil) async throws -> Int {
        try await HTTPClient.fetch(server.url(path), headers: session.map { ["X-Stub-Session": $0] } ?? [:]).status
    }

    static func admin(_ server: StubServer, _ method: String, _ path: String, json: String? = nil, session: String? = nil) async throws -> [String: Any] {
        try await AdminClient(server: server, session: session).object(method, path, json: json)
    }

    @Test func anOverrideSetThroughOneReplicaIsServedByEveryReplica() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            let set = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"variant": "503"}"#)
            #expect((set["override"] as? [String: Any])?["variant"] as? String == "503")
            // The PUT returns once every replica serves the change: no waiting needed.
            for server in fleet { #expect(try await FleetTests.status(server) == 503) }
            _ = try await FleetTests.admin(fleet[2], "DELETE", "/routes/app/users")
            for server in fleet { #expect(try await FleetTests.status(server) == 200) }
        }
    }

    @Test func aSequenceAcrossRoundRobinReplicasPlaysOnce() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            _ = try await FleetTests.admin(fleet[1], "PUT", "/routes/app/users", json: #"{"sequence": ["503", "503", "500", "200-empty"]}"#)
            var statuses: [Int] = []
            for i in 0..<9 { statuses.append(try await FleetTests.status(fleet[i % 3])) }
            #expect(statuses == [503, 503, 500, 200, 200, 200, 200, 200, 200])
            let journal = try await FleetTests.admin(fleet[2], "GET", "/journal?route=app/users")
            let variants = (journal["requests"] as? [[String: Any]] ?? []).map { $0["variant"] as? String ?? "-" }
            #expect(variants.prefix(4) == ["503", "503", "500", "200-empty"])
            let remaining = try await FleetTests.admin(fleet[0], "GET", "/routes/app/users")
            #expect((remaining["override"] as? [String: Any])?["sequenceRemaining"] as? [String] == [])
        }
    }

    @Test func sessionsStayApartAcrossReplicas() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"variant": "500"}"#, session: "team-a")
            #expect(try await FleetTests.status(fleet[1], session: "team-a") == 500)
            #expect(try await FleetTests.status(fleet[2], session: "team-b") == 200)
            #expect(try await FleetTests.status(fleet[2]) == 200)
            _ = try await FleetTests.admin(fleet[2], "POST", "/reset", session: "team-a")
            #expect(try await FleetTests.status(fleet[1], session: "team-a") == 200)
        }
    }

    @Test func anUnusedSessionExpiresInTheStoreForEveryReplica() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store, count: 2, configure: { $0.sessionTTLSeconds = 1 }) { fleet in
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"variant": "500"}"#, session: "short")
            #expect(try await FleetTests.status(fleet[1], session: "short") == 500)
            #expect(StoreFixture.send(store.port, "TTL stubd:overrides:s5:short").flatMap { Int($0.dropFirst()) }.map { $0 >= 0 && $0 <= 1 } == true)
            // Idle past the TTL: the store lets the session go, and every replica follows at its next read.
            // (The use above moves the expiry on at the next once-a-second flush: up to 2 s in all.)
            #expect(try await eventually(4) { StoreFixture.send(store.port, "EXISTS stubd:overrides:s5:short") == ":0" })
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/user", json: #"{"variant": "404"}"#)
            #expect(try await FleetTests.status(fleet[1], session: "short") == 200)
        }
    }

    @Test func theJournalOnAnyReplicaHoldsEveryReplicasRequests() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            for i in 0..<30 { _ = try await FleetTests.status(fleet[i % 3], "/api/v1/users/\(i)") }
            for server in fleet {
                let counted = try await eventually {
                    try await FleetTests.admin(server, "GET", "/journal/count")["count"] as? Int == 30
                }
                #expect(counted)
            }
            let entries = try await FleetTests.admin(fleet[1], "GET", "/journal")["requests"] as? [[String: Any]] ?? []
            #expect(Set(entries.compactMap { $0["replica"] as? String }) == ["r1", "r2", "r3"])
            #expect(entries.compactMap { $0["path"] as? String } == (0..<30).map { "/api/v1/users/\($0)" })
            let limited = try await FleetTests.admin(fleet[0], "GET", "/journal?path=/api/v1/users/7")["requests"] as? [[String: Any]] ?? []
            #expect(limited.count == 1 && limited.first?["replica"] as? String == "r2")
            _ = try await FleetTests.admin(fleet[2], "DELETE", "/journal")
            #expect(try await FleetTests.admin(fleet[0], "GET", "/journal/count")["count"] as? Int == 0)
        }
    }

    @Test func aHoldSetOnOneReplicaIsReleasedFromAnother() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"hold": true}"#)
            // One at a time, so the first is the oldest: a release takes the oldest first.
            let first = Task { try await FleetTests.status(fleet[1]) }
            #expect(try await eventually { try await FleetTests.admin(fleet[0], "GET", "/routes/app/users")["held"] as? Int == 1 })
            let second = Task { try await FleetTests.status(fleet[2]) }
            #expect(try await eventually { try await FleetTests.admin(fleet[0], "GET", "/routes/app/users")["held"] as? Int == 2 })
            let released = try await FleetTests.admin(fleet[2], "POST", "/routes/app/users/release", json: #"{"count": 1}"#)
            #expect(released["released"] as? Int == 1)
            #expect(try await first.value == 200)
            #expect(try await FleetTests.admin(fleet[1], "GET", "/routes/app/users")["held"] as? Int == 1)
            _ = try await FleetTests.admin(fleet[1], "DELETE", "/routes/app/users")
            #expect(try await second.value == 200)
        }
    }

    @Test func aStoreThatStopsAndComesBackLosesNoAnswerAndNoOverride() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store, count: 2) { fleet in
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
            store.stop()
            let degraded = try await eventually(2) {
                try await FleetTests.admin(fleet[1], "GET", "/health")["status"] as? String == "degraded"
            }
            #expect(degraded)
            let report = try await FleetTests.admin(fleet[1], "GET", "/health")["store"] as? [String: Any]
            #expect(report?["status"] as? String == "unreachable")
            // Answers keep coming from the last known state; changes are refused, not half made.
            for server in fleet { #expect(try await FleetTests.status(server) == 500) }
            let refused = try await AdminClient(server: fleet[0]).call("PUT", "/routes/app/users", json: #"{"variant": "503"}"#)
            #expect(refused.status == 503)
            // Back empty (no persistence): the replicas write back what they had.
            try store.start()
            let recovered = try await eventually(3) {
                try await FleetTests.admin(fleet[0], "GET", "/health")["status"] as? String == "ok"
            }
            #expect(recovered)
            #expect(StoreFixture.send(store.port, "HLEN stubd:overrides:g") == ":1")
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"variant": "503"}"#)
            for server in fleet { #expect(try await FleetTests.status(server) == 503) }
            // The requests answered while the store was away, and those sent before it lost them, are all there.
            #expect(try await FleetTests.admin(fleet[1], "GET", "/journal/count")["count"] as? Int == 4)
            let entries = try await FleetTests.admin(fleet[0], "GET", "/journal")["requests"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["status"] as? Int } == [500, 500, 503, 503])
        }
    }

    @Test func aStoreAwayAtStartIsUsedOnceItAnswers() async throws {
        let store = try StoreFixture()
        try await FleetTests.withFleet(store, count: 1) { fleet in
            #expect(try await FleetTests.status(fleet[0]) == 200)
            let health = try await FleetTests.admin(fleet[0], "GET", "/health")
            #expect(health["status"] as? String == "degraded")
            #expect((health["store"] as? [String: Any])?["error"] as? String != nil)
            try store.start()
            let up = try await eventually(3) {
                try await FleetTests.admin(fleet[0], "GET", "/health")["status"] as? String == "ok"
            }
            #expect(up)
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"variant": "503"}"#)
            #expect(StoreFixture.send(store.port, "HLEN stubd:overrides:g") == ":1")
        }
    }

    @Test func replicasShareStateOverTLSAndRefuseAnUntrustedStore() async throws {
        let store = try StoreFixture()
        try await store.useTLS()
        try store.start()
        try await FleetTests.withFleet(store, count: 2) { fleet in
            let health = try await FleetTests.admin(fleet[0], "GET", "/health")["store"] as? [String: Any]
            #expect(health?["status"] as? String == "ok" && (health?["url"] as? String)?.hasPrefix("rediss://localhost:") == true, "\(health ?? [:])")
            _ = try await FleetTests.admin(fleet[0], "PUT", "/routes/app/users", json: #"{"sequence": ["503", "200-empty"]}"#)
            #expect(try await FleetTests.status(fleet[1]) == 503)
            #expect(try await FleetTests.status(fleet[0]) == 200)
            #expect(try await FleetTests.admin(fleet[1], "GET", "/journal/count")["count"] as? Int == 2)
        }
        // Without the store's authority the certificate check fails, and health says why.
        var configuration = StubServerConfiguration()
        configuration.sharedState = try SharedStateStore.redis(store.url, replica: "untrusting")
        let server = try StubServer(stubsAt: Repository.shippedStubs, configuration: configuration)
        defer { server.stop() }
        let report = try await FleetTests.admin(server, "GET", "/health")["store"] as? [String: Any]
        #expect(report?["status"] as? String == "unreachable")
        #expect((report?["error"] as? String)?.contains("TLS") == true, "\(report ?? [:])")
    }

    @Test func aTLSURLForAPlainStoreFailsInsteadOfWaitingForever() async throws {
        let store = try StoreFixture()
        try store.start()
        var configuration = StubServerConfiguration()
        configuration.sharedState = try SharedStateStore.redis("rediss://127.0.0.1:\(store.port)", replica: "wrong-scheme")
        let server = try StubServer(stubsAt: Repository.shippedStubs, configuration: configuration)
        defer { server.stop() }
        #expect(try await FleetTests.status(server) == 200)
        let report = try await FleetTests.admin(server, "GET", "/health")["store"] as? [String: Any]
        #expect(report?["status"] as? String == "unreachable")
        #expect((report?["error"] as? String)?.contains("is it a TLS port?") == true, "\(report ?? [:])")
    }

    @Test func healthSaysWhenReplicasServeDifferentStubs() async throws {
        let store = try StoreFixture()
        try store.start()
        let one = try TemporaryStubDirectory(["svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#, "svc/hello/200.json": #"{"v": 1}"#])
        let two = try TemporaryStubDirectory(["svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#, "svc/hello/200.json": #"{"v": 2}"#])
        var servers: [StubServer] = []
        defer { for server in servers { server.stop() } }
        for (i, stubs) in [one.url, two.url].enumerated() {
            var configuration = StubServerConfiguration()
            configuration.sharedState = try SharedStateStore.redis(store.url, replica: "r\(i + 1)")
            servers.append(try StubServer(stubsAt: stubs, configuration: configuration))
        }
        let differ = try await eventually(4) {
            let report = try await FleetTests.admin(servers[0], "GET", "/health")["store"] as? [String: Any]
            return (report?["replicas"] as? [Any])?.count == 2 && report?["sameStubs"] as? Bool == false
        }
        #expect(differ)
    }
}
