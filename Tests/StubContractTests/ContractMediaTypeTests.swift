import Foundation
import StubCore
import Testing
import StubTestSupport

/// Request bodies are checked against the schema of the media type the request names, the media
/// type is named in problems, and a refused request is answered the way the service answers errors.
@Suite(.timeLimit(.minutes(3))) struct ContractMediaTypeTests {
    static let spec = """
    openapi: 3.0.3
    info: { title: Forms, version: "1" }
    paths:
      /login:
        post:
          requestBody:
            required: true
            content:
              application/json: { schema: { $ref: "#/components/schemas/Login" } }
              application/x-www-form-urlencoded: { schema: { $ref: "#/components/schemas/Login" } }
          responses: { "200": { description: ok } }
      /notes:
        post:
          requestBody:
            content:
              application/json: { schema: { type: object, required: [text], properties: { text: { type: string } } } }
          responses: { "201": { description: made } }
      /upload:
        post:
          requestBody:
            content:
              multipart/form-data: { schema: { type: object, required: [file, title], properties: { file: { type: string, format: binary }, title: { type: string, maxLength: 5 } } } }
          responses: { "201": { description: made } }
    components:
      schemas:
        Login: { type: object, required: [email, remember], properties: { email: { type: string, format: email }, remember: { type: boolean } } }
    """

    @Test func theBodyIsCheckedAsTheMediaTypeItIs() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-media-\(UUID().uuidString)")
        let stubs = root.appendingPathComponent("Stubs")
        for (path, text) in [("Stubs/forms/login/route.json", #"{"method": "POST", "path": "/login", "variants": {"200": {}}}"#),
                             ("Stubs/forms/notes/route.json", #"{"method": "POST", "path": "/notes", "variants": {"201": {}}}"#),
                             ("Stubs/forms/upload/route.json", #"{"method": "POST", "path": "/upload", "variants": {"201": {}}}"#),
                             ("spec.yaml", ContractMediaTypeTests.spec)] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        try await withServer(stubs: stubs, configure: { $0.check(against: root.appendingPathComponent("spec.yaml")) }) { server in
            _ = try await HTTPClient.fetch(server.url("/login"), method: "POST", headers: form, body: Data("email=jane%40example.com&remember=true".utf8))
            _ = try await HTTPClient.fetch(server.url("/login"), method: "POST", headers: form, body: Data("email=jane&remember=maybe".utf8))
            _ = try await HTTPClient.fetch(server.url("/login"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"email": "jane@example.com", "remember": false}"#.utf8))
            _ = try await HTTPClient.fetch(server.url("/notes"), method: "POST", headers: form, body: Data("text=hi".utf8))
            _ = try await HTTPClient.fetch(server.url("/notes"), method: "POST", headers: ["Content-Type": "application/json"], body: Data("{oops".utf8))
            let boundary = "XyZ"
            let multipart = "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nmuch too long\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"extra\"\r\n\r\nx\r\n--\(boundary)--\r\n"
            _ = try await HTTPClient.fetch(server.url("/upload"), method: "POST", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: Data(multipart.utf8))
            let seen = server.journal().map { $0.contract?.map { "\($0.location): \($0.problem)" } ?? [] }
            #expect(seen == [
                [],
                [#"$.body.email: "jane" is not a valid email"#, #"$.body.remember: expected boolean, found "maybe""#],
                [],
                ["$.body: application/x-www-form-urlencoded is not accepted; expected application/json"],
                ["$.body: not valid JSON (application/json): expected a quoted key, found 'o' (line 1)"],
                [#"$.body: missing required key "file""#, "$.body.title: expected at most 5 characters, found 13"],
            ], "\(seen)")
        }
        // Refused, without an error envelope in the service: stubd's own JSON, each problem apart.
        try await withServer(stubs: stubs, configure: { $0.check(against: root.appendingPathComponent("spec.yaml"), enforces: true) }) { server in
            let refused = try await HTTPClient.fetch(server.url("/notes"), method: "POST", headers: form, body: Data("text=hi".utf8))
            #expect(refused.status == 415)
            let body = try #require(try refused.json() as? [String: Any])
            #expect(body["error"] as? String == "request does not match the API contract")
            #expect((body["problems"] as? [[String: String]])?.first?["where"] == "$.body")
        }
    }
}
