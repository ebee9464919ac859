import Foundation
import StubCore
import StubGraphQL
import StubTesting
import Testing
import StubTestSupport

/// Documents and schemas written to hurt `stubd check --graphql`: nesting 100,000 levels deep,
/// fragments spreading one another in a chain, a cycle or a doubling ladder. Each is a problem
/// named by file, line and column, with exit 1. These run the real binary: a stack overflow ends
/// it by a signal (what `exitCode` then holds), which fails the test, not the test runner.
@Suite(.timeLimit(.minutes(3))) struct GraphQLHostileDocumentTests {
    static let schema = "type Query { a(n: Int, l: [[Int]], o: In): Int t: T }\ninput In { a: In, n: Int }\ntype T { a: T, b: Int }\n"
    static let deep = 100_000

    /// `stubd check` on a service with one operation route (`Q`, answered by `body`) whose
    /// document is `document`, against `schema`.
    func check(document: String, schema: String = schema, body: String = #"{"data": {"t": {"b": 1}}}"#) async throws -> Curl.Result {
        let stubs = try TemporaryStubDirectory([
            "gql/_service.json": #"{"graphql": {"path": "/graphql"}}"#,
            "gql/q/route.json": #"{"operation": "Q", "variants": {"200": {}}, "default": "200"}"#,
            "gql/q/200.json": body,
            "gql/q/operation.graphql": document,
        ])
        let schemaFolder = try TemporaryStubDirectory(["schema.graphqls": schema])
        return try await Subprocess.run(Repository.stubdBinary, ["check", stubs.url.path, "--graphql", schemaFolder.url.appendingPathComponent("schema.graphqls").path])
    }

    /// Where a one-line text opens its `level`th `{` or `[`: selection sets, list types, lists
    /// and input objects are counted together. The column and the character.
    static func opening(_ level: Int, in text: String) -> (column: Int, found: Character) {
        var opened = 0
        for (offset, character) in text.enumerated() where character == "{" || character == "[" {
            opened += 1
            if opened == level { return (offset + 1, character) }
        }
        return (0, " ")
    }

    static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    static let nested = [
        "query Q { t " + repeated("{ a ", deep) + repeated("}", deep + 1),
        "query Q($x: " + repeated("[", deep) + "Int" + repeated("]", deep) + ") { a }",
        "query Q { a(l: " + repeated("[", deep) + repeated("]", deep) + ") }",
        "query Q { a(o: " + repeated("{a: ", deep) + repeated("}", deep) + ") }",
    ]

    @Test func nestingPastTheLimitIsAProblemAtTheLevelPastIt() async throws {
        for document in GraphQLHostileDocumentTests.nested {
            let result = try await check(document: document)
            let (column, found) = GraphQLHostileDocumentTests.opening(129, in: document)
            #expect(result.exitCode == 1, "\(document.prefix(40)): \(result.stderr.prefix(500))")
            #expect(result.stdout == "gql/q/operation.graphql:1:\(column): nesting deeper than 128 levels, found '\(found)'\n", "\(document.prefix(40))")
        }
        let schemas = [
            "type Query { a: " + GraphQLHostileDocumentTests.repeated("[", GraphQLHostileDocumentTests.deep) + "Int }",
            "type Query { a: Int @d(x: " + GraphQLHostileDocumentTests.repeated("[", GraphQLHostileDocumentTests.deep) + ") }",
        ]
        for schema in schemas {
            let result = try await check(document: "query Q { a }", schema: schema)
            // The type's own braces are not nesting: the 129th `[` is the level too many.
            let (column, found) = GraphQLHostileDocumentTests.opening(130, in: schema)
            #expect(result.exitCode == 1, "\(schema.prefix(30)): \(result.stderr.prefix(500))")
            #expect(result.stderr.contains("schema.graphqls:1:\(column): nesting deeper than 128 levels, found '\(found)'"), "\(result.stderr.prefix(500))")
        }
    }

    /// The reference implementation's Python port refuses them too ("Document is nested too
    /// deeply"), so the limit refuses nothing graphql-core would check.
    @Test(.requires(.graphqlCore))
    func graphQLCoreRefusesTheseDocumentsToo() async throws {
        let oracle = try await GraphQLValidationTests().oracle(["schema": GraphQLHostileDocumentTests.schema, "documents": GraphQLHostileDocumentTests.nested])
        #expect(oracle.count == GraphQLHostileDocumentTests.nested.count)
        for messages in oracle { #expect(messages.contains { $0.contains("nested too deeply") }, "\(messages)") }
    }

    /// Why reading failed, as `stubd check` prints it; nil when it did not.
    static func failure<T>(_ read: Result<T, GraphQLDocumentError>) -> String? {
        guard case .failure(let error) = read else { return nil }
        return error.description
    }

    /// The four kinds of nesting, `levels` deep: selection sets, a list type, a list value and an
    /// input object value (these two inside the operation's selection set, its first level).
    static func documents(_ levels: Int) -> [String] {
        [
            "{ t " + repeated("{ a ", levels - 2) + "{ b }" + repeated(" }", levels - 1),
            "query Q($x: " + repeated("[", levels) + "Int" + repeated("]", levels) + ") { a(n: 1) }",
            "{ a(l: " + repeated("[", levels - 1) + repeated("]", levels - 1) + ") }",
            "{ a(o: " + repeated("{a: ", levels - 2) + "{n: 1}" + repeated("}", levels - 2) + ") }",
        ]
    }

    /// 128 levels are read and checked; the 129th is refused where it opens, in operations and
    /// schemas alike.
    @Test func theLimitIs128LevelsOfSelectionSetsListsAndInputObjectsTogether() throws {
        let schema = try GraphQLSchema.parse(GraphQLHostileDocumentTests.schema, file: "s.graphqls").get()
        for document in GraphQLHostileDocumentTests.documents(128) {
            let parsed = GraphQLOperations.parse(document, file: "d.graphql")
            #expect((try? parsed.get()).map { GraphQLStubCheck.validate($0, against: schema) } != nil, "\(document.prefix(20)): \(parsed)")
        }
        #expect(try GraphQLStubCheck.validate(GraphQLOperations.parse(GraphQLHostileDocumentTests.documents(128)[0], file: "d").get(), against: schema) == [])
        for document in GraphQLHostileDocumentTests.documents(129) {
            let (column, found) = GraphQLHostileDocumentTests.opening(129, in: document)
            let refused = "d.graphql:1:\(column): nesting deeper than 128 levels, found '\(found)'"
            #expect(GraphQLHostileDocumentTests.failure(GraphQLOperations.parse(document, file: "d.graphql")) == refused, "\(document.prefix(20))")
        }
        // A type definition's braces are not nesting: the list type is the schema's only level.
        func field(_ levels: Int) -> String {
            "type Query { a: " + GraphQLHostileDocumentTests.repeated("[", levels) + "Int" + GraphQLHostileDocumentTests.repeated("]", levels) + "! }"
        }
        #expect((try? GraphQLSchema.parse(field(128), file: "s.graphqls").get()) != nil)
        let refused = "s.graphqls:1:\(GraphQLHostileDocumentTests.opening(130, in: field(129)).column): nesting deeper than 128 levels, found '['"
        #expect(GraphQLHostileDocumentTests.failure(GraphQLSchema.parse(field(129), file: "s.graphqls")) == refused)
    }

    /// `fragment F0 on T { ...F1 }`, `fragment F1 on T { ...F2 }` and so on: each fragment is
    /// shallow, the chain as deep as it is long.
    static func chain(_ count: Int, last: String) -> String {
        "query Q { t { ...F0 } } " + (0..<count).map { "fragment F\($0) on T { ...F\($0 + 1) } " }.joined() + "fragment F\(count) on T { \(last) }"
    }

    @Test func aChainOfFragmentsIsRefusedAtTheSpreadPastTheLimit() async throws {
        let document = GraphQLHostileDocumentTests.chain(GraphQLHostileDocumentTests.deep, last: "b")
        let result = try await check(document: document)
        // The operation's set, t's set, then one level per fragment: F125's spread is the 129th.
        let column = try #require(document.range(of: "...F126 ")).lowerBound.utf16Offset(in: document) + 1
        #expect(result.exitCode == 1, "\(result.stderr.prefix(500))")
        #expect(result.stdout == "gql/q/operation.graphql:1:\(column): nesting deeper than 128 levels once fragment spreads are followed "
            + "(each selection set and each spread is a level)\n", "\(result.stdout.prefix(500))")
    }

    /// 100,000 anonymous operations: graphql-core's first 100 problems and its last line, and the
    /// route's missing operation named beside the first ten the document has.
    @Test func aHundredThousandOperationsGetAPageOfProblems() async throws {
        let result = try await check(document: GraphQLHostileDocumentTests.repeated("{ a } ", GraphQLHostileDocumentTests.deep))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.exitCode == 1 && lines.count == 102, "\(result.stdout.prefix(500))")
        #expect(lines.first == "gql/q/operation.graphql:1:1: This anonymous operation must be the only defined operation.")
        #expect(lines.dropFirst(100).first == "gql/q/operation.graphql: Too many validation errors, error limit reached. Validation aborted.")
        #expect(lines.last == "gql/q/operation.graphql: has no operation Q, which gql/q/route.json answers (it has "
            + Array(repeating: "(anonymous)", count: 10).joined(separator: ", ") + " and 99990 more)")
    }

    @Test func fragmentsThatSpreadThemselvesAreReportedAsGraphQLCoreReportsThem() async throws {
        let pair = try await check(document: "query Q { t { ...A } } fragment A on T { ...B } fragment B on T { ...A }")
        #expect(pair.exitCode == 1 && pair.stdout == "gql/q/operation.graphql:1:42: Cannot spread fragment 'A' within itself via 'B'.\n", "\(pair)")
        // 100,000 fragments in one cycle: found without recursing once per fragment.
        let document = GraphQLHostileDocumentTests.chain(GraphQLHostileDocumentTests.deep - 1, last: "...F0")
        let ring = try await check(document: document)
        let column = try #require(document.range(of: "...F1 ")).lowerBound.utf16Offset(in: document) + 1
        let lines = ring.stdout.split(separator: "\n")
        #expect(ring.exitCode == 1, "\(ring.stderr.prefix(500))")
        let named = lines.first?.hasPrefix("gql/q/operation.graphql:1:\(column): Cannot spread fragment 'F0' within itself via 'F1', 'F2', 'F3', ") == true
            && lines.first?.hasSuffix(", 'F99998', 'F99999'.") == true
        #expect(named, "\(ring.stdout.prefix(300))")
    }

    /// Each fragment spreads the next twice: followed once per spread, 2^30 walks; followed once
    /// per fragment, 30. The document and the body are both checked, and fit.
    @Test func aFragmentSpreadFromManyPlacesIsFollowedOnce() async throws {
        let ladder = "query Q { t { ...F0 } } " + (0..<30).map { "fragment F\($0) on T { ...F\($0 + 1) ...F\($0 + 1) } " }.joined() + "fragment F30 on T { b }"
        let result = try await check(document: ladder)
        #expect(result.exitCode == 0 && result.stdout.contains("OK, 1 operations and 1 bodies"), "\(result)")
    }

    /// A fragment first met where it does not apply (optional), then where it does (required),
    /// is followed again from there: here at the end of a chain of 100 fragments, and it starts
    /// another 100. Every chain the document check follows has a shortcut to Z0 first, so only
    /// the body check goes that deep; it is bounded too, and says where it stopped.
    @Test func aBodyCheckThroughFragmentsPastTheLimitSaysWhereItStopped() async throws {
        let schema = "type Query { t: N }\ninterface N { b: Int }\ntype T implements N { b: Int }\ntype U implements N { b: Int }\n"
        let document = "query Q { t { ... on U { ...Z0 } ...C0 } } "
            + (0..<100).map { "fragment C\($0) on N { ... on U { ...Z0 } ...C\($0 + 1) } fragment Z\($0) on N { ...Z\($0 + 1) } " }.joined()
            + "fragment C100 on N { ...Z0 } fragment Z100 on N { b }"
        let result = try await check(document: document, schema: schema, body: #"{"data": {"t": {"__typename": "T", "b": 1}}}"#)
        #expect(result.exitCode == 1)
        #expect(result.stdout == "gql/q/200.json: $.data.t: not checked: the operation's fragments nest deeper than 128 levels here (gql/q/operation.graphql)\n",
                "\(result)")
    }

    /// 100,000 input objects in a cycle of non-null fields: the schema's own check finds it
    /// without recursing once per type.
    @Test func aLongCycleOfInputObjectsIsFound() async throws {
        let count = GraphQLHostileDocumentTests.deep
        let schema = GraphQLHostileDocumentTests.schema + (0..<count).map { "input I\($0) { a: I\(($0 + 1) % count)! }\n" }.joined()
        let result = try await check(document: "query Q { t { b } }", schema: schema)
        #expect(result.exitCode == 1, "\(result.stderr.prefix(500))")
        let found = result.stdout.contains(":4:7: Input Object I0 cannot be provided a finite value because it references itself through fields: I0.a, I1.a, I2.a, ")
        #expect(found, "\(result.stdout.prefix(500))")
    }
}
