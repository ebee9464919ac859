import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// What a client sends as credentials never comes back out of the journal verbatim unless asked:
/// not from the admin API, not from the in-process journal.
@Suite(.timeLimit(.minutes(1))) struct JournalCredentialsTests {
    static let stubs = ["app/me/route.json": #"{"method": "GET", "path": "/me"}"#, "app/me/200.json": #"{"id": 1}"#]
    static let secrets = ["Authorization: Bearer eyJ-app-t0ken", "Proxy-Authorization: Basic cHJveHk6cHc=", "Cookie: sid=9d8c7b6a; theme=dark"]

    func send(_ server: StubServer) async throws -> String {
        var arguments = ["-s", "-o", "/dev/null"]
        for header in JournalCredentialsTests.secrets { arguments += ["-H", header] }
        _ = try await Curl.run(arguments + [server.url("/me").absoluteString])
        return try await Curl.run(["-s", server.url("/__stubd/journal").absoluteString]).stdout
    }

    @Test func credentialsAreJournaledAsMarkersByDefault() async throws {
        let stubs = try TemporaryStubDirectory(JournalCredentialsTests.stubs)
        try await withServer(stubs: stubs.url) { server in
            let journal = try await send(server)
            for secret in ["eyJ-app-t0ken", "cHJveHk6cHc=", "9d8c7b6a", "dark"] { #expect(!journal.contains(secret), "\(secret) in \(journal)") }
            #expect(journal.contains("Bearer <redacted "), "\(journal)")
            #expect(journal.contains("sid=<redacted "), "\(journal)")
            let entry = try #require(server.journal(route: "app/me").first)
            #expect(entry.request.header("Authorization", is: "Bearer eyJ-app-t0ken"))
            #expect(!entry.request.header("Authorization", is: "Bearer another"))
            #expect(entry.request.header("Cookie", is: "sid=9d8c7b6a; theme=dark"))
        }
    }

    @Test func journalCredentialsKeepsThemVerbatim() async throws {
        let stubs = try TemporaryStubDirectory(JournalCredentialsTests.stubs)
        try await withServer(stubs: stubs.url, configure: { $0.journalCredentials = true }) { server in
            let journal = try await send(server)
            #expect(journal.contains("Bearer eyJ-app-t0ken") && journal.contains("sid=9d8c7b6a; theme=dark"), "\(journal)")
            let entry = try #require(server.journal(route: "app/me").first)
            #expect(entry.request.header("Authorization") == "Bearer eyJ-app-t0ken")
        }
    }
}
