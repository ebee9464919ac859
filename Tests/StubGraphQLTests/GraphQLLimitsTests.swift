import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Documents that cost too much get a 400 in GraphQL's error shape before they are read whole,
/// and the limits are the settings', over a real socket.
@Suite(.timeLimit(.minutes(3))) struct GraphQLLimitsTests {
    func post(_ server: StubServer, _ body: Data) async throws -> (status: Int, message: String) {
        let fetched = try await HTTPClient.fetch(server.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"], body: body)
        let errors = (try? fetched.json() as? [String: Any])?["errors"] as? [[String: Any]]
        return (fetched.status, errors?.first?["message"] as? String ?? "")
    }

    func request(_ document: String, operationName: String? = nil) -> Data {
        var object: [String: Any] = ["query": document]
        if let operationName { object["operationName"] = operationName }
        return try! JSONSerialization.data(withJSONObject: object)
    }

    func nested(_ depth: Int) -> String {
        "query GetUser { " + String(repeating: "a { ", count: depth - 1) + "id" + String(repeating: " }", count: depth - 1) + " }"
    }

    @Test func documentsPastTheLimitsAreRefusedUnreadAndTheRestAnswered() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url) { server in
            // 2 MiB, the name in its first bytes: refused before it is read, named or not.
            let huge = nested(200_000)
            for name in [nil, "GetUser"] {
                let refused = try await post(server, request(huge, operationName: name))
                #expect(refused.status == 400 && refused.message.contains("--graphql-max-document"), "\(refused)")
            }
            let deep = try await post(server, request(nested(129)))
            #expect(deep.status == 400 && deep.message.contains("deeper than 128 levels"), "\(deep)")
            #expect(try await post(server, request(nested(128))).status == 200)
            // Braces in strings, block strings and comments are not selections.
            let quoted = "query GetUser($id: ID = \"\(String(repeating: "{", count: 300))\") { user(id: $id) { id } } # \(String(repeating: "{", count: 300))\n"
                + "fragment F on User { note(text: \"\"\"\(String(repeating: "{", count: 300))\"\"\") }"
            #expect(try await post(server, request(quoted)).status == 200)
            let item = #"{"query": "query GetUser { user(id: \"1\") { id } }"}"#
            let batch = try await post(server, Data(("[" + Array(repeating: item, count: 101).joined(separator: ",") + "]").utf8))
            #expect(batch.status == 400 && batch.message.contains("a batch of 101 operations; at most 100"), "\(batch)")
            let fine = try await HTTPClient.fetch(server.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"],
                                                  body: Data(("[" + Array(repeating: item, count: 100).joined(separator: ",") + "]").utf8))
            #expect(fine.status == 200)
            let surrogate = try await post(server, Data(#"{"operationName": "\ud800", "query": "{ a }"}"#.utf8))
            #expect(surrogate.status == 400 && surrogate.message.contains("operationName: not a valid string"), "\(surrogate)")
        }
    }

    @Test func theLimitsAreTheServersSettings() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url, configure: { (c: inout StubServerConfiguration) in
            (c.graphQLMaxDepth, c.graphQLMaxBatch, c.graphQLMaxDocumentBytes) = (4, 2, 1024)
        }) { server in
            let four = try await post(server, request(nested(4))), five = try await post(server, request(nested(5)))
            #expect(four.status == 200 && five.message.contains("deeper than 4 levels"), "\(four) \(five)")
            let long = try await post(server, request("query GetUser { id }" + String(repeating: " ", count: 1100)))
            #expect(long.message.contains("at most 1024"), "\(long)")
            let item = #"{"query": "query GetUser { id }"}"#
            let three = try await post(server, Data("[\(item),\(item),\(item)]".utf8))
            #expect(three.message.contains("at most 2"), "\(three)")
        }
    }
}
