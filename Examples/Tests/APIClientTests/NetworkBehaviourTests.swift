import APIClient
import Foundation
import StubServer
import Testing

/// What in-process stubs cannot show: delays on a real socket, timeouts, network failures,
/// retries, cancellation and parallel sessions.
@Suite struct NetworkBehaviourTests {
    @Test func aDelayedResponseArrivesAfterItsDelay() async throws {
        try await withStubd(plugins: [StubControlPlugin(delayMs: 600)]) { _, client in
            let started = nowMs()
            let users = try await client.request(AppAPI.users, as: Envelope<[User]>.self).data
            #expect(users?.count == 3)
            #expect(nowMs() - started >= 600)
        }
    }

    @Test func aTimeoutShorterThanTheDelayIsTimedOut() async throws {
        try await withStubd(plugins: [StubControlPlugin(delayMs: 3000)], timeout: 1) { _, client in
            let code = await urlErrorCode { _ = try await client.request(AppAPI.users, as: Envelope<[User]>.self) }
            #expect(code == .timedOut)
        }
    }

    #if os(Linux)
    /// The URLError each fault gives URLSession on Linux (the README's table; macOS names some differently).
    static let faults: [(String, URLError.Code)] = [
        ("reset", .networkConnectionLost), ("empty", .badServerResponse), ("garbage", .unsupportedURL), ("truncate", .unknown),
    ]
    #else
    static let faults: [(String, URLError.Code)] = []
    #endif

    @Test(arguments: NetworkBehaviourTests.faults.map(\.0))
    func eachFaultGivesTheDocumentedURLError(fault: String) async throws {
        let expected = try #require(NetworkBehaviourTests.faults.first { $0.0 == fault }?.1)
        try await withStubd(plugins: [StubControlPlugin(fault: fault)]) { _, client in
            let code = await urlErrorCode { _ = try await client.request(AppAPI.users, as: Envelope<[User]>.self) }
            #expect(code == expected, "\(fault)")
        }
    }

    @Test func hangIsATimeoutAtTheClient() async throws {
        try await withStubd(plugins: [StubControlPlugin(fault: "hang")], timeout: 1) { _, client in
            let code = await urlErrorCode { _ = try await client.request(AppAPI.users, as: Envelope<[User]>.self) }
            #expect(code == .timedOut)
        }
    }

    @Test func theRetryPolicyRidesOutTwo503s() async throws {
        try await withStubd(retry: RetryPolicy(retries: 2)) { server, client in
            try server.sequence(route: "app/users", ["503", "503", "200"])
            let users = try await client.request(AppAPI.users, as: Envelope<[User]>.self).data
            #expect(users?.count == 3)
            #expect(server.journal(route: "app/users").map(\.status) == [503, 503, 200])
        }
        try await withStubd(retry: RetryPolicy(retries: 1)) { server, client in
            try server.sequence(route: "app/users", ["503", "503", "200"])
            await #expect(throws: AppError(status: 503, title: "Service unavailable", message: "Try again in a moment.")) {
                _ = try await client.request(AppAPI.users, as: Envelope<[User]>.self)
            }
        }
    }

    @Test func cancellingADelayedRequestLetsTheServerFinishWithIt() async throws {
        try await withStubd(plugins: [StubControlPlugin(delayMs: 800)]) { server, client in
            let task = Task { try await client.request(AppAPI.users, as: Envelope<[User]>.self) }
            try await Task.sleep(nanoseconds: 200_000_000)
            let cancelledAt = nowMs()
            task.cancel()
            let outcome = await task.result
            #expect(nowMs() - cancelledAt < 500, "the client gave up at once")
            if case .success = outcome { Issue.record("the request should have been cancelled") }
            // The server still owns the request until its delay ends, then journals it and is done.
            let finished = await server.waitForRequests(route: "app/users", count: 1, timeout: 5)
            #expect(finished.count == 1)
            #expect(finished.first?.delayMs == 800)
            let after = try await client.request(AppAPI.user(id: 2), as: Envelope<User>.self).data
            #expect(after?.name == "Marcus Lee")
        }
    }

    @Test func twoSessionsRunInParallelWithoutSeeingEachOther() async throws {
        let server = try StubServer(stubsAt: ShippedStubs.url, port: 0)
        defer { server.stop() }
        try server.override(route: "app/users", variant: "200-empty", session: "test-a")
        let a = APIClient(server: server.baseURL, plugins: [StubControlPlugin(session: "test-a")])
        let b = APIClient(server: server.baseURL, plugins: [StubControlPlugin(session: "test-b")])
        async let usersA = a.request(AppAPI.users, as: Envelope<[User]>.self)
        async let usersB = b.request(AppAPI.users, as: Envelope<[User]>.self)
        let (resultA, resultB) = try await (usersA, usersB)
        #expect(resultA.data == [])
        #expect(resultB.data?.count == 3)
        #expect(server.journal(route: "app/users", session: "test-a").count == 1)
        #expect(server.journal(route: "app/users", session: "test-b").count == 1)
    }
}
