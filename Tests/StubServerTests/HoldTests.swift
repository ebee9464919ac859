import Foundation
import StubTestSupport
import StubdClient
import StubServer
import Testing

/// Held responses: a test holds a route, waits until the app has asked, looks, then releases.
@Suite(.timeLimit(.minutes(3))) struct HoldTests {
    @Test func heldRequestsWaitUntilReleasedOldestFirst() async throws {
        try await withServer { server in
            try server.hold(route: "app/users")
            async let first = HTTPClient.fetch(server.url("/api/v1/users?n=1"))
            #expect(await server.waitUntilHeld(route: "app/users", count: 1))
            async let second = HTTPClient.fetch(server.url("/api/v1/users?n=2"))
            #expect(await server.waitUntilHeld(route: "app/users", count: 2))
            let shown = try await AdminClient(server: server).call("GET", "/routes/app/users")
            #expect((try shown.json() as? [String: Any])?["held"] as? Int == 2)
            let released = try await AdminClient(server: server).call("POST", "/routes/app/users/release", json: #"{"count": 1}"#)
            let releasedBody = try released.json() as? [String: Any]
            #expect(released.status == 200 && releasedBody?["released"] as? Int == 1)
            #expect(try await first.status == 200)
            #expect(server.heldCount(route: "app/users") == 1, "the second still waits")
            #expect(server.release(route: "app/users") == 1)
            #expect(try await second.status == 200)
            let paths = server.journal(route: "app/users").map { $0.request.queryValue("n") }
            #expect(paths == ["1", "2"])
        }
    }

    @Test func aReleasedRequestGoesThroughNormalSelectionDelayAndFault() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            _ = try await admin.call("PUT", "/routes/app/users", json: #"{"hold": true}"#)
            async let held = HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(await server.waitUntilHeld(route: "app/users"))
            // Chosen at release, not at arrival: the override set while it waited applies.
            _ = try await admin.call("PUT", "/routes/app/users", json: #"{"hold": true, "variant": "500", "delay": {"ms": 200}}"#)
            let start = monotonicMs()
            _ = server.release(route: "app/users")
            #expect(try await held.status == 500)
            #expect(monotonicMs() - start >= 200, "the delay counts from the release")
            // Turning the hold off lets everything go.
            async let next = HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(await server.waitUntilHeld(route: "app/users"))
            _ = try await admin.call("PUT", "/routes/app/users", json: #"{"hold": false}"#)
            #expect(try await next.status == 200)
        }
    }

    @Test func holdsBelongToTheirSession() async throws {
        try await withServer { server in
            try server.hold(route: "app/users", session: "ui-1")
            let other = try await HTTPClient.fetch(server.url("/api/v1/users"), timeout: 3)
            #expect(other.status == 200, "no session: not held")
            async let mine = HTTPClient.fetch(server.url("/__session/ui-1/api/v1/users"))
            #expect(await server.waitUntilHeld(route: "app/users", session: "ui-1"))
            #expect(server.heldCount(route: "app/users") == 0)
            #expect(server.release(route: "app/users", session: "ui-1") == 1)
            #expect(try await mine.status == 200)
        }
    }

    @Test func theHangCapAndShutdownAnswer503() async throws {
        let server = try StubServer(stubsAt: Repository.shippedStubs, configuration: {
            var c = StubServerConfiguration()
            c.holdCapMs = 300
            return c
        }())
        try server.hold(route: "app/users")
        let start = monotonicMs()
        let capped = try await HTTPClient.fetch(server.url("/api/v1/users"))
        #expect(capped.status == 503 && monotonicMs() - start >= 280)
        #expect((try capped.json() as? [String: Any])?["reason"] as? String == "the hold cap passed")
        #expect(server.heldCount(route: "app/users") == 0)
        try await OffPool.run { server.stop() }
        // With the default cap (300 s) only the shutdown ends the hold.
        let stoppingServer = try StubServer(stubsAt: Repository.shippedStubs)
        try stoppingServer.hold(route: "app/user")
        async let stopping = Curl.run(["-s", "-w", "\n%{http_code}", stoppingServer.url("/api/v1/users/1").absoluteString])
        #expect(await stoppingServer.waitUntilHeld(route: "app/user"))
        try await OffPool.run { stoppingServer.stop() }
        let got = try await stopping
        #expect(got.stdout.hasSuffix("\n503") && got.stdout.contains("the server is stopping"), "\(got.stdout) \(got.exitCode)")
    }

    @Test func stubdClientHoldsWaitsAndReleases() async throws {
        try await withServer { server in
            let client = StubdClient(baseURL: server.baseURL)
            try await client.hold(route: "app/users")
            async let loading = HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(try await client.waitUntilHeld(route: "app/users", count: 1, timeout: 5))
            #expect(try await client.heldCount(route: "app/users") == 1)
            #expect(try await client.release(route: "app/users") == 1)
            #expect(try await loading.status == 200)
            #expect(try await client.heldCount(route: "app/users") == 0)
        }
    }
}
