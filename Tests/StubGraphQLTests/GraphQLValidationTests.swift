import Foundation
import StubCore
import StubGraphQL
import Testing
import StubTestSupport

/// `check --graphql` on the schema itself (the type-system rules) and on operations' arguments
/// and variables, each case against graphql-core (PyPI), the reference implementation's port:
/// the same problems, message for message.
@Suite(.timeLimit(.minutes(3)), .requires(.graphqlCore))
struct GraphQLValidationTests {
    /// graphql-core's messages for `request` (see Tests/Clients/graphql_validate.py).
    func oracle(_ request: [String: Any]) async throws -> [[String]] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gqlv-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: request).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = Repository.root.appendingPathComponent("Tests/Clients/graphql_validate.py").path
        let run = try await Subprocess.run("/bin/sh", ["-c", "python3 '\(script)' < '\(input.path)'"])
        #expect(run.exitCode == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String]])
    }

    /// graphql-core's message without what stubd does not say (GraphQLRulesTests.comparable).
    static func comparable(_ message: String) -> String {
        GraphQLRulesTests.comparable(message)
    }

    static let schemas = [
        "type Query { a: Int }",
        "type Query { a: Int a: String }",
        "type Query { a: Int } type Query { b: Int }",
        "type Query { a(x: Int, x: Int): Int }",
        "type Query { a: Int } enum E { A A }",
        "type Query { a: Int } enum E",
        "type Query { a: Int } extend type Nope { b: Int }",
        "type Query { a: Nope }",
        "type Query { a(x: User): Int } type User { id: ID }",
        "type Query { a: In } input In { x: Int }",
        "type Query { a: Int } input In { u: User } type User { id: ID }",
        "type Query { a: Int } input In { self: In! }",
        "type Query { a: Int } input In { self: In }",
        "type Query { a: Int } input A { b: B! } input B { a: A! }",
        "type Query { a: Int } type A implements B { x: Int } interface B { x: String y: Int }",
        "type Query { a: Int } type A implements B { x(arg: Int): Int } interface B { x(arg: String, other: Int): Int }",
        "type Query { a: Int } type A implements B { x(req: Int!): Int } interface B { x: Int }",
        "type Query { a: Int } type A implements B { x: Int } type B { x: Int }",
        "type Query { a: Int } type A implements B & C { x: Int } interface B implements C { x: Int } interface C { x: Int }",
        "type Query { a: Int } type A implements B { x: Int } interface B implements C { x: Int } interface C { x: Int }",
        "type Query { a: Int } interface I { n: Node } type T implements I { n: Impl } interface Node { id: ID } type Impl implements Node { id: ID }",
        "type Query { a: Int } interface I { n: [Int!] } type T implements I { n: [Int!]! }",
        "type Query { a: Int } interface I { n: [Int!] } type T implements I { n: [Int] }",
        "type Query { a: Int } union U = A | B type A { x: Int } interface B { x: Int }",
        "type Query { a: Int } union U = A | A type A { x: Int }",
        "type Query { a: Int } union U",
        "type Query { a: Int } type Empty",
        "schema { query: Q } type Q { a: Int } schema { query: Q }",
        "schema { query: Q mutation: M } type Q { a: Int } input M { x: Int }",
        "schema { mutation: M } type M { a: Int }",
        "type Query { a: Int } type __Bad { x: Int }",
        "type Query { a: Int } interface I { id: ID } type T implements I { id: ID @deprecated(reason: \"old\") }",
        "type Query { a: Int } interface I { id: ID @deprecated } type T implements I { id: ID @deprecated }",
        "type Query { a(x: Int! @deprecated): Int b(y: Int! = 1 @deprecated): Int }",
        "type Query { a: Int } input In { x: Int! @deprecated y: Int @deprecated }",
    ]

    @Test func schemaProblemsAreGraphQLCoresAndNameTheirPlace() async throws {
        let oracle = try await oracle(["schemas": GraphQLValidationTests.schemas])
        var invalid = 0
        for (sdl, expected) in zip(GraphQLValidationTests.schemas, oracle) {
            let ours = try GraphQLSchema.parse(sdl, file: "s.graphqls").map { GraphQLStubCheck.validate($0).map(\.message) }.get()
            #expect(ours.sorted() == expected.map(GraphQLValidationTests.comparable).sorted(), "\(sdl)\ngraphql-core: \(expected)\nstubd: \(ours)")
            if !expected.isEmpty { invalid += 1 }
        }
        #expect(invalid >= 25, "the suite has both kinds")
        // A problem names the file, line and column of what it is about.
        let placed = try GraphQLSchema.parse("type Query {\n  a: Int\n  a: String\n}", file: "s.graphqls").map(GraphQLStubCheck.validate).get()
        #expect(placed.map(\.description) == ["s.graphqls:3:3: Field 'Query.a' can only be defined once."])
    }

    static let schema = """
    type Query {
      user(id: ID!): User
      users(first: Int = 10, after: String, role: Role, filter: Filter): [User!]!
      search(terms: [String!]!, limit: Int): [User]
    }
    type Mutation { createUser(input: CreateUserInput!): User }
    type User { id: ID! name(upper: Boolean): String! role: Role }
    enum Role { ADMIN MEMBER }
    input Filter { role: Role, nameContains: String, ids: [ID!] }
    input CreateUserInput { name: String!, email: String!, role: Role = MEMBER }
    scalar Date
    directive @mark(reason: String!) on FIELD
    """

    static let documents = [
        #"query { user(id: "1") { id name(upper: true) } }"#,
        #"query { user(id: 1) { id } }"#,
        #"query { user(id: 1.5) { id } }"#,
        #"query { user { id } }"#,
        #"query { user(id: "1", nope: 2) { id } }"#,
        #"query { user(id: "1", id: "2") { id } }"#,
        // Each value of a repeated argument is checked, and each variable in one is used.
        #"query { users(first: "ten", first: "x") { id } }"#,
        #"query Q($n: String) { users(first: 1, first: $n) { id } }"#,
        #"query { user(id: null) { id } }"#,
        #"query { users(first: "ten") { id } }"#,
        #"query { users(first: 3000000000) { id } }"#,
        #"query { users(role: ADMIN) { id } }"#,
        #"query { users(role: "ADMIN") { id } }"#,
        #"query { users(role: OWNER) { id } }"#,
        #"query { users(filter: {role: MEMBER, ids: ["1", 2]}) { id } }"#,
        #"query { users(filter: {nope: 1}) { id } }"#,
        #"query { users(filter: {ids: "1"}) { id } }"#,
        #"query { search(terms: "a") { id } }"#,
        #"query { search(terms: ["a", null]) { id } }"#,
        #"query { users(filter: {ids: null}) { id } }"#,
        #"query { search(terms: [1]) { id } }"#,
        #"mutation { createUser(input: {name: "a", email: "b"}) { id } }"#,
        #"mutation { createUser(input: {name: "a"}) { id } }"#,
        #"query Q($id: ID!) { user(id: $id) { id } }"#,
        #"query Q($id: String!) { user(id: $id) { id } }"#,
        #"query Q($id: ID) { user(id: $id) { id } }"#,
        #"query Q($id: ID = "1") { user(id: $id) { id } }"#,
        #"query Q($n: Int) { users(first: $n) { id } }"#,
        #"query Q { user(id: $id) { id } }"#,
        #"query Q($id: ID!, $unused: Int) { user(id: $id) { id } }"#,
        #"query Q($id: ID!, $id: ID!) { user(id: $id) { id } }"#,
        #"query Q($u: User) { user(id: "1") { id } }"#,
        #"query Q($u: Nope) { user(id: "1") { id } }"#,
        #"query Q($n: Int = "x") { users(first: $n) { id } }"#,
        #"query Q($id: ID!) { ...F } fragment F on Query { user(id: $id) { id } }"#,
        #"query Q { ...F } fragment F on Query { user(id: $id) { id } }"#,
        #"query Q($b: Boolean!) { user(id: "1") { id name @include(if: $b) } }"#,
        #"query Q { user(id: "1") { id name @skip } }"#,
        #"query Q { user(id: "1") { id name @nope } }"#,
        #"query Q { user(id: "1") { id name @mark(reason: "x") } }"#,
        #"query Q { user(id: "1") { id name @mark } }"#,
        #"query Q($b: Boolean) { user(id: "1") { id name @include(if: $b) } }"#,
        #"query Q($ids: [ID!]) { users(filter: {ids: $ids}) { id } }"#,
        #"query Q($ids: [ID]) { users(filter: {ids: $ids}) { id } }"#,
        #"query Q($t: String!) { search(terms: [$t]) { id } }"#,
        #"query Q($t: String) { search(terms: [$t]) { id } }"#,
        // Int's edges: −2³¹ fits, 2³¹ and −2³¹ − 1 do not.
        #"query { users(first: -2147483648) { id } }"#,
        #"query { users(first: 2147483647) { id } }"#,
        #"query { users(first: 2147483648) { id } }"#,
        #"query { users(first: -2147483649) { id } }"#,
        #"query Q($n: Int = -2147483648) { users(first: $n) { id } }"#,
        #"query Q($n: Int = 2147483648) { users(first: $n) { id } }"#,
        // Fragments that spread themselves, and one spread twice (what it uses is reported once).
        #"query Q { ...A } fragment A on Query { ...B } fragment B on Query { ...A }"#,
        #"query Q { ...A } fragment A on Query { ...A }"#,
        #"query Q { user(id: "1") { ...A } } fragment A on User { id ...B } fragment B on User { name ...C } fragment C on User { ... on User { ...A } }"#,
        #"query Q { ...A } fragment A on Query { user(id: "1") { ...B } } fragment B on User { id ...B }"#,
        #"query Q { ...F ...F } fragment F on Query { user(id: $id) { id } }"#,
        // Fragments no operation uses, and spreads whose type can never match where they are.
        #"query Q { user(id: "1") { id } } fragment F on User { id } fragment G on User { ...F }"#,
        #"query Q { user(id: "1") { ...F } } fragment F on Query { __typename }"#,
        #"query Q { user(id: "1") { ... on Query { __typename } ... on User { id } ... { id } } }"#,
    ]

    /// A fragment cycle is reported where graphql-core puts it: at the cycle's first spread.
    @Test func aFragmentCycleIsPlacedAtItsFirstSpread() throws {
        let schema = try GraphQLSchema.parse(GraphQLValidationTests.schema, file: "s.graphqls").get()
        let document = try GraphQLOperations.parse("query Q { ...A }\nfragment A on Query { ...B }\nfragment B on Query { ...A }", file: "d.graphql").get()
        #expect(GraphQLStubCheck.validate(document, against: schema) == ["d.graphql:2:23: Cannot spread fragment 'A' within itself via 'B'."])
    }

    @Test func argumentsAndVariablesAreCheckedAsGraphQLCoreChecksThem() async throws {
        let oracle = try await GraphQLRulesTests().oracle(schema: GraphQLValidationTests.schema, documents: GraphQLValidationTests.documents)
        let schema = try GraphQLSchema.parse(GraphQLValidationTests.schema, file: "s.graphqls").get()
        #expect(GraphQLStubCheck.validate(schema).isEmpty)
        var invalid = 0
        for (document, expected) in zip(GraphQLValidationTests.documents, oracle) {
            // The same messages, each at the same line and column.
            let ours = try GraphQLRulesTests.ours(document, schema: schema)
            #expect(GraphQLRulesTests.agree(expected, ours), "\(document)\ngraphql-core: \(expected.sorted())\nstubd:        \(ours)")
            if !expected.isEmpty { invalid += 1 }
        }
        #expect(invalid >= 25, "the suite has both kinds")
    }
}
