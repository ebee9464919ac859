import Foundation
import StubCore
import StubTestSupport
import StubdClient
import StubServer
import StubTesting
import Testing

/// Pact both ways, with the official implementation (pact-python, its Rust core inside) as the
/// oracle: the journal exported as a contract that the Pact verifier passes against stubd serving
/// the same stubs, and a contract written by pact-python's consumer DSL imported and verified.
@Suite(.requires(.pactPython), .timeLimit(.minutes(2)))
struct PactTests {
    static let stubs: [String: String] = [
        "api/_service.json": #"{"basePath": "/v1", "errorEnvelope": {"error": {"code": "{{status}}", "message": "{{message}}"}}}"#,
        "api/user/route.json": #"""
        {"method": "GET", "path": "/users/{id}", "variants": {
          "200": {"when": {"path": {"id": "1"}}, "body": {"id": 1, "name": "Ann"}},
          "404": {"when": {"path": {"id": "*"}}, "error": {"message": "no such user"}}}}
        """#,
        "api/users/route.json": #"""
        {"method": "GET", "path": "/users", "variants": {
          "200": {"body": [{"id": 1}, {"id": 2}]},
          "200-page-2": {"when": {"query": {"page": "2"}}, "body": [{"id": 3}]}}}
        """#,
        "api/greeting/route.json": #"""
        {"method": "GET", "path": "/greeting", "variants": {
          "200": {"body": {"text": "hello"}},
          "200-fr": {"when": {"headers": {"Accept-Language": "fr"}}, "body": {"text": "bonjour"}}}}
        """#,
        "api/orders/route.json": #"""
        {"method": "POST", "path": "/orders", "variants": {
          "201": {"when": {"body": {"item": "book"}}, "body": {"id": "o1", "item": "{{body.item}}"}, "template": true},
          "422": {"error": {"message": "unknown item"}}}}
        """#,
    ]

    func oracle(_ arguments: [String]) async throws -> Curl.Result {
        let script = Repository.root.appendingPathComponent("Tests/Clients/pact_oracle.py").path
        return try await Subprocess.run("/usr/bin/env", ["python3", script] + arguments)
    }

    @Test func anExportedJournalVerifiesAgainstTheSameStubs() async throws {
        let stubs = try TemporaryStubDirectory(PactTests.stubs)
        try await withServer(stubs: stubs.url) { server in
            func send(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async throws {
                var all = headers
                all["X-Stub-Session"] = "checkout-test"
                _ = try await HTTPClient.fetch(server.url(path), method: method, headers: all, body: body.map { Data($0.utf8) })
            }
            try await send("/v1/users/1")
            try await send("/v1/users/77")
            try await send("/v1/users?page=2")
            try await send("/v1/greeting", headers: ["Accept-Language": "fr", "User-Agent": "App/1.0"])
            try await send("/v1/orders", method: "POST", headers: ["Content-Type": "application/json"], body: #"{"item": "book"}"#)
            try await send("/v1/orders", method: "POST", headers: ["Content-Type": "application/json"], body: #"{"item": "kite"}"#)
            try await send("/v1/users/1")  // a repeat: one interaction
            // Outside the session: not in its contract.
            _ = try await HTTPClient.fetch(server.url("/v1/users"))
            let client = StubdClient(baseURL: server.baseURL)
            let pact = try await client.pact(consumer: "ShopApp", provider: "ShopAPI", session: "checkout-test")
            #expect(try await client.pact(consumer: "ShopApp", provider: "ShopAPI", session: "checkout-test") == pact, "the same journal, the same bytes")
            let text = String(decoding: pact, as: UTF8.self)
            let json = try #require(try JSONSerialization.jsonObject(with: pact) as? [String: Any])
            let interactions = try #require(json["interactions"] as? [[String: Any]])
            #expect(interactions.count == 6, "\(text)")
            // Only the header a `when` looks at goes into the contract.
            #expect(text.contains("Accept-Language") && !text.contains("User-Agent"), "\(text)")
            #expect(text.contains(#""regex": "^/v1/users/[^/]+/?$""#) && text.contains(#""match": "type""#), "\(text)")
            let file = stubs.url.deletingLastPathComponent().appendingPathComponent("pact-\(UUID().uuidString).json")
            try pact.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let base = "http://127.0.0.1:\(server.port)"
            let verified = try await oracle(["verify", file.path, base, base + "/__stubd/pact/state"])
            #expect(verified.exitCode == 0 && verified.stdout.contains("verified"), "\(verified.stdout)\(verified.stderr)")
        }
    }

    @Test func aConsumerDSLContractImportsAndVerifies() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-pact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try await oracle(["consumer", dir.path])
        #expect(written.exitCode == 0, "\(written.stderr)")
        let pactFile = written.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stubs = dir.appendingPathComponent("Stubs")
        let imported = try await Subprocess.run(Repository.stubdBinary, ["import-pact", pactFile, "--stubs", stubs.path])
        #expect(imported.exitCode == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stdout.contains("GET /users/{userId}  variants: 200-user-1-exists, 404-no-user-999"), "\(imported.stdout)")
        try await withServer(stubs: stubs) { server in
            // A provider state picks its variant by header too.
            let missing = try await HTTPClient.fetch(server.url("/users/1"), headers: ["x-mock-response-name": "no user 999"])
            #expect(missing.status == 404)
            let base = "http://127.0.0.1:\(server.port)"
            let verified = try await oracle(["verify", pactFile, base, base + "/__stubd/pact/state"])
            #expect(verified.exitCode == 0 && verified.stdout.contains("verified"), "\(verified.stdout)\(verified.stderr)")
        }
    }

    /// A contract whose provider answers otherwise fails verification: the oracle can fail.
    @Test func aContractTheStubsDoNotHonourFails() async throws {
        let stubs = try TemporaryStubDirectory(PactTests.stubs)
        let file = stubs.url.deletingLastPathComponent().appendingPathComponent("pact-\(UUID().uuidString).json")
        try Data(#"""
        {"consumer": {"name": "A"}, "provider": {"name": "B"}, "metadata": {"pactSpecification": {"version": "3.0.0"}},
         "interactions": [{"description": "user 1", "request": {"method": "GET", "path": "/v1/users/1"},
                           "response": {"status": 200, "body": {"id": 1, "name": "Bea"}}}]}
        """#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withServer(stubs: stubs.url) { server in
            let base = "http://127.0.0.1:\(server.port)"
            let verified = try await oracle(["verify", file.path, base, base + "/__stubd/pact/state"])
            #expect(verified.exitCode == 1, "\(verified.stdout)")
        }
    }
}
