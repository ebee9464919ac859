import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// `/__session/<id>/…`: the session in the URL, for clients that cannot add a header.
@Suite(.timeLimit(.minutes(3))) struct SessionPathTests {
    @Test func aSessionPrefixScopesOverridesAndTheJournal() async throws {
        try await withServer { server in
            // The admin API takes the prefix too.
            let put = try await HTTPClient.fetch(server.url("/__session/ui-test-3/__stubd/routes/app/users"), method: "PUT",
                                                 headers: ["Content-Type": "application/json"], body: Data(#"{"variant": "200-empty"}"#.utf8))
            #expect(put.status == 200, "\(put.text)")
            let scoped = try await HTTPClient.fetch(server.url("/__session/ui-test-3/api/v1/users?page=1"))
            #expect(scoped.text.contains("[]"), "\(scoped.text)")
            let global = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(global.text.contains("Jane"), "other sessions are not affected")
            let user = try await HTTPClient.fetch(server.url("/__session/ui-test-3/api/v1/users/999"))
            #expect(user.text.contains("No user with id 999."), "path parameters and templates see the path without the prefix")
            let journal = server.journal(session: "ui-test-3")
            #expect(journal.map(\.request.path) == ["/api/v1/users", "/api/v1/users/999"])
            #expect(journal.first?.request.queryValue("page") == "1")
            let header = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Session": "ui-test-3"])
            #expect(header.text.contains("[]"), "the prefix and the header name the same session")
        }
    }

    @Test(arguments: ["/__session/", "/__session//api/v1/users"])
    func aPrefixWithoutASessionIs400(path: String) async throws {
        try await withServer { server in
            let fetched = try await Curl.run(["-s", "--path-as-is", "-w", "\n%{http_code}", server.url(path).absoluteString])
            #expect(fetched.stdout.hasSuffix("\n400"), "\(fetched.stdout)")
            #expect(fetched.stdout.contains("invalid session path"))
        }
    }

    @Test func stubsCannotUseTheSessionPrefix() throws {
        let stubs = try TemporaryStubDirectory(["x/route.json": #"{"method": "GET", "path": "/__session/x"}"#, "x/200.json": "{}"])
        #expect(throws: StubServerError.self) { _ = try StubServer(stubsAt: stubs.url, port: 0) }
    }
}
