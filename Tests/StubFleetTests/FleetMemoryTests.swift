import Foundation
import StubServer
import StubTestSupport
import Testing

/// State values and collections shared by replicas on one Valkey/Redis: a change made through
/// one replica is what every other answers with, and concurrent changes are all kept.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetMemoryTests {
    static let json = ["Content-Type": "application/json"]

    @Test func aPasswordChangedOnOneReplicaIsTheOneEveryReplicaAccepts() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            let login = { (server: StubServer, password: String) in
                try await HTTPClient.fetch(server.url("/api/v1/login?email=jane@example.com&password=\(password)"), headers: ["X-Stub-Session": "f"]).status
            }
            let changed = try await HTTPClient.fetch(fleet[0].url("/api/v1/changePass"), method: "POST",
                                                     headers: FleetMemoryTests.json.merging(["X-Stub-Session": "f"]) { a, _ in a },
                                                     body: Data(#"{"oldPassword": "correct-horse", "newPassword": "battery-staple"}"#.utf8))
            #expect(changed.status == 200)
            for server in fleet {
                #expect(try await login(server, "battery-staple") == 200)
                #expect(try await login(server, "correct-horse") == 401)
            }
            _ = try await FleetTests.admin(fleet[1], "POST", "/reset", session: "f")
            for server in fleet { #expect(try await login(server, "correct-horse") == 200) }
        }
    }

    @Test func createsAndPatchesFromEveryReplicaAtOnceAreAllKept() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store) { fleet in
            let ids = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<60 {
                    group.addTask {
                        let created = try await HTTPClient.fetch(fleet[i % 3].url("/api/v1/todos"), method: "POST", headers: FleetMemoryTests.json,
                                                                 body: Data(#"{"title": "t\#(i)"}"#.utf8))
                        return (try created.json() as? [String: Any])?["id"] as? Int ?? -1
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 60 && !ids.contains(-1))
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<30 {
                    group.addTask {
                        try await HTTPClient.fetch(fleet[i % 3].url("/api/v1/todos/1"), method: "PATCH", headers: FleetMemoryTests.json,
                                                   body: Data(#"{"field\#(i)": \#(i)}"#.utf8)).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            let object = try #require(try await HTTPClient.fetch(fleet[2].url("/api/v1/todos/1")).json() as? [String: Any])
            #expect((0..<30).allSatisfy { object["field\($0)"].map { "\($0)" } == "\($0)" }, "\(object)")
            let list = try #require(try await HTTPClient.fetch(fleet[1].url("/api/v1/todos?per_page=1")).json() as? [String: Any])
            #expect((list["meta"] as? [String: Any])?["total"] as? Int == 65)
        }
    }

    @Test func aStoreThatIsAwayGives503NotAnotherReplicasState() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store, count: 1) { fleet in
            #expect(try await HTTPClient.fetch(fleet[0].url("/api/v1/todos/1")).status == 200)
            store.stop()
            let away = try await HTTPClient.fetch(fleet[0].url("/api/v1/todos/1"))
            #expect(away.status == 503)
            // A route that does not remember is served from the stub files as before.
            #expect(try await HTTPClient.fetch(fleet[0].url("/api/v1/users")).status == 200)
        }
    }

    @Test func theCollectionBoundHoldsWhenReplicasCreateAtOnce() async throws {
        let store = try StoreFixture()
        try store.start()
        try await FleetTests.withFleet(store, configure: { $0.maxCollectionObjects = 7 }) { fleet in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<12 {
                    group.addTask {
                        try await HTTPClient.fetch(fleet[i % 3].url("/api/v1/todos"), method: "POST", headers: FleetMemoryTests.json,
                                                   body: Data(#"{"title": "t\#(i)"}"#.utf8)).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Five seeded, room for two more across the fleet.
            #expect(statuses.filter { $0 == 201 }.count == 2 && statuses.filter { $0 == 409 }.count == 10, "\(statuses)")
        }
    }
}
