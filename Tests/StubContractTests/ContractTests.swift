import Foundation
import StubContract
import StubCore
import StubServer
import StubTestSupport
import StubTesting
import StubdClient
import Testing

/// OpenAPI import, drift checks and request checks, with documents shaped like real ones.
@Suite(.timeLimit(.minutes(3))) struct ContractTests {
    static let spec = Repository.root.appendingPathComponent("docs/openapi/app.yaml").path

    func stubd(_ arguments: [String]) async throws -> Curl.Result {
        try await Subprocess.run(Repository.stubdBinary, arguments)
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-oas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theShippedStubsAreTrueToTheShippedSpec() async throws {
        let result = try await stubd(["check", Repository.shippedStubs.path, "--openapi", ContractTests.spec])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("true to \(ContractTests.spec) (4 operations)"))
        // The other services have no operation in this document: warnings, errors with --strict.
        #expect(result.stderr.contains("warning: slack/emoji.list/route.json: GET /api/emoji.list has no operation in"))
        let strict = try await stubd(["check", Repository.shippedStubs.path, "--openapi", ContractTests.spec, "--strict"])
        #expect(strict.exitCode == 1)
    }

    @Test func aBrokenStubGivesTheDriftLineByLine() async throws {
        let root = try folder()
        try FileManager.default.copyItem(at: Repository.shippedStubs.appendingPathComponent("app"), to: root.appendingPathComponent("app"))
        let user = root.appendingPathComponent("app/user/200.json")
        let text = try String(contentsOf: user, encoding: .utf8).replacingOccurrences(of: "\"jane@example.com\"", with: "42")
        try Data(text.utf8).write(to: user)
        try Data(#"{"data": [{"id": 1, "name": "", "email": "x@example.com", "createdAt": "2024-01-01T00:00:00Z", "nick": "jj"}], "error": null}"#.utf8)
            .write(to: root.appendingPathComponent("app/users/200-empty.json"))
        try Data(#"{"method": "GET", "path": "/users/{id}/teapot", "variants": {"418": {}}}"#.utf8).write(to: {
            try? FileManager.default.createDirectory(at: root.appendingPathComponent("app/teapot"), withIntermediateDirectories: true)
            return root.appendingPathComponent("app/teapot/route.json")
        }())
        let result = try await stubd(["check", root.path, "--openapi", ContractTests.spec])
        #expect(result.exitCode == 1)
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "app/user/200.json: $.data.email: expected string (format email), found 42 (GET /users/{id} → 200)",
            "app/users/200-empty.json: $.data[0].name: expected at least 1 characters, found 0 (GET /users → 200)",
            #"app/users/200-empty.json: $.data[0].nick: unexpected key "nick" (GET /users → 200)"#,
        ], "\(result.stdout)")
        #expect(result.stderr.contains("warning: app/teapot/route.json: GET /api/v1/users/{id}/teapot has no operation in \(ContractTests.spec)"))
    }

    @Test func importOfThe30YAMLSpecPassesCheckAndTheSpec() async throws {
        let out = try folder()
        let result = try await stubd(["import-openapi", ContractTests.spec, "--stubs", out.path, "--service", "app"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("app/getUser  GET /users/{id}  variants: 200, 404"))
        #expect(result.stdout.contains("OK, 4 routes (stubd check), true to"))
        let service = try String(contentsOf: out.appendingPathComponent("app/_service.json"), encoding: .utf8)
        #expect(service.contains(#""basePath": "/api/v1""#) && service.contains(#""title": "{{title}}""#) && service.contains(#""message": "{{message}}""#))
        let user = try JSONParser.parse(Array(try Data(contentsOf: out.appendingPathComponent("app/getUser/200.json"))))
        #expect(user["data"]?["email"] == .string("user@example.com") && user["data"]?["avatarUrl"] == nil && user["error"] == .null)
        let again = try await stubd(["import-openapi", ContractTests.spec, "--stubs", out.path, "--service", "app"])
        #expect(again.exitCode == 1 && again.stderr.contains("already exists; pass --overwrite"))
        let check = try await stubd(["check", out.path, "--openapi", ContractTests.spec, "--strict"])
        #expect(check.exitCode == 0, "\(check.stdout)")
    }

    @Test func a31JSONSpecWithTypeArraysMatchesTemplatesByPosition() async throws {
        let root = try folder()
        let spec = root.appendingPathComponent("notes.json")
        try Data(#"""
        {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1"}, "servers": [{"url": "https://notes.test/v2"}],
         "paths": {"/notes/{noteId}": {"get": {"operationId": "getNote",
           "parameters": [{"name": "noteId", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
           "responses": {"200": {"description": "A note", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}}}}},
         "components": {"schemas": {"Note": {"type": "object", "required": ["id", "text", "archivedAt"], "properties": {
           "id": {"type": "string", "format": "uuid"}, "text": {"type": "string"}, "archivedAt": {"type": ["string", "null"], "format": "date-time"}}}}}}
        """#.utf8).write(to: spec)
        let stubs = try TemporaryStubDirectory([
            "notes/_service.json": #"{"basePath": "/v2"}"#,
            "notes/note/route.json": #"{"method": "GET", "path": "/notes/{id}", "variants": {"200-archived": {"body": {"id": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "text": "x", "archivedAt": null}}}}"#,
            "notes/note/200.json": #"{"id": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "text": "x", "archivedAt": 42}"#,
        ])
        let result = try await stubd(["check", stubs.url.path, "--openapi", spec.path])
        #expect(result.stdout == "notes/note/200.json: $.archivedAt: expected string or null (format date-time), found 42 (GET /notes/{noteId} → 200)\n", "\(result.stdout)\(result.stderr)")
    }

    @Test func recursiveSchemasStopRefCyclesAreErrorsAndRemoteRefsSkipTheirOperation() async throws {
        let root = try folder()
        try Data("""
        Node:
          type: object
          required: [name, children]
          properties:
            name: { type: string }
            children: { type: array, items: { $ref: "#/Node" } }
        """.utf8).write(to: root.appendingPathComponent("node.yaml"))
        try Data("""
        openapi: 3.0.3
        info: { title: Tree, version: "1" }
        paths:
          /tree:
            get:
              responses:
                "200":
                  description: The tree
                  content:
                    application/json:
                      schema: { $ref: "node.yaml#/Node" }
        """.utf8).write(to: root.appendingPathComponent("tree.yaml"))
        let out = root.appendingPathComponent("Stubs")
        let imported = try await stubd(["import-openapi", root.appendingPathComponent("tree.yaml").path, "--stubs", out.path])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let body = try String(contentsOf: out.appendingPathComponent("Tree/get-tree/200.json"), encoding: .utf8)
        #expect(body == "{\n  \"name\": \"string\",\n  \"children\": []\n}\n", "\(body)")
        try Data("""
        openapi: 3.0.3
        info: { title: Loop, version: "1" }
        paths: {}
        components:
          schemas:
            A: { $ref: "#/components/schemas/B" }
            B: { $ref: "#/components/schemas/A" }
        """.utf8).write(to: root.appendingPathComponent("loop.yaml"))
        let loop = try await stubd(["import-openapi", root.appendingPathComponent("loop.yaml").path, "--stubs", out.path])
        #expect(loop.exitCode == 1 && loop.stderr.contains("loop.yaml:6: $ref cycle: #/components/schemas/A refers back to itself through $refs alone"), "\(loop.stderr)")
        try Data("openapi: 3.1.0\ninfo: { title: R, version: '1' }\npaths:\n  /r:\n    get:\n      responses:\n        '200': { $ref: 'https://example.com/r.yaml#/R' }\n".utf8)
            .write(to: root.appendingPathComponent("remote.yaml"))
        let remote = try await stubd(["import-openapi", root.appendingPathComponent("remote.yaml").path, "--stubs", out.path])
        #expect(remote.exitCode == 1 && remote.stderr.contains("skipped GET /r: uses the remote $ref https://example.com/r.yaml#/R (remote.yaml line 7), which is not fetched"),
                "\(remote.stderr)")
    }

    @Test func requestsThatBreakTheContractAreJournaledOrRefused() async throws {
        try await withServer(configure: { $0.check(against: URL(fileURLWithPath: ContractTests.spec)) }) { server in
            _ = try await HTTPClient.fetch(server.url("/api/v1/users/abc"))
            _ = try await HTTPClient.fetch(server.url("/api/v1/login?email=nope"))
            _ = try await HTTPClient.fetch(server.url("/api/v1/changePass"), method: "POST", headers: ["Content-Type": "application/json"],
                                           body: Data(#"{"oldPassword": "x", "newPassword": "123456"}"#.utf8))
            let records = server.journal()
            #expect(records.map { $0.contract?.map { "\($0.location): \($0.problem)" } ?? [] } == [
                [#"$.path.id: expected integer (format int64), found "abc""#],
                [#"$.query.email: "nope" is not a valid email"#, "$.query.password: missing required query parameter"],
                [],
            ])
            let health = try await HTTPClient.fetch(server.url("/__stubd/health"))
            #expect((try health.json() as? [String: Any])?["contractViolations"] as? Int == 2)
            let journal = try await HTTPClient.fetch(server.url("/__stubd/journal?path=/api/v1/users/abc"))
            #expect(journal.text.contains(#""where": "$.path.id""#))
            // The same through StubdClient, as a UI test outside the process reads it.
            let client = StubdClient(baseURL: server.baseURL)
            let seen = try await client.journal(route: "app/login")
            #expect(seen.first?.contract?.map(\.where) == ["$.query.email", "$.query.password"])
            #expect(seen.first?.proxied == false && seen.first?.scheme == "http")
        }
        try await withServer(configure: { $0.check(against: URL(fileURLWithPath: ContractTests.spec), enforces: true) }) { server in
            let body = try await HTTPClient.fetch(server.url("/api/v1/changePass"), method: "POST", headers: ["Content-Type": "application/json"],
                                                  body: Data(#"{"oldPassword": "x", "newPassword": "123"}"#.utf8))
            // A body-schema failure is a 422, but changePass documents 400 and no 422: the refusal takes the status it documents.
            #expect(body.status == 400)
            // The app service has an error envelope: the refusal comes in it, as the app's decoder expects.
            let envelope = try #require(try body.json() as? [String: Any])
            #expect(envelope["data"] is NSNull)
            #expect(envelope["error"] as? [String: String] == ["title": "Bad Request", "message": "$.body.newPassword: expected at least 6 characters, found 3"])
            #expect(body.header("X-Stubd-Contract") == "violated")
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users/abc")).status == 400)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users/1")).status == 200)
        }
    }
}
