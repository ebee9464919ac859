import Foundation
import StubCore
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

/// One secret policy for everything that leaves the process: secret-named headers, query values,
/// JSON members at any depth (GraphQL variables too) and form fields never reach the admin API's
/// journal, the access log, a Pact contract or the WebSocket conversations' record verbatim,
/// unless `--journal-credentials` asks; tests still check what was sent with the matchers.
@Suite(.timeLimit(.minutes(2))) struct SecretRedactionTests {
    static let stubs = [
        "app/login/route.json": #"{"method": "POST", "path": "/login"}"#,
        "app/login/200.json": #"{"ok": true}"#,
        "app/me/route.json": #"{"method": "GET", "path": "/me"}"#,
        "app/me/200.json": #"{"id": 1}"#,
        "gql/_service.json": #"{"graphql": {"path": "/graphql"}}"#,
        "gql/login/route.json": #"{"operation": "Login", "kind": "mutation"}"#,
        "gql/login/200.json": #"{"data": {"login": {"ok": true}}}"#,
        "ws/echo/route.json": #"{"path": "/ws/echo", "websocket": {}, "variants": {"echo": {"conversation": {"replies": [{"send": [{"echo": true}]}]}}}}"#,
    ]

    /// Every secret value sent below; none may come out.
    static let secrets = ["k3y-0f-the-app", "t0k3n-in-a-header", "qu3ry-t0ken-value", "0ld-pa55word", "n3w-pa55word", "cl13nt-s3cret",
                          "f0rm-pa55word", "gr4phql-pa55word", "s0cket-pa55word"]

    /// Sends the requests, and one WebSocket message, that carry the secrets.
    static func sendSecrets(to server: StubServer) async throws {
        let headers = ["X-Api-Key": "k3y-0f-the-app", "X-Auth-Token": "t0k3n-in-a-header", "Content-Type": "application/json"]
        let json = #"{"user": "jane", "oldPassword": "0ld-pa55word", "newPassword": "n3w-pa55word", "max_tokens": 100, "# +
            #""app": {"client_secret": "cl13nt-s3cret", "name": "Shop"}}"#
        _ = try await HTTPClient.fetch(server.url("/login?token=qu3ry-t0ken-value&page=2"), method: "POST", headers: headers, body: Data(json.utf8))
        _ = try await HTTPClient.fetch(server.url("/login"), method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                       body: Data("email=jane%40example.com&password=f0rm-pa55word".utf8))
        let graphQL = #"{"query": "mutation Login($input: LoginInput!) { login(input: $input) { ok } }", "variables": {"input": {"password": "gr4phql-pa55word"}}}"#
        _ = try await HTTPClient.fetch(server.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(graphQL.utf8))
        let socket = try RawWebSocket(port: server.port, path: "/ws/echo")
        socket.send(#"{"type": "login", "password": "s0cket-pa55word"}"#)
        _ = socket.next()
    }

    @Test func noSecretLeavesThroughTheJournalTheLogAContractOrAConversation() async throws {
        let stubs = try TemporaryStubDirectory(SecretRedactionTests.stubs)
        try await withServer(stubs: stubs.url) { server in
            try await SecretRedactionTests.sendSecrets(to: server)
            let journal = try await HTTPClient.fetch(server.url("/__stubd/journal")).text
            let pact = try await HTTPClient.fetch(server.url("/__stubd/journal/pact?consumer=App&provider=API")).text
            try await waitUntil("the conversation's messages") { server.control.conversations.list(route: "ws/echo").first?.messages.count == 2 }
            let messages = server.control.conversations.list(route: "ws/echo").flatMap(\.messages).map { String(decoding: $0.bytes, as: UTF8.self) }
            let lines = server.journal().flatMap { record in [AccessLogLine.format(record, as: .text), AccessLogLine.format(record, as: .json)] }
                .compactMap { $0 }.joined()
            for (place, text) in [("journal", journal), ("pact", pact), ("conversation", messages.joined()), ("access log", lines)] {
                for secret in SecretRedactionTests.secrets { #expect(!text.contains(secret), "\(secret) in the \(place): \(text.prefix(2000))") }
            }
            // What is not a secret stays as it was sent.
            #expect(journal.contains("jane%40example.com") || journal.contains("jane@example.com"), "\(journal.prefix(2000))")
            #expect(journal.contains(#"\"max_tokens\": 100"#) && journal.contains("Shop") && journal.contains("page"), "\(journal.prefix(2000))")
            #expect(lines.contains("token=<redacted ") && lines.contains("page=2"), "\(lines)")
            #expect(lines.contains(#"variables:{"input":{"password":"<redacted "#), "\(lines)")
            #expect(messages.first?.contains(#""password": "<redacted "#) == true, "\(messages)")
            // A test still checks what the app sent.
            let records = server.journal(route: "app/login").map(\.request)
            let first = try #require(records.first)
            #expect(first.header("X-Api-Key", is: "k3y-0f-the-app") && !first.header("X-Api-Key", is: "another"))
            #expect(first.query("token", is: "qu3ry-t0ken-value") && !first.query("token", is: "another") && first.query("page", is: "2"))
            #expect(first.bodyField("newPassword", is: "n3w-pa55word") && !first.bodyField("newPassword", is: "0ld-pa55word"))
            #expect(first.bodyField("app.client_secret", is: "cl13nt-s3cret") && first.bodyField("app.name", is: "Shop"))
            #expect(records[1].bodyField("password", is: "f0rm-pa55word") && records[1].bodyField("email", is: "jane@example.com"))
            let graphQL = try #require(server.journal(route: "gql/login").first?.request)
            #expect(graphQL.bodyField("variables.input.password", is: "gr4phql-pa55word"))
        }
    }

    @Test func journalCredentialsKeepsEverySecretVerbatim() async throws {
        let stubs = try TemporaryStubDirectory(SecretRedactionTests.stubs)
        try await withServer(stubs: stubs.url, configure: { $0.journalCredentials = true }) { server in
            try await SecretRedactionTests.sendSecrets(to: server)
            let journal = try await HTTPClient.fetch(server.url("/__stubd/journal")).text
            for secret in SecretRedactionTests.secrets.dropLast() { #expect(journal.contains(secret), "\(secret) not in \(journal.prefix(1500))") }
            try await waitUntil("the conversation's messages") { server.control.conversations.list(route: "ws/echo").first?.messages.count == 2 }
            let message = server.control.conversations.list(route: "ws/echo").first?.messages.first.map { String(decoding: $0.bytes, as: UTF8.self) }
            #expect(message?.contains("s0cket-pa55word") == true)
        }
    }

    @Test(arguments: [
        (#"{"password": "a\"b", "n": 1}"#, #"{"password": "<redacted "#),
        (#"[{"token": "x1"}, {"Token": 5, "x": "token"}]"#, #"[{"token": "<redacted "#),
        (#"{"password": {"value": "kept"}, "ok": "password"}"#, #"{"password": {"value": "kept"}, "ok": "password"}"#),
        (#"{"password": "cut off"#, #"{"password": "cut off"#),
    ])
    func jsonBodiesKeepEveryByteButTheSecretStrings(body: String, starts: String) {
        let request = StubRequest(method: "POST", path: "/x", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        let kept = String(decoding: CredentialRedaction.redacted(request).body, as: UTF8.self)
        #expect(kept.hasPrefix(starts), "\(kept)")
        #expect(!kept.contains("x1") && !kept.contains(#"a\"b"#), "\(kept)")
    }
}
