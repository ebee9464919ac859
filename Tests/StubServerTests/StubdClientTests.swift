import Foundation
import StubTestSupport
import StubdClient
import Testing

/// `StubdClient` against the real daemon, started as a process on port 0.
@Suite(.timeLimit(.minutes(3))) struct StubdClientTests {
    func withDaemon(_ extra: [String] = [], _ body: (URL) async throws -> Void) async throws {
        let daemon = try await OffPool.run {
            try RunningDaemon(arguments: ["--stubs", Repository.shippedStubs.path, "--port", "0", "--log", "off"] + extra)
        }
        do {
            try await body(URL(string: daemon.baseURL)!)
        } catch {
            _ = try? await OffPool.run { daemon.terminate(signal: SIGTERM) }
            throw error
        }
        _ = try await OffPool.run { daemon.terminate(signal: SIGTERM) }
    }

    /// An Apollo app's UI test: steer a GraphQL operation by its route id and read the journal by
    /// operation, against the daemon serving the shipped graphql service.
    @Test func graphQLOperationsAreSteeredAndJournaledByName() async throws {
        try await withDaemon { base in
            let stubd = StubdClient(baseURL: base, session: "ui-test-gql")
            try await stubd.waitUntilHealthy()
            try await stubd.override(route: "graphql/user", variant: "200-not-found")
            let url = base.appendingPathComponent("__session/ui-test-gql/graphql")
            let body = Data(#"{"operationName": "GetUser", "variables": {"id": "1"}}"#.utf8)
            let got = try await HTTPClient.fetch(url, method: "POST", headers: ["Content-Type": "application/json"], body: body)
            #expect(got.text.contains("NOT_FOUND"), "\(got.text)")
            let journal = try await stubd.journal(operation: "GetUser")
            #expect(journal.map(\.operation) == ["GetUser"] && journal.first?.route == "graphql/user")
            #expect(try await stubd.journal(operation: "ListUsers").isEmpty)
        }
    }

    @Test func sessionsAreListedAndClearedAndTheDashboardIsNamed() async throws {
        try await withDaemon { base in
            let stubd = StubdClient(baseURL: base)
            try await stubd.waitUntilHealthy()
            #expect(stubd.dashboardURL.absoluteString == base.absoluteString + "/__stubd/ui")
            #expect(try await HTTPClient.fetch(stubd.dashboardURL).header("Content-Type")?.hasPrefix("text/html") == true)
            try await StubdClient(baseURL: base, session: "sim-1").override(route: "app/users", variant: "500")
            _ = try await HTTPClient.fetch(base.appendingPathComponent("__session/sim-2/api/v1/users"))
            let sessions = try await stubd.sessions()
            #expect(sessions.map(\.session) == ["sim-1", "sim-2"])
            #expect(sessions.first?.overriddenRoutes == ["app/users"] && sessions.last?.requests == 1)
            try await stubd.clearSession("sim-1")
            #expect(try await stubd.sessions().map(\.session) == ["sim-2"])
        }
    }

    @Test func overridesSequencesAndTheJournalMirrorTheInProcessAPI() async throws {
        try await withDaemon { base in
            let stubd = StubdClient(baseURL: base)
            try await stubd.waitUntilHealthy()
            let users = try #require(try await stubd.routes().first { $0.id == "app/users" })
            #expect(users.variants.map(\.name).contains("503"))
            try await stubd.override(route: "app/users", variant: "200-empty")
            #expect(try await HTTPClient.fetch(base.appendingPathComponent("api/v1/users")).text.contains("[]"))
            try await stubd.sequence(route: "app/users", ["503", "503", "200"])
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await HTTPClient.fetch(base.appendingPathComponent("api/v1/users")).status) }
            #expect(statuses == [503, 503, 200])
            try await stubd.clearOverride(route: "app/users")
            #expect(try await HTTPClient.fetch(base.appendingPathComponent("api/v1/users")).text.contains("Jane"))
            _ = try await HTTPClient.fetch(URL(string: base.absoluteString + "/api/v1/users?ids%5B%5D=1&ids%5B%5D=2")!)
            let journal = try await stubd.journal(route: "app/users")
            #expect(journal.count == 6)
            #expect(try await stubd.count(route: "app/users", method: "GET") == 6)
            #expect(journal.last?.query["ids[]"] == ["1", "2"])
            try await stubd.reset()
            #expect(try await stubd.journal().isEmpty)
        }
    }

    @Test func waitForRequestsSeesABackgroundRequestAndSessionsStayApart() async throws {
        try await withDaemon { base in
            let tester = StubdClient(baseURL: base, session: "ui-test-1")
            try await tester.waitUntilHealthy()
            try await tester.override(route: "app/users", variant: "200-empty")
            // An app that can only change its base URL puts the session in the path.
            let scoped = URL(string: base.absoluteString + "/__session/ui-test-1/api/v1/users?__delay=300")!
            let background = Task { try await HTTPClient.fetch(scoped) }
            let seen = try await tester.waitForRequests(route: "app/users", count: 1, timeout: 5)
            #expect(seen.count == 1)
            #expect(seen.first?.path == "/api/v1/users")
            #expect(seen.first?.session == "ui-test-1")
            #expect(try await background.value.text.contains("[]"))
            #expect(try await StubdClient(baseURL: base).journal().isEmpty, "the global journal saw nothing")
        }
    }

    @Test func theAdminTokenIsSentAndItsAbsenceReported() async throws {
        try await withDaemon(["--admin-token", "s3cret"]) { base in
            let anonymous = StubdClient(baseURL: base)
            try await anonymous.waitUntilHealthy()
            do {
                try await anonymous.reset()
                Issue.record("a call without the token should fail")
            } catch let error as StubdClientError {
                guard case .status(401, _) = error else { Issue.record("expected 401, got \(error)"); return }
            }
            try await StubdClient(baseURL: base, adminToken: "s3cret").override(route: "app/users", fault: .reset)
            #expect(await HTTPClient.errorCode(base.appendingPathComponent("api/v1/users")) == .networkConnectionLost)
        }
    }
}
