import Foundation
import StubServer
import StubTesting
import StubTestSupport
import Testing

/// GraphQL subscriptions over the endpoint's WebSocket: `graphql-transport-ws` (Apollo iOS's
/// protocol) and the legacy `graphql-ws`, as Python's gql speaks them, variants chosen by the
/// subscription's variables, a `next` pushed from the admin API, the protocol's close codes, and
/// `check --graphql` reading the payloads against the schema.
@Suite(.timeLimit(.minutes(2))) struct GraphQLSubscriptionTests {
    static let stubs = [
        "graphql/_service.json": #"{"graphql": {"path": "/graphql"}}"#,
        "graphql/user/route.json": #"{"operation": "GetUser", "variants": {"200": {"body": {"data": {"user": {"id": "1", "name": "Jane"}}}}}}"#,
        "graphql/onPrice/operation.graphql": "subscription OnPrice($symbol: String!) { price(symbol: $symbol) { symbol value } }\n",
        "graphql/onPrice/route.json": #"""
        {
          "operation": "OnPrice",
          "variants": {
            "aapl": {"when": {"variables": {"symbol": "AAPL"}}, "next": [
              {"data": {"price": {"symbol": "AAPL", "value": 191.2}}},
              {"data": {"price": {"symbol": "AAPL", "value": 191.4}}, "delay": {"ms": 100}},
              {"data": {"price": {"symbol": "AAPL", "value": 191.1}}, "delay": {"ms": 100}}
            ]},
            "denied": {"when": {"variables": {"symbol": "XXX"}}, "error": {"message": "unknown symbol", "code": "BAD_SYMBOL"}},
            "open": {"next": [], "complete": false}
          },
          "default": "open"
        }
        """#,
    ]
    static let schema = """
        type Query { user(id: ID!): User }
        type Subscription { price(symbol: String!): Price! }
        type User { id: ID! name: String! }
        type Price { symbol: String! value: Float! }
        """

    @Test(.requires(.gql, .websockets))
    func gqlSubscribesOverBothProtocols() async throws {
        let folder = try TemporaryStubDirectory(GraphQLSubscriptionTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/gql_subscriptions.py").path
            let base = server.baseURL.absoluteString.trimmingCharacters(in: ["/"])
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, PythonWebSockets.url(server) + "/graphql", base])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            // The kind comes from operation.graphql; the variant from the subscription's variables.
            #expect(seen["transportWS"] as? [Double] == [191.2, 191.4, 191.1])
            #expect(seen["legacy"] as? [Double] == [191.2, 191.4, 191.1])
            #expect(seen["denied"] as? String == "unknown symbol")
            #expect(((seen["queryOverSocket"] as? [String: Any])?["user"] as? [String: Any])?["name"] as? String == "Jane")
            #expect(seen["unknown"] as? String == "STUBD_NO_STUB")
            let pushed = try #require(seen["pushed"] as? [String: Any])
            #expect(pushed["sent"] as? Int == 1 && pushed["value"] as? Double == 420.5 && pushed["route"] as? String == "graphql/subscriptions")
            for (key, code) in [("subscribeBeforeInit", 4401), ("initTwice", 4429), ("duplicateID", 4409), ("notJSON", 4400)] {
                #expect((seen[key] as? [Any])?.first as? Int == code, "\(key): \(seen[key] ?? "nothing")")
            }
        }
    }

    @Test func aSubscriptionOverHTTPIsToldWhereToGo() async throws {
        let folder = try TemporaryStubDirectory(GraphQLSubscriptionTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let got = try await HTTPClient.fetch(server.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"],
                                                 body: Data(#"{"query": "subscription OnPrice { price(symbol: \"A\") { value } }"}"#.utf8))
            #expect(got.status == 200)
            #expect(got.text.contains("STUBD_SUBSCRIPTION_OVER_HTTP") && got.text.contains("graphql-transport-ws"), "\(got.text)")
        }
    }

    @Test func checkReadsEachPayloadAgainstTheSchema() async throws {
        var stubs = GraphQLSubscriptionTests.stubs
        let good = try TemporaryStubDirectory(stubs)
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-sub-\(UUID().uuidString).graphqls")
        try Data(GraphQLSubscriptionTests.schema.utf8).write(to: schema)
        defer { try? FileManager.default.removeItem(at: schema) }
        let ok = try await Subprocess.run(Repository.stubdBinary, ["check", good.url.path, "--graphql", schema.path])
        #expect(ok.exitCode == 0 && ok.stdout.contains("1 operations and 4 bodies"), "\(ok.stdout)\(ok.stderr)")
        stubs["graphql/onPrice/route.json"] = stubs["graphql/onPrice/route.json"]!.replacingOccurrences(of: #""value": 191.4"#, with: #""value": "high""#)
        let drifted = try TemporaryStubDirectory(stubs)
        let bad = try await Subprocess.run(Repository.stubdBinary, ["check", drifted.url.path, "--graphql", schema.path])
        #expect(bad.exitCode != 0)
        #expect((bad.stdout + bad.stderr).contains("graphql/onPrice/route.json: variants.aapl.next[1]"), "\(bad.stdout)\(bad.stderr)")
    }
}
