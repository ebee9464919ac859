import Foundation
import StubCapture
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// `stubd import-postman`: each saved example a variant named after it, answered as saved, and
/// picked by a Postman mock server's `x-mock-response-name` / `x-mock-response-code`.
@Suite(.timeLimit(.minutes(3))) struct PostmanImportTests {
    /// Writes the collection (and an environment) to files and imports them with the real binary.
    func importing(_ collection: String, environment: String? = nil, _ extra: [String] = []) async throws -> (result: Curl.Result, stubs: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-postman-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("collection.json")
        try Data(collection.utf8).write(to: file)
        var arguments = ["import-postman", file.path, "--stubs", dir.appendingPathComponent("Stubs").path] + extra
        if let environment {
            let envFile = dir.appendingPathComponent("env.json")
            try Data(environment.utf8).write(to: envFile)
            arguments += ["--environment", envFile.path]
        }
        return (try await Subprocess.run(Repository.stubdBinary, arguments), dir.appendingPathComponent("Stubs"))
    }

    @Test func examplesBecomeNamedVariantsAnsweredAsSaved() async throws {
        let (result, stubs) = try await importing(PostmanFixtures.shop)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("GET /v1/users/{id}  variants: 200-user-found, 404-user-not-found"), "\(result.stdout)")
        #expect(result.stdout.contains("variants: 200-first-page, 200-second-page"), "\(result.stdout)")
        #expect(result.stdout.contains("POST /v1/login  variants: 200-logged-in, 401-wrong-password"), "\(result.stdout)")
        // The request without an example is named, not silently dropped.
        #expect(result.stderr.contains("skipped Users / Delete user: no saved example"), "\(result.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: stubs.path).compactMap { try? String(contentsOfFile: stubs.appendingPathComponent($0).path, encoding: .utf8) }
        #expect(files.count >= 7 && !files.joined().contains("s3cr3t-session-value"), "a secret reached a stub file")
        let route = try String(contentsOf: stubs.appendingPathComponent("api.shop.example/get-users-id/route.json"), encoding: .utf8)
        #expect(route.contains(#""description": "Postman: Users / Get user""#) && route.contains(#""description": "User not found""#), "\(route)")
        try await withServer(stubs: stubs) { server in
            func get(_ path: String, _ headers: [String: String] = [:], method: String = "GET", body: String? = nil) async throws -> Fetched {
                try await HTTPClient.fetch(server.url(path), method: method, headers: headers, body: body.map { Data($0.utf8) })
            }
            let found = try await get("/v1/users/1")
            #expect(found.status == 200 && found.text.contains("\"Ann\"") && found.header("ETag") == "\"u1\"")
            #expect(try await get("/v1/users/999").status == 404)
            #expect(try await get("/v1/users?page=2").text.contains("3"))
            let login = try await get("/v1/login", ["Content-Type": "application/json"], method: "POST", body: #"{"user": "bob", "password": "wrong"}"#)
            #expect(login.status == 401)
            // Postman's mock selection headers pick a variant by the example's name or status.
            #expect(try await get("/v1/users/1", ["x-mock-response-name": "User not found"]).status == 404)
            #expect(try await get("/v1/users/1", ["x-mock-response-code": "404"]).status == 404)
            #expect(try await get("/v1/users/999", ["X-Mock-Response-Name": "200-user-found"]).status == 200)
            let unknown = try await get("/v1/users/1", ["x-mock-response-name": "Nope"])
            #expect(unknown.status == 400 && unknown.text.contains("404-user-not-found"), "\(unknown.text)")
            #expect(try await get("/v1/users/1", ["x-mock-response-code": "abc"]).status == 400)
        }
    }

    @Test func aLegacyCollectionTakesItsHostFromAnEnvironment() async throws {
        // Without it, `{{host}}` stands for the base, with a warning.
        let without = try await importing(PostmanFixtures.legacy)
        #expect(without.result.exitCode == 0)
        #expect(without.result.stderr.contains("warning: {{host}} is not defined"), "\(without.result.stderr)")
        let (result, stubs) = try await importing(PostmanFixtures.legacy, environment: PostmanFixtures.environment)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("staging.example-8080"), "\(result.stdout)")
        try await withServer(stubs: stubs) { server in
            let got = try await HTTPClient.fetch(server.url("/status"))
            #expect(got.status == 200 && got.text.contains("true"))
        }
    }

    /// A path variable without a value is still a parameter: any value answers.
    @Test func aPathVariableWithoutAValueIsAParameter() async throws {
        let collection = #"""
        {"info": {"name": "Bare"}, "item": [{"name": "Order", "request": {"method": "GET", "url": "https://api.example/orders/:orderId/items/:itemId"},
          "response": [{"name": "An item", "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"n\": 1}"}]}]}
        """#
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0 && result.stdout.contains("GET /orders/{orderId}/items/{itemId}"), "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            let got = try await HTTPClient.fetch(server.url("/orders/7/items/abc"))
            #expect(got.status == 200 && got.text.contains("1"))
        }
    }

    @Test func aBrokenCollectionIsNamedWithWhereAndWhat() async throws {
        let (result, _) = try await importing(#"{"info": {}, "items": []}"#)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("collection.json: item: expected an array of items (a Postman collection, format v2.0 or v2.1)"), "\(result.stderr)")
    }
}
