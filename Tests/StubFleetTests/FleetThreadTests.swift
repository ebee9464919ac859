import Foundation
import StubServer
import StubFleet
import Testing
import StubTestSupport

/// In a fleet, a request that needs the store (a sequence step, a hold) and an admin call wait
/// for it suspended: the thread that serves requests goes on serving the others meanwhile.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetThreadTests {
    /// What a paused store is asked, and the first call's 300 ms deadline then runs out.
    @Test(arguments: ["sequence step", "hold", "admin call"])
    func aCallToAPausedStoreHoldsNoThreadThatServes(asking: String) async throws {
        let store = try StoreFixture()
        try store.start()
        defer { store.pause(false) }
        try await FleetTests.withFleet(store, count: 1, configure: { $0.ioThreads = 1 }) { servers in
            let server = servers[0]
            let override = asking == "hold" ? #"{"hold": true}"# : #"{"sequence": ["503", "500", "503", "500"]}"#
            if asking != "admin call" { _ = try await FleetTests.admin(server, "PUT", "/routes/app/users", json: override) }
            let plain = server.url("/api/v1/users/1")
            #expect(try await HTTPClient.fetch(plain).status == 200)
            store.pause(true)
            let start = Date()
            let slow = Task {
                if asking == "admin call" {
                    return try await AdminClient(server: server).call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#).status
                }
                return try await HTTPClient.fetch(server.url(FleetTests.users), timeout: 30).status
            }
            // Plain requests, one after another, until the store's call has run out (health says so).
            var answers: [(sent: Double, took: Double)] = []
            var unreachableAt: Double?
            while unreachableAt == nil, Date().timeIntervalSince(start) < 5 {
                let sent = Date()
                #expect(try await HTTPClient.fetch(plain).status == 200)
                answers.append((sent.timeIntervalSince(start), Date().timeIntervalSince(sent)))
                let health = try await AdminClient(server: server).object("GET", "/health")
                if (health["store"] as? [String: Any])?["status"] as? String == "unreachable" { unreachableAt = Date().timeIntervalSince(start) }
            }
            let window = try #require(unreachableAt, "the paused store was never found away")
            #expect(window >= 0.25, "the store's call ended after \(window) s: too soon to tell")
            // Sent well after the store's call began and answered before it ended.
            let during = answers.filter { $0.sent > 0.1 && $0.sent + $0.took < window }
            let slowest = answers.map(\.took).max() ?? 0
            #expect(during.count >= 3, "\(asking): \(during.count) plain answers while the store's call ran (\(answers.count) in all)")
            #expect(slowest < 0.15, "\(asking): the slowest plain answer took \(slowest) s")
            print("store call for \(asking): \(during.count) plain answers inside its \(window) s, slowest \(slowest) s")
            if asking == "sequence step" {
                // The step was taken from the local count once the store did not answer.
                #expect(try await slow.value == 503)
            } else if asking == "admin call" {
                #expect(try await slow.value == 503, "a change the paused store did not take is refused")
            } else {
                slow.cancel()
            }
        }
    }

    /// A reset the store did not take is refused, as a change is, and this replica keeps its state.
    @Test func aResetThePausedStoreDidNotTakeIsRefused() async throws {
        let store = try StoreFixture()
        try store.start()
        defer { store.pause(false) }
        try await FleetTests.withFleet(store, count: 2) { servers in
            _ = try await FleetTests.admin(servers[0], "PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
            for server in servers { #expect(try await eventually { try await FleetTests.status(server) == 500 }) }
            store.pause(true)
            let reset = try await AdminClient(server: servers[0]).call("POST", "/reset")
            #expect(reset.status == 503 && reset.headers["Retry-After"] == "1", "\(reset.status) \(reset.text)")
            for server in servers { #expect(try await FleetTests.status(server) == 500, "a refused reset changes nothing") }
            store.pause(false)
            let taken = try await eventually(10) { try await AdminClient(server: servers[0]).call("POST", "/reset").status == 200 }
            #expect(taken)
            for server in servers { #expect(try await eventually { try await FleetTests.status(server) == 200 }) }
        }
    }
}
