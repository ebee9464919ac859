import Foundation
import StubCore
import StubGraphQL
import Testing
import StubTestSupport

/// Every validation rule graphql-core runs on an operation document, against graphql-core
/// itself: the same problems, each at the same line and column, with the same message (its
/// spelling suggestions left out). The documents of docs/graphql/invalid each break one rule of
/// docs/graphql/schema.graphqls; the ones here need a union (fields that conflict only in
/// their types).
@Suite(.timeLimit(.minutes(3)), .requires(.graphqlCore))
struct GraphQLRulesTests {
    /// graphql-core's problems for each document: (line, column, message), line 0 where
    /// graphql-core gives none.
    func oracle(schema: String, documents: [String]) async throws -> [[Problem]] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gqlr-\(UUID().uuidString).json")
        let request: [String: Any] = ["schema": schema, "documents": documents, "locations": true]
        try JSONSerialization.data(withJSONObject: request).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = Repository.root.appendingPathComponent("Tests/Clients/graphql_validate.py").path
        let run = try await Subprocess.run("/bin/sh", ["-c", "python3 '\(script)' < '\(input.path)'"])
        #expect(run.exitCode == 0, "\(run.stderr)")
        let lists = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[[Any]]])
        return lists.map { errors in
            errors.map { Problem(line: $0[0] as? Int ?? 0, column: $0[1] as? Int ?? 0, message: GraphQLRulesTests.comparable($0[2] as? String ?? "")) }
        }
    }

    struct Problem: Hashable, Comparable, CustomStringConvertible {
        let line: Int
        let column: Int
        let message: String
        static func < (a: Problem, b: Problem) -> Bool { (a.line, a.column, a.message) < (b.line, b.column, b.message) }
        var description: String { "\(line):\(column): \(message)" }
    }

    /// graphql-core's message without what stubd does not say: suggestions of names ("Did you
    /// mean 'name'?"; ScalarLeafs' "Did you mean 'user { ... }'?" stubd says too) and Python's
    /// `None` for GraphQL's `null`.
    static func comparable(_ message: String) -> String {
        message.replacing(#/'\. Did you mean [^?]*\? Found: /#, with: "', found: ")
            .replacing(#/ Did you mean (?:to use an inline fragment on |the enum value )?'[^' ]*'(?:(?:, |,? or )'[^' ]*')*\?/#, with: "")
            .replacing("not to be None.", with: "not to be null.")
    }

    /// stubd's problems for a document, as (line, column, message).
    static func ours(_ text: String, schema: GraphQLSchema) throws -> [Problem] {
        let document = try GraphQLOperations.parse(text, file: "d.graphql").get()
        return GraphQLStubCheck.validate(document, against: schema).map { line in
            let parts = line.dropFirst("d.graphql:".count).split(separator: ":", maxSplits: 2)
            return Problem(line: Int(parts[0]) ?? -1, column: Int(parts[1]) ?? -1, message: String(parts[2].dropFirst()))
        }
    }

    /// Problems at one place come in graphql-core's order (stubd's are sorted by line and
    /// column, graphql-core's in the order its walk met them): its list, sorted by place only.
    static func sameOrder(_ theirs: [Problem], _ ours: [Problem]) -> Bool {
        guard !theirs.contains(where: { $0.line == 0 }) else { return true }
        let placed = theirs.enumerated().sorted { a, b in
            (a.element.line, a.element.column, a.offset) < (b.element.line, b.element.column, b.offset)
        }.map(\.element)
        return placed == ours
    }

    /// The same problems: those graphql-core places at the same place, those it does not by
    /// message alone.
    static func agree(_ theirs: [Problem], _ ours: [Problem]) -> Bool {
        var rest = ours
        for problem in theirs where problem.line == 0 {
            guard let index = rest.firstIndex(where: { $0.message == problem.message }) else { return false }
            rest.remove(at: index)
        }
        return theirs.filter { $0.line != 0 }.sorted() == rest.sorted()
    }

    @Test func eachInvalidDocumentOfTheDocsGetsGraphQLCoresProblemsAtItsPlaces() async throws {
        let folder = Repository.root.appendingPathComponent("docs/graphql/invalid")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".graphql") }.sorted()
        #expect(names.count >= 40)
        let texts = try names.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        let sdl = try String(contentsOf: Repository.root.appendingPathComponent("docs/graphql/schema.graphqls"), encoding: .utf8)
        let schema = try GraphQLSchema.parse(sdl, file: "schema.graphqls").get()
        let expected = try await oracle(schema: sdl, documents: texts)
        var agreeing = 0
        for (name, (text, theirs)) in zip(names, zip(texts, expected)) {
            let ours = try GraphQLRulesTests.ours(text, schema: schema)
            #expect(!theirs.isEmpty, "\(name) is valid: each document there breaks a rule")
            #expect(GraphQLRulesTests.agree(theirs, ours), "\(name)\ngraphql-core: \(theirs.sorted())\nstubd:        \(ours)")
            #expect(GraphQLRulesTests.sameOrder(theirs, ours), "\(name)\ngraphql-core: \(theirs)\nstubd:        \(ours)")
            if GraphQLRulesTests.agree(theirs, ours) { agreeing += 1 }
        }
        #expect(agreeing == names.count)
    }

    static let schema = GraphQLValidationTests.schema + """

    type Pet { name: String! tag: Int owner(id: ID): User }
    union Thing = User | Pet
    extend type Query { things: [Thing] pets: [Pet!] }
    """

    static let documents = [
        // Fields that could never be on one object: only their types must fit.
        "{ things { ... on User { x: role } ... on Pet { x: tag } } }",
        "{ things { ... on User { id } ... on Pet { id: name } } }",
        "{ things { ... on User { name } ... on Pet { name } } }",
        "{ things { ... on User { name(upper: true) } ... on Pet { name } } }",
        "{ things { ... on Pet { owner(id: 1) { id } } ... on Pet { owner(id: 2) { id } } } }",
        "{ pets { owner { a: id } owner { a: name } } }",
        "{ pets { ...A ...B } } fragment A on Pet { n: name } fragment B on Pet { n: tag }",
        "{ pets { ...A } ...C } fragment A on Pet { ...B } fragment B on Pet { tag: name } fragment C on Query { pets { tag } }",
        "{ pets { owner { id } ...O } } fragment O on Pet { owner(id: 1) { id } }",
        "{ pets { name name name } }",
        "{ users(filter: {ids: [1], role: ADMIN}) { id } users(filter: {role: ADMIN, ids: [1]}) { id } }",
        "{ users(first: 1) { id } users(first: 2) { name } }",
        // Directives, subscriptions the schema has no type for, values graphql-core gives no place.
        "query Q($b: Boolean!) { users { id @include(if: $b) @include(if: true) @skip(if: false) } }",
        "subscription S { a }",
        "{ users(first: [1]) { id } }",
        "{ users(filter: {ids: \"1\", nope: $x}) { id } }",
        "{ user(id: \"1\") { id ...Unknown name(upper: $u) nope(a: $v) { id } } }",
        "{ ... on Query { user(id: \"1\") { id } } ... { user(id: \"1\") { id: name } } }",
        "fragment F on User { id } fragment F on User { id } { user(id: \"1\") { ...F } }",
        // Below a type that is not composite, or none: type conditions are still checked, fields'
        // arguments are not, variables are still used, and fragments are collected on their type.
        "{ pets { ...F } } fragment F on String { ... on Nope { a } ... on Role { b } __typename(x: 1) }",
        "{ pets { ... on Filter { __typename(nope: 1) } } }",
        "subscription S($v: ID) { a(x: $v) }",
        "{ pets { ...F } } fragment F on String { ...F owner(id: \"1\", id: {a: 1}) }",
        // Introspection: graphql-core's types, and `__schema` and `__type` on the query type only.
        "{ __type { name } __schema { nope } }",
        "{ __type(name: 1) { fields(includeDeprecated: \"x\") { name } } users { __schema { types { name } } } }",
        "{ t: __schema { queryType { name } } t: __type(name: \"a\") { name } } fragment F on __Type { name }",
        "query I { __schema { queryType { name } types { ...T } directives { name locations args { name type { ...R } } } } } "
            + "fragment T on __Type { kind name fields(includeDeprecated: true) { name type { ...R } } possibleTypes { name } } "
            + "fragment R on __Type { kind name ofType { kind name ofType { kind name } } }",
        // A string in a message as graphql-core prints it: its value, escaped again, on one line.
        #"{ users(first: "a\nb\u0001\"\\\t\u007f\/\u00e9\ud83d\ude00") { id } }"#,
        #"{ a: user(id: "\u0041") { id } a: user(id: "A") { id } }"#,
        // Problems at one place: a repeat is found before what is wrong with each use.
        "query Q @skip(if: true) @skip(if: true) { user(id: \"1\") { id } }",
        "query Q { user(id: \"1\", nope: 1, nope: 2) { id } }",
        "mutation M { createUser(input: {nope: 1, nope: 2, name: \"a\", email: \"b\"}) { id } }",
    ]

    @Test func fieldsThatCannotBeMergedAndTheRestAsGraphQLCoreFindsThem() async throws {
        let schema = try GraphQLSchema.parse(GraphQLRulesTests.schema, file: "s.graphqls").get()
        #expect(GraphQLStubCheck.validate(schema).isEmpty)
        let expected = try await oracle(schema: GraphQLRulesTests.schema, documents: GraphQLRulesTests.documents)
        for (text, theirs) in zip(GraphQLRulesTests.documents, expected) {
            let ours = try GraphQLRulesTests.ours(text, schema: schema)
            #expect(GraphQLRulesTests.agree(theirs, ours), "\(text)\ngraphql-core: \(theirs.sorted())\nstubd:        \(ours)")
            #expect(GraphQLRulesTests.sameOrder(theirs, ours), "\(text)\ngraphql-core: \(theirs)\nstubd:        \(ours)")
        }
    }
}
