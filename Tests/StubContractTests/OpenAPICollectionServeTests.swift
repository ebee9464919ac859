import Foundation
import StubContract
import StubCore
import StubServer
import StubTestSupport
import Testing

/// `import-openapi --collections` end to end: the imported folder loads, and the resource answers
/// as a collection seeded with the document's examples.
@Suite(.timeLimit(.minutes(3))) struct OpenAPICollectionServeTests {
    @Test func anImportedResourceServesItsExamplesAndRemembersACreate() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-coll-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = root.appendingPathComponent("api.yaml")
        try Data(OpenAPICollectionImportTests.petstore.utf8).write(to: spec)
        let imported = OpenAPIImporter(try OpenAPIDocument(path: spec.path), collections: true)
        let stubs = root.appendingPathComponent("Stubs")
        for file in imported.files {
            let url = stubs.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        try await withServer(stubs: stubs) { server in
            let page = try #require(try await HTTPClient.fetch(server.url("/v1/pets?per_page=2&sort=-id")).json() as? [String: Any])
            let names = (page["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Kit", "Tom"])
            #expect((page["meta"] as? [String: Any])?["total"] as? Int == 3)
            let created = try await HTTPClient.fetch(server.url("/v1/pets"), method: "POST", headers: ["Content-Type": "application/json"],
                                                     body: Data(#"{"name": "Bo"}"#.utf8))
            #expect(created.status == 201 && created.header("Location") == "/v1/pets/4")
            #expect(try await HTTPClient.fetch(server.url("/v1/pets/4")).status == 200)
            #expect(try await HTTPClient.fetch(server.url("/v1/pets/9")).status == 404)
        }
    }

    @Test func aCreateTheContractRefusesGets422InTheEnvelopeAndStoresNothing() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-coll-enforce-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = """
        openapi: 3.0.3
        info: { title: Notes, version: "1" }
        paths:
          /notes:
            post:
              requestBody: { required: true, content: { application/json: { schema: { type: object, required: [text], properties: { text: { type: string } } } } } }
              responses: { "201": { description: made } }
        """
        for (path, text) in [("Stubs/svc/_service.json", #"{"errorEnvelope": {"error": {"title": "{{title}}", "message": "{{message}}"}}}"#),
                             ("Stubs/svc/notes/route.json", #"{"path": "/notes", "collection": {}}"#), ("spec.yaml", spec)] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try await withServer(stubs: root.appendingPathComponent("Stubs"), configure: { $0.check(against: root.appendingPathComponent("spec.yaml"), enforces: true) }) { server in
            let json = ["Content-Type": "application/json"]
            let refused = try await HTTPClient.fetch(server.url("/notes"), method: "POST", headers: json, body: Data(#"{"text": 5}"#.utf8))
            #expect(refused.status == 422)
            #expect(((try refused.json() as? [String: Any])?["error"] as? [String: String])?["title"] == "Unprocessable Entity")
            let made = try await HTTPClient.fetch(server.url("/notes"), method: "POST", headers: json, body: Data(#"{"text": "hi"}"#.utf8))
            #expect(made.status == 201)
            let list = try #require(try await HTTPClient.fetch(server.url("/notes")).json() as? [[String: Any]])
            #expect(list.count == 1 && list.first?["id"] as? Int == 1, "the refused body was not stored")
        }
    }
}
