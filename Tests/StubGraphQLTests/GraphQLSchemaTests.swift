import Foundation
import StubCore
import StubGraphQL
import Testing
import StubTestSupport

/// `stubd check --graphql`: operation documents against the schema (graphql-core as the oracle),
/// and each kind of drift between a stub's body and its operation's selection set.
@Suite(.timeLimit(.minutes(3))) struct GraphQLSchemaTests {
    static let schemaFile = Repository.root.appendingPathComponent("docs/graphql/schema.graphqls").path

    func stubd(_ arguments: [String]) async throws -> Curl.Result {
        try await Subprocess.run(Repository.stubdBinary, arguments)
    }

    @Test func theShippedOperationsAreTrueToTheShippedSchema() async throws {
        let result = try await stubd(["check", Repository.shippedStubs.path, "--graphql", GraphQLSchemaTests.schemaFile])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("OK, 4 operations and 8 bodies true to"))
    }

    /// Copies the shipped graphql service and applies `edits` (path → new content).
    func drifted(_ edits: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gqlcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Repository.shippedStubs.appendingPathComponent("graphql"), to: root.appendingPathComponent("graphql"))
        for (path, text) in edits { try Data(text.utf8).write(to: root.appendingPathComponent(path)) }
        return root
    }

    @Test func eachKindOfDriftIsReportedWithFilePathAndSchemaLine() async throws {
        let root = try drifted([
            // email missing, age extra, id a boolean, name null where the schema says String!.
            "graphql/user/200.json": #"{"data": {"user": {"id": true, "name": null, "age": 3}}}"#,
            // An unknown field in the document.
            "graphql/users/operation.graphql": "query ListUsers { users { edges { cursor node { id nickname } } pageInfo { hasNextPage endCursor } } }",
            // The route answers CreateUser; the document has another operation.
            "graphql/createUser/operation.graphql": "mutation AddUser { createUser(input: {name: \"a\", email: \"b\"}) { id } }",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await stubd(["check", root.path, "--graphql", GraphQLSchemaTests.schemaFile])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let schema = GraphQLSchemaTests.schemaFile
        for expected in [
            "graphql/user/200.json: $.data.user.email: missing; the operation selects it (graphql/user/operation.graphql:5)",
            "graphql/user/200.json: $.data.user.age: not selected by the operation (graphql/user/operation.graphql)",
            "graphql/user/200.json: $.data.user.id: expected a string or an integer (ID), found a boolean (\(schema):22)",
            "graphql/user/200.json: $.data.user.name: null where the schema says String! (\(schema):23)",
            "graphql/users/operation.graphql:1:52: Cannot query field 'nickname' on type 'User'.",
            "graphql/createUser/operation.graphql: has no operation CreateUser, which graphql/createUser/route.json answers (it has AddUser)",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)\nin:\n\(result.stdout)")
        }
        #expect(lines.count == 6, "\(result.stdout)")
    }

    /// A schema that breaks the type-system rules, and an operation with a wrong argument: each
    /// problem with its file, line and column, and exit 1.
    @Test func schemaAndArgumentProblemsNameTheirPlace() async throws {
        let sdl = try String(contentsOfFile: GraphQLSchemaTests.schemaFile, encoding: .utf8)
            + "\ntype Robot implements Node {\n  id: String\n  id: ID!\n}\n"
        let root = try drifted(["graphql/user/operation.graphql": "query GetUser($id: ID!) {\n  user(id: $id, upper: true) { id name email role }\n}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-schema-\(UUID().uuidString).graphqls").path
        try Data(sdl.utf8).write(to: URL(fileURLWithPath: schema))
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let result = try await stubd(["check", root.path, "--graphql", schema])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let robot = sdl.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("type Robot") }! + 1
        for expected in [
            "\(schema):\(robot + 2):3: Field 'Robot.id' can only be defined once.",
            "\(schema):\(robot + 1):3: Interface field Node.id expects type ID! but Robot.id is type String.",
            "graphql/user/operation.graphql:2:17: Unknown argument 'upper' on field 'Query.user'.",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)\nin:\n\(result.stdout)")
        }
    }

    /// Without `kind` in route.json, the operation's document says it is a mutation.
    @Test func theKindComesFromTheOperationDocumentWhenRouteJSONGivesNone() async throws {
        let route = try String(contentsOf: Repository.shippedStubs.appendingPathComponent("graphql/createUser/route.json"), encoding: .utf8)
        let root = try drifted(["graphql/createUser/route.json": route.replacingOccurrences(of: #""kind": "mutation","#, with: "")])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(!(try String(contentsOf: root.appendingPathComponent("graphql/createUser/route.json"), encoding: .utf8)).contains("kind"))
        let routes = try await stubd(["routes", root.path])
        let line = routes.stdout.split(separator: "\n").first { $0.contains("/graphql#CreateUser") } ?? ""
        #expect(line.split(separator: " ").contains("MUTATION"), "\(routes.stdout)")
        let check = try await stubd(["check", root.path, "--graphql", GraphQLSchemaTests.schemaFile])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func partialDataWithErrorsMayHoldNullsAndScalarsAreChecked() throws {
        let schema = try GraphQLSchema.parse(String(contentsOfFile: GraphQLSchemaTests.schemaFile, encoding: .utf8), file: "s").get()
        let root = try drifted([
            "graphql/user/200.json": #"{"data": {"user": {"id": 1, "name": "A", "email": null}}}"#,
            "graphql/users/200.json": #"{"data": {"users": null}, "errors": [{"message": "down"}]}"#,
            "graphql/users/200-page-2.json": #"{"data": {"users": {"edges": [{"cursor": "3", "node": {"id": "3", "name": 7}}], "pageInfo": {"hasNextPage": "no", "endCursor": null}}}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let catalog = try StubLoader.load(directory: root.path).get()
        let check = GraphQLStubCheck(catalog: catalog, schema: schema)
        // An integer ID and a null nullable field fit; a null under errors fits; the page-2 body does not.
        #expect(check.problems.sorted() == [
            "graphql/users/200-page-2.json: $.data.users.edges[0].node.name: expected a string (String), found a number (s:23)",
            "graphql/users/200-page-2.json: $.data.users.pageInfo.hasNextPage: expected a boolean (Boolean), found a string (s:48)",
        ], "\(check.problems)")
    }

    static let documents = [
        "query { user(id: \"1\") { id name } }",
        "query Q($id: ID!) { user(id: $id) { ...F } } fragment F on User { id email role }",
        "query { users { edges { node { ... on Node { id } } } } }",
        "mutation M { createUser(input: {name: \"a\", email: \"b\"}) { id __typename } }",
        "query { user(id: \"1\") { nickname } }",
        "query { user(id: \"1\") }",
        "query { user(id: \"1\") { id { x } } }",
        "query { user(id: \"1\") { ...Missing } }",
        "query { users { edges { node { ... on Robot { id } } } } }",
        "fragment G on Nothing { id } query { user(id: \"1\") { id } }",
        "query { users { pageInfo { hasNextPage cursor } } }",
    ]

    /// graphql-core (PyPI), the reference implementation's port, validates the same documents:
    /// each is valid for both or invalid for both.
    @Test(.requires(.graphqlCore))
    func validationAgreesWithGraphQLCore() async throws {
        let sdl = try String(contentsOfFile: GraphQLSchemaTests.schemaFile, encoding: .utf8)
        let schema = try GraphQLSchema.parse(sdl, file: "schema.graphqls").get()
        // The shipped operations' documents too.
        let shipped = try ["user", "users", "createUser"].map {
            try String(contentsOf: Repository.shippedStubs.appendingPathComponent("graphql/\($0)/operation.graphql"), encoding: .utf8)
        }
        let documents = GraphQLSchemaTests.documents + shipped
        let input = try JSONSerialization.data(withJSONObject: ["schema": sdl, "documents": documents])
        let script = Repository.root.appendingPathComponent("Tests/Clients/graphql_validate.py").path
        let input_ = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gqlv-\(UUID().uuidString).json")
        try input.write(to: input_)
        defer { try? FileManager.default.removeItem(at: input_) }
        let run = try await Subprocess.run("/bin/sh", ["-c", "python3 '\(script)' < '\(input_.path)'"])
        #expect(run.exitCode == 0, "\(run.stderr)")
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String]])
        #expect(oracle.count == documents.count)
        var invalid = 0
        for (document, errors) in zip(documents, oracle) {
            let ours = GraphQLOperations.parse(document, file: "d").map { GraphQLStubCheck.validate($0, against: schema) }
            let oursValid = (try? ours.get())?.isEmpty == true
            #expect(oursValid == errors.isEmpty, "\(document)\ngraphql-core: \(errors)\nstubd: \(ours)")
            if !errors.isEmpty { invalid += 1 }
        }
        #expect(invalid == 7, "the suite has both kinds")
    }
}
