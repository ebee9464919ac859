import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A GraphQL service: one endpoint, one route folder per operation, found by the operation's name
/// and answered in GraphQL's shapes, over a real socket.
@Suite(.timeLimit(.minutes(3))) struct GraphQLTests {
    static let stubs = [
        "gql/_service.json": #"{"graphql": {"path": "/graphql"}}"#,
        "gql/user/route.json": #"""
        {"operation": "GetUser",
         "variants": {
           "200": {"when": {"variables": {"id": "1"}}},
           "200-other": {"when": {"variables": {"id": "*"}}},
           "200-missing": {"error": {"message": "No user with that id", "code": "NOT_FOUND"}}
         },
         "default": "200-missing"}
        """#,
        "gql/user/200.json": #"{"data": {"user": {"id": "1", "name": "Ada"}}}"#,
        "gql/user/200-other.json": #"{"data": {"user": {"id": "2", "name": "Grace"}}}"#,
        "gql/create/route.json": #"{"operation": "CreateUser", "kind": "mutation"}"#,
        "gql/create/200.json": #"{"data": {"createUser": {"id": "9"}}}"#,
        "rest/hello/route.json": #"{"method": "GET", "path": "/hello"}"#,
        "rest/hello/200.json": #"{"hello": true}"#,
    ]

    func post(_ server: StubServer, _ json: String, path: String = "/graphql") async throws -> Fetched {
        try await HTTPClient.fetch(server.url(path), method: "POST", headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    func errors(_ fetched: Fetched) throws -> [[String: Any]] {
        try #require((try fetched.json() as? [String: Any])?["errors"] as? [[String: Any]])
    }

    @Test func operationsAreFoundByNameOrFromTheDocument() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let byName = try await post(server, #"{"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { id name } }", "variables": {"id": "1"}}"#)
            #expect(byName.status == 200 && byName.text.contains("Ada"))
            // No operationName: the first named operation of the document, past comments and strings.
            let fromDocument = try await post(server, ##"{"query": "# query Decoy\n mutation CreateUser($query: String = \"query X\") { createUser { id } }"}"##)
            #expect(fromDocument.status == 200 && fromDocument.text.contains("createUser"), "\(fromDocument.text)")
            // GET, with the variables in the query string.
            var get = URLComponents(url: server.url("/graphql"), resolvingAgainstBaseURL: false)!
            get.queryItems = [URLQueryItem(name: "query", value: "query GetUser($id: ID!) { user(id: $id) { name } }"),
                              URLQueryItem(name: "variables", value: #"{"id": "2"}"#)]
            let viaGet = try await HTTPClient.fetch(get.url!)
            #expect(viaGet.status == 200 && viaGet.text.contains("Grace"))
            // Plain routes of other services are unaffected.
            #expect(try await HTTPClient.fetch(server.url("/hello")).text.contains("hello"))
        }
    }

    @Test func variablesPickTheVariantAndErrorsAreGraphQLs() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let other = try await post(server, #"{"operationName": "GetUser", "variables": {"id": "7"}}"#)
            #expect(other.text.contains("Grace"))
            let missing = try await post(server, #"{"operationName": "GetUser", "query": "query GetUser { user { id } }"}"#)
            #expect(missing.status == 200)
            let body = try #require(try missing.json() as? [String: Any])
            #expect(body["data"] is NSNull)
            let first = try #require(try errors(missing).first)
            #expect(first["message"] as? String == "No user with that id")
            #expect((first["extensions"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
        }
    }

    @Test func anUnknownOperationNamesTheClosestOnes() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let unknown = try await post(server, #"{"query": "query GetUsr { user { id } }"}"#)
            #expect(unknown.status == 200)
            let error = try #require(try errors(unknown).first)
            let extensions = try #require(error["extensions"] as? [String: Any])
            #expect(extensions["code"] as? String == "STUBD_NO_STUB" && extensions["operation"] as? String == "GetUsr")
            #expect(extensions["nearMisses"] as? [String] == ["GetUser"])
            #expect((error["message"] as? String)?.contains("GetUsr") == true)
            let anonymous = try await post(server, #"{"query": "{ me { id } }"}"#)
            #expect((try errors(anonymous).first?["extensions"] as? [String: Any])?["code"] as? String == "STUBD_NO_OPERATION_NAME")
            let bad = try await post(server, "{not json")
            let badCode = (try errors(bad).first?["extensions"] as? [String: Any])?["code"] as? String
            #expect(bad.status == 400 && badCode == "BAD_REQUEST")
            let put = try await HTTPClient.fetch(server.url("/graphql"), method: "PUT", body: Data("{}".utf8))
            #expect(put.status == 405 && put.header("Allow") == "GET, POST")
        }
    }

    @Test func aBatchIsAnsweredWithAnArrayInOrder() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url) { server in
            let batch = try await post(server, #"[{"operationName": "GetUser", "variables": {"id": "1"}}, {"operationName": "Nope"}, {"operationName": "CreateUser"}]"#)
            #expect(batch.status == 200)
            let items = try #require(try batch.json() as? [[String: Any]])
            #expect(items.count == 3)
            #expect(((items[0]["data"] as? [String: Any])?["user"] as? [String: Any])?["name"] as? String == "Ada")
            #expect(((items[1]["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String == "STUBD_NO_STUB")
            #expect(((items[2]["data"] as? [String: Any])?["createUser"] as? [String: Any])?["id"] as? String == "9")
        }
    }

    @Test func overridesTheJournalAndCurlSeeOperations() async throws {
        let folder = try TemporaryStubDirectory(GraphQLTests.stubs)
        try await withServer(stubs: folder.url) { server in
            try server.override(route: "gql/user", variant: "200-missing")
            let overridden = try await post(server, #"{"operationName": "GetUser", "variables": {"id": "1"}}"#)
            #expect(try errors(overridden).first?["message"] as? String == "No user with that id")
            let curl = try await Curl.run(["-s", "-X", "POST", "-H", "Content-Type: application/json", "--data",
                                           #"{"operationName": "CreateUser", "query": "mutation CreateUser { createUser { id } }"}"#,
                                           server.url("/graphql").absoluteString])
            #expect(curl.exitCode == 0 && curl.stdout.contains("createUser"), "\(curl.stdout)")
            // A session prefix scopes an override to one test, as for any route.
            let admin = try await HTTPClient.fetch(server.url("/__stubd/routes/gql/create"), method: "PUT",
                                                   headers: ["X-Stub-Session": "s1", "Content-Type": "application/json"],
                                                   body: Data(#"{"fault": "reset"}"#.utf8))
            #expect(admin.status == 200, "\(admin.text)")
            let scoped = await HTTPClient.errorCode(server.url("/__session/s1/graphql?operationName=CreateUser"))
            #expect(scoped == .networkConnectionLost || scoped == .badServerResponse, "\(String(describing: scoped))")
            let unscoped = try await HTTPClient.fetch(server.url("/graphql?operationName=CreateUser"))
            #expect(unscoped.text.contains("createUser"))
            // The global journal: the session's request is in its own.
            let records = await server.waitForRequests(count: 3)
            #expect(records.map(\.operation) == ["GetUser", "CreateUser", "CreateUser"])
            #expect(records.map(\.routeID) == ["gql/user", "gql/create", "gql/create"])
            let inSession = await server.waitForRequests(count: 1, session: "s1")
            // URLSession retries a GET once after a reset, so one or two records.
            #expect(!inSession.isEmpty && inSession.allSatisfy { $0.fault == .reset && $0.operation == "CreateUser" }, "\(inSession.map { ($0.path, $0.status, $0.operation ?? "-", String(describing: $0.fault)) })")
            let journal = try await HTTPClient.fetch(server.url("/__stubd/journal"))
            let entries = try #require((try journal.json() as? [String: Any])?["requests"] as? [[String: Any]])
            #expect(entries.compactMap { $0["operation"] as? String } == ["GetUser", "CreateUser", "CreateUser"])
            #expect(await server.waitForRequests(operation: "GetUser").map(\.routeID) == ["gql/user"])
            let filtered = try await HTTPClient.fetch(server.url("/__stubd/journal?operation=CreateUser"))
            let only = try #require((try filtered.json() as? [String: Any])?["requests"] as? [[String: Any]])
            #expect(only.count == 2 && only.allSatisfy { $0["operation"] as? String == "CreateUser" })
        }
    }

    /// Apollo's automatic persisted queries: a hash alone is not found until its query has been
    /// sent once; a hash in the service's operation manifest is known from the start.
    @Test func persistedQueriesFollowApollosProtocol() async throws {
        let query = "query GetUser($id: ID!) { user(id: $id) { id name } }"
        let hash = sha256Hex(query)
        let other = "mutation CreateUser { createUser { id } }"
        var files = GraphQLTests.stubs
        files["gql/_service.json"] = #"{"graphql": {"path": "/graphql", "manifest": "operations.json"}}"#
        files["gql/operations.json"] = """
        {"format": "apollo-persisted-query-manifest", "version": 1,
         "operations": [{"id": "abc123", "name": "CreateUser", "type": "mutation", "body": "\(other)"}]}
        """
        let folder = try TemporaryStubDirectory(files)
        try await withServer(stubs: folder.url) { server in
            let ext = #""extensions": {"persistedQuery": {"version": 1, "sha256Hash": "\#(hash)"}}"#
            let notFound = try await post(server, #"{"operationName": "GetUser", "variables": {"id": "1"}, \#(ext)}"#)
            let notFoundMessage = try errors(notFound).first?["message"] as? String
            #expect(notFound.status == 200 && notFoundMessage == "PersistedQueryNotFound")
            let full = try await post(server, #"{"query": "\#(query)", "variables": {"id": "1"}, \#(ext)}"#)
            #expect(full.text.contains("Ada"), "\(full.text)")
            // Now the hash alone is enough, the operation name read from the remembered query.
            let again = try await post(server, #"{"variables": {"id": "1"}, \#(ext)}"#)
            #expect(again.text.contains("Ada"), "\(again.text)")
            let wrong = try await post(server, #"{"query": "query GetUser { user { id } }", \#(ext)}"#)
            let wrongMessage = try errors(wrong).first?["message"] as? String
            #expect(wrong.status == 400 && wrongMessage == "provided sha does not match query")
            // An id from the manifest is known from the first request, over GET too.
            var get = URLComponents(url: server.url("/graphql"), resolvingAgainstBaseURL: false)!
            get.queryItems = [URLQueryItem(name: "extensions", value: #"{"persistedQuery": {"version": 1, "sha256Hash": "abc123"}}"#)]
            let manifest = try await HTTPClient.fetch(get.url!)
            #expect(manifest.text.contains("createUser"), "\(manifest.text)")
        }
    }

    /// SHA-256 through the system's `sha256sum`, an oracle independent of stubd's own.
    func sha256Hex(_ text: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-sha-\(UUID().uuidString)")
        try? Data(text.utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try? Subprocess.runBlocking("/usr/bin/sha256sum", [folder.path])
        return String(result?.stdout.prefix(64) ?? "")
    }

    @Test(arguments: [
        (["s/r/route.json": #"{"operation": "GetUser"}"#, "s/r/200.json": "{}"],
         "s/r/route.json: operation: an operation route belongs in a service whose _service.json names its endpoint"),
        (["s/_service.json": #"{"graphql": {"path": "/graphql"}}"#, "s/a/route.json": #"{"operation": "GetUser"}"#, "s/a/200.json": "{}",
          "s/b/route.json": #"{"operation": "GetUser"}"#, "s/b/200.json": "{}"],
         "operation GetUser at /graphql is answered twice: by s/a/ and by s/b/"),
        (["s/_service.json": #"{"graphql": {"path": "/graphql"}}"#, "s/a/route.json": #"{"operation": "Get-User"}"#, "s/a/200.json": "{}"],
         "s/a/route.json: operation: expected a GraphQL name"),
        (["s/_service.json": #"{"graphql": {"path": "/graphql"}}"#, "s/a/route.json": #"{"operation": "Go", "kind": "query!"}"#, "s/a/200.json": "{}"],
         "s/a/route.json: kind: expected query, mutation or subscription"),
        (["s/_service.json": #"{"graphql": {"path": "/graphql"}}"#, "s/a/route.json": #"{"operation": "Go", "path": "/x"}"#, "s/a/200.json": "{}"],
         "s/a/route.json: path: an operation route answers at its service's GraphQL endpoint; expected no path"),
        (["s/_service.json": #"{"graphql": {"path": "graphql"}}"#, "s/a/route.json": #"{"method": "GET", "path": "/a"}"#, "s/a/200.json": "{}"],
         "s/_service.json: graphql.path: expected a fixed path starting with '/'"),
    ])
    func badGraphQLStubsAreExplained(files: [String: String], expected: String) async throws {
        let folder = try TemporaryStubDirectory(files)
        let check = try await Subprocess.run(Repository.stubdBinary, ["check", folder.url.path])
        #expect(check.exitCode == 1)
        #expect((check.stdout + check.stderr).contains(expected), "\(check.stdout)\(check.stderr)")
    }
}

/// A real GraphQL client, Python's `gql` (PyPI; `.ci/run` installs it), against the shipped
/// example: queries, an error in GraphQL's shape, mutations, a batch and persisted queries.
@Suite(.timeLimit(.minutes(3)), .requires(.gql))
struct GraphQLClientTests {
    @Test func gqlGetsEveryAnswerAsStubbed() async throws {
        try await withServer { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/gql_client.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, server.url("/graphql").absoluteString])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            func at(_ object: Any?, _ path: String) -> Any? {
                path.split(separator: ".").reduce(object) { value, key in
                    if let index = Int(key), let array = value as? [Any] { return array.indices.contains(index) ? array[index] : nil }
                    return (value as? [String: Any])?[String(key)]
                }
            }
            #expect(at(out, "query.user.name") as? String == "Jane Appleseed")
            #expect(at(out, "notFound.errors.0.extensions.code") as? String == "NOT_FOUND")
            #expect(at(out, "mutation.createUser.id") as? String == "4")
            #expect(at(out, "invalid.errors.0.extensions.code") as? String == "BAD_USER_INPUT")
            #expect(at(out, "invalid.data.createUser") is NSNull)
            #expect(at(out, "batch.0.users.pageInfo.endCursor") as? String == "2")
            #expect(at(out, "batch.1.users.pageInfo.hasNextPage") as? Bool == false)
            #expect(at(out, "apq.hashOnly.errors.0.message") as? String == "PersistedQueryNotFound")
            #expect(at(out, "apq.withQuery.data.user.name") as? String == "Jane Appleseed")
            #expect(at(out, "apq.again.data.user.name") as? String == "Jane Appleseed")
        }
    }
}
