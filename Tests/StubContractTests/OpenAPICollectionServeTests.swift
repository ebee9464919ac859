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
}
