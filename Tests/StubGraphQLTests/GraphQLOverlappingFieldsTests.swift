import Foundation
import StubCore
import StubGraphQL
import Testing

/// OverlappingFieldsCanBeMerged on documents written to make it explode: every pair of fields
/// of one response name is a comparison, and fragments spreading fragments multiply them. Each
/// finishes (the suite's time limit is the bound), with graphql-core's limits: 100 problems, and
/// a budget of comparisons past which the document is reported rather than checked on.
@Suite(.timeLimit(.minutes(1))) struct GraphQLOverlappingFieldsTests {
    static let schema = "type Query { a(n: Int): Int t: T }\ntype T { a(n: Int): T b: Int c: String }\n"

    func validate(_ text: String) throws -> [String] {
        let schema = try GraphQLSchema.parse(GraphQLOverlappingFieldsTests.schema, file: "s.graphqls").get()
        return GraphQLStubCheck.validate(try GraphQLOperations.parse(text, file: "d.graphql").get(), against: schema)
    }

    /// 5,000 fields of one name, 12.5 million pairs: past the budget, one problem at the set.
    @Test func thousandsOfFieldsOfOneNameAreStoppedByTheBudget() throws {
        let problems = try validate("query Q { " + String(repeating: "a ", count: 5_000) + "}")
        #expect(problems == ["d.graphql:1:9: too many comparisons of fields with the same response name (graphql-core's limit): "
            + "the check of this document was stopped here"])
        // 600 of them (180,000 pairs) are inside it: the same field each time, no problem.
        #expect(try validate("query Q { " + String(repeating: "a ", count: 600) + "}").isEmpty)
    }

    /// 3,000 fields of one name with different arguments: a conflict per pair, 100 reported.
    @Test func conflictsStopAtGraphQLCoresHundredProblems() throws {
        let problems = try validate("query Q { " + (0..<3_000).map { "a(n: \($0)) " }.joined() + "}")
        #expect(problems.count == 101)
        #expect(problems.first == "d.graphql:1:11: Fields 'a' conflict because they have differing arguments. "
            + "Use different aliases on the fields to fetch both if this was intentional.")
        #expect(problems.last == "d.graphql: Too many validation errors, error limit reached. Validation aborted.")
    }

    /// Each fragment spreads the next twice, 40 deep: 2^40 paths, each pair of fragments and each
    /// set against each fragment compared once. The conflict at the bottom is found.
    @Test func aLadderOfFragmentsIsComparedOncePerPair() throws {
        let ladder = "query Q { t { x: b ...F0 } } " + (0..<40).map { "fragment F\($0) on T { ...F\($0 + 1) ...F\($0 + 1) } " }.joined()
            + "fragment F40 on T { x: c }"
        let problems = try validate(ladder)
        #expect(problems == ["d.graphql:1:15: Fields 'x' conflict because 'b' and 'c' are different fields. "
            + "Use different aliases on the fields to fetch both if this was intentional."])
    }

    /// Two chains of 100,000 fragments, each selecting `a { ...next }`: comparing them goes down
    /// both at once. It stops at the nesting limit (that nesting is its own problem) without
    /// recursing once per fragment.
    @Test func twoLongChainsAreComparedDownToTheNestingLimit() throws {
        let count = 100_000
        let chains = "query Q { t { ...F0 ...G0 } } "
            + (0..<count).map { "fragment F\($0) on T { a { ...F\($0 + 1) } } fragment G\($0) on T { a { ...G\($0 + 1) } } " }.joined()
            + "fragment F\(count) on T { b } fragment G\(count) on T { b: c }"
        let problems = try validate(chains)
        #expect(problems.count == 1 && problems[0].contains("nesting deeper than 128 levels once fragment spreads are followed"), "\(problems)")
    }
}
