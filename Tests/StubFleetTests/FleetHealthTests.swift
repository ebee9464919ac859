import Foundation
import StubServer
import Testing
import StubTestSupport

/// What health says about the store's state beyond reachability, against a real redis-server.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetHealthTests {
    @Test func overridesTheStoreHoldsButNoReplicaCanReadShowInHealth() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store, count: 1) { servers in
            let health = { try await AdminClient(server: servers[0]).object("GET", "/health") }
            #expect(try await health()["status"] as? String == "ok")
            // Written by something else (another version, a hand edit): no replica can read it.
            for command in ["HSET stubd:overrides:g app/users not-an-override", "SADD stubd:scopes g", "INCR stubd:version"] {
                #expect(StoreFixture.send(store.port, command) != nil, "\(command)")
            }
            let seen = try await eventually {
                let report = try await health()
                return report["status"] as? String == "degraded"
                    && ((report["store"] as? [String: Any])?["unreadableOverrides"] as? [String]) == ["g app/users"]
            }
            let report = try await health()
            #expect(seen, "\(report)")
            // Gone from the store: health is ok again.
            for command in ["DEL stubd:overrides:g", "INCR stubd:version"] { _ = StoreFixture.send(store.port, command) }
            #expect(try await eventually { try await health()["status"] as? String == "ok" })
        }
    }
}

/// An admin change is answered 200 only when the store took it.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetPromiseTests {
    @Test func aChangeThePausedStoreDidNotTakeIsRefusedAndServedNowhere() async throws {
        let store = try StoreFixture()
        try store.start()
        defer { store.pause(false) }
        try await FleetTests.withFleet(store, count: 2) { servers in
            let before = try await FleetTests.status(servers[0])
            store.pause(true)
            let put = try await AdminClient(server: servers[0]).call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
            #expect(put.status == 503 && put.headers["Retry-After"] == "1", "\(put.status) \(put.text)")
            for server in servers { #expect(try await FleetTests.status(server) == before, "a refused change is served nowhere") }
            let delete = try await AdminClient(server: servers[0]).call("DELETE", "/routes/app/users")
            #expect(delete.status == 503, "\(delete.status) \(delete.text)")
            store.pause(false)
            // Once the store is back, the same change is taken and served by both.
            let taken = try await eventually(10) {
                try await AdminClient(server: servers[0]).call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#).status == 200
            }
            let health = try await AdminClient(server: servers[0]).object("GET", "/health")
            #expect(taken, "\(health["store"] ?? "")")
            for server in servers { #expect(try await eventually { try await FleetTests.status(server) == 500 }) }
        }
    }
}

/// A journal cleared through one replica stays cleared on all of them.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetClearTests {
    @Test(arguments: ["POST /reset", "DELETE /journal"])
    func entriesAnotherReplicaHadNotSentYetDoNotComeBack(call: String) async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store, count: 2) { servers in
            let (method, path) = (String(call.split(separator: " ")[0]), String(call.split(separator: " ")[1]))
            for _ in 0..<4 { #expect(try await FleetTests.status(servers[1]) == 200) }
            // At once: replica 2 may still hold the four entries.
            _ = try await AdminClient(server: servers[0]).object(method, path)
            for server in servers {
                let count = try await AdminClient(server: server).object("GET", "/journal/count")["count"] as? Int
                #expect(count == 0, "\(call): replica \(server.port) counts \(count ?? -1)")
            }
            // And later, once every replica has sent all it had.
            let counts = { try await servers.asyncMap { try await AdminClient(server: $0).object("GET", "/journal/count")["count"] as? Int } }
            let stayed = try await eventually(0.6) { try await counts() != [0, 0] }
            let after = try await counts()
            #expect(!stayed, "\(call): \(after)")
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
