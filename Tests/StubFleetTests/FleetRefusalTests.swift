import Foundation
import StubCore
import StubFleet
import StubServer
import StubTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A change answered 503 leaves no trace: the command the replica had sent, still in the store's
/// socket or on its way when the call gave up, does nothing when it finally runs. Checked with a
/// paused store, and with one replica's path to the store stalled in the middle of a change while
/// a retry goes through another.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetRefusalTests {
    /// Each kind of change the admin API refuses with 503: what is set first (nil: nothing), the
    /// change, and the session it is made in.
    static let changes: [String: (setup: String?, method: String, path: String, json: String?, session: String?)] = [
        "PUT variant": (nil, "PUT", "/routes/app/users", #"{"variant": "500"}"#, nil),
        "PUT sequence": (nil, "PUT", "/routes/app/users", #"{"sequence": ["500", "503"]}"#, nil),
        "PUT hold": (nil, "PUT", "/routes/app/users", #"{"hold": true}"#, nil),
        "PUT in a session": (nil, "PUT", "/routes/app/users", #"{"variant": "500"}"#, "team-a"),
        "DELETE": (#"{"variant": "503"}"#, "DELETE", "/routes/app/users", nil, nil),
        "DELETE every override": (#"{"variant": "503"}"#, "DELETE", "/routes", nil, nil),
        "POST /reset": (#"{"variant": "503"}"#, "POST", "/reset", nil, nil),
    ]

    @Test(arguments: changes.keys.sorted())
    func aChangeRefusedWhileTheStoreWasPausedNeverLandsLater(change: String) async throws {
        let (setup, method, path, json, session) = try #require(FleetRefusalTests.changes[change])
        let store = try StoreFixture()
        try store.start()
        defer { store.pause(false) }
        try await FleetTests.withFleet(store, count: 2) { servers in
            if let setup { _ = try await FleetTests.admin(servers[0], "PUT", "/routes/app/users", json: setup, session: session) }
            let before = setup == nil ? "none" : "503"
            store.pause(true)
            let refused = try await AdminClient(server: servers[0], session: session).call(method, path, json: json)
            #expect(refused.status == 503, "\(change): \(refused.status) \(refused.text)")
            store.pause(false)
            // Settled: a later change, made once the store takes changes again, is served by both
            // replicas; the refused one had run by then if it was ever going to.
            try await FleetRefusalTests.settle(through: servers[1], fleet: servers)
            for server in servers {
                let after = try await FleetRefusalTests.override(server, "app/users", session: session)
                #expect(after == before, "\(change): replica \(server.port) serves \(after), not \(before) as before the refused change")
            }
        }
    }

    /// One replica's path to the store stalls in the middle of a change: the store has answered
    /// the call's first command, then the change itself is held on the way, and the call is
    /// answered 503. The change is made again, with another value, through the other replica; the
    /// held bytes reach the store after that. The store refuses them as late, and both replicas
    /// end on the retried value.
    @Test func aRetryThroughAnotherReplicaIsNotUndoneByTheRefusedChangeArrivingLate() async throws {
        let store = try StoreFixture()
        try store.start()
        let script = Repository.root.appendingPathComponent("Tests/Clients/stall_proxy.py").path
        // Only a change names the route: the replica's reads of the overrides go through.
        let proxy = try Spawned("/usr/bin/env", ["python3", script, String(store.port), "app/users"])
        defer { kill(proxy.pid, SIGKILL); proxy.waitForExit() }
        let proxyPort = try #require(Int(proxy.readLine().trimmingCharacters(in: .whitespacesAndNewlines)), "the proxy printed no port")
        var servers: [StubServer] = []
        defer { for server in servers { server.stop() } }
        for (name, url) in [("r1", "redis://127.0.0.1:\(proxyPort)"), ("r2", store.url)] {
            var configuration = StubServerConfiguration()
            configuration.sharedState = try SharedStateStore.redis(url, replica: name)
            servers.append(try StubServer(stubsAt: Repository.shippedStubs, configuration: configuration))
        }
        for server in servers { #expect(try await eventually { try await FleetRefusalTests.storeStatus(server) == "ok" }) }
        let refused = try await AdminClient(server: servers[0]).call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
        try #require(refused.status == 503, "\(refused.status) \(refused.text)")
        #expect(proxy.readLine() == "held\n")
        let retried = try await AdminClient(server: servers[1]).call("PUT", "/routes/app/users", json: #"{"variant": "503"}"#)
        #expect(retried.status == 200, "\(retried.status) \(retried.text)")
        kill(proxy.pid, SIGUSR1)
        let late = try await eventually { StoreFixture.reply(store.port, "INFO errorstats")?.contains("errorstat_STUBDLATE:") == true }
        #expect(late, "the held change reached the store and was refused there as late: \(StoreFixture.reply(store.port, "INFO errorstats") ?? "")")
        try await FleetRefusalTests.settle(through: servers[0], fleet: servers)
        for server in servers {
            let served = try await FleetRefusalTests.override(server, "app/users", session: nil)
            #expect(served == "503", "replica \(server.port) serves \(served), not the retried 503")
            #expect(try await FleetTests.status(server) == 503)
        }
    }

    /// The override a replica serves for `route` (its variant, its sequence or `hold`), or "none".
    static func override(_ server: StubServer, _ route: String, session: String?) async throws -> String {
        let shown = try await AdminClient(server: server, session: session).object("GET", "/routes/\(route)")
        guard let o = shown["override"] as? [String: Any] else { return "none" }
        if o["hold"] as? Bool == true { return "hold" }
        if let sequence = o["sequence"] as? [String], !sequence.isEmpty { return sequence.joined(separator: ",") }
        return o["variant"] as? String ?? "\(o)"
    }

    /// Makes a marker change (app/user → 404) through `replica`, retrying until the store takes
    /// it, and waits until every replica serves it.
    static func settle(through replica: StubServer, fleet: [StubServer]) async throws {
        let taken = try await eventually(10) {
            try await AdminClient(server: replica).call("PUT", "/routes/app/user", json: #"{"variant": "404"}"#).status == 200
        }
        try #require(taken, "the store never took the marker change")
        for server in fleet {
            let seen = try await eventually { try await override(server, "app/user", session: nil) == "404" }
            try #require(seen, "replica \(server.port) never served the marker change")
        }
    }

    /// What health says of the store (`ok`, `unreachable`).
    static func storeStatus(_ server: StubServer) async throws -> String? {
        (try await AdminClient(server: server).object("GET", "/health")["store"] as? [String: Any])?["status"] as? String
    }
}
