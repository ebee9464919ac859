import Foundation
import StubCore
import StubServer
import Testing
import StubTestSupport

/// Keeps docs/admin-api.json true: it lists exactly the endpoints the server answers, and each
/// documented call answers with a documented status.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIDocumentTests {
    func document() throws -> [String: Any] {
        let data = try Data(contentsOf: Repository.root.appendingPathComponent("docs/admin-api.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func documentedOperations() throws -> [String: [String: Any]] {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var operations: [String: [String: Any]] = [:]
        for (path, item) in paths {
            for (method, operation) in item where ["get", "put", "post", "delete"].contains(method) {
                operations["\(method.uppercased()) \(path)"] = operation as? [String: Any]
            }
        }
        return operations
    }

    @Test func documentListsExactlyTheImplementedEndpoints() throws {
        #expect(Set(try documentedOperations().keys) == Set(AdminAPI.endpoints))
    }

    @Test func everyDocumentedCallAnswersWithADocumentedStatus() async throws {
        let operations = try documentedOperations()
        try await withServer { server in
            // The stream never ends on its own; StreamTests and LiveJournalTests read it with a time limit.
            for (key, operation) in operations.sorted(by: { $0.key < $1.key }) where key != "GET /__stubd/journal/stream" {
                let parts = key.split(separator: " ")
                let method = String(parts[0])
                let path = parts[1].replacingOccurrences(of: "{route}", with: "app/users").replacingOccurrences(of: "/__stubd", with: "")
                let body = method == "PUT" ? #"{"variant": "500"}"# : nil
                let got = try await AdminClient(server: server).call(method, path, json: body)
                let responses = try #require(operation["responses"] as? [String: Any])
                #expect(responses[String(got.status)] != nil, "\(key) answered \(got.status), documented: \(responses.keys.sorted())")
                let documented = ((responses[String(got.status)] as? [String: Any])?["content"] as? [String: Any])?.keys.sorted() ?? []
                let type = got.header("Content-Type")?.split(separator: ";").first.map(String.init) ?? ""
                #expect(documented.contains(type), "\(key) answered \(type), documented: \(documented)")
            }
        }
    }
}
