import Foundation
import StubCore
import StubGraphQL
import StubTesting
import Testing

/// GraphQL's Int is a signed 32-bit integer: from −2³¹ (−2147483648) to 2³¹ − 1 (2147483647),
/// one more below zero than above. Out of range, graphql-core's words: "Int cannot represent
/// non 32-bit signed integer value: 2147483648". (The same literals against graphql-core itself
/// are in GraphQLValidationTests.)
@Suite struct GraphQLIntRangeTests {
    static let schema = "type Query { a(n: Int): Int }"
    static let edges = [("-2147483648", true), ("2147483647", true), ("2147483648", false), ("-2147483649", false)]

    @Test func literalsAndDefaultsFromMinus2To31To2To31Minus1() throws {
        let schema = try GraphQLSchema.parse(GraphQLIntRangeTests.schema, file: "s.graphqls").get()
        for (value, fits) in GraphQLIntRangeTests.edges {
            let document = try GraphQLOperations.parse("query Q($v: Int = \(value)) { a(n: \(value)) b: a(n: $v) }", file: "d.graphql").get()
            let problem = "Int cannot represent non 32-bit signed integer value: \(value)"
            // At the values, as graphql-core places them: the default's, then the argument's.
            let expected = fits ? [] : ["d.graphql:1:19: \(problem)", "d.graphql:1:\(28 + value.count): \(problem)"].sorted()
            #expect(GraphQLStubCheck.validate(document, against: schema).sorted() == expected, "\(value)")
        }
    }

    @Test func stubBodiesFromMinus2To31To2To31Minus1() throws {
        let schema = try GraphQLSchema.parse(GraphQLIntRangeTests.schema, file: "s.graphqls").get()
        for (value, fits) in GraphQLIntRangeTests.edges + [("-2147483648.0", true), ("2.147483648e9", false)] {
            let stubs = try TemporaryStubDirectory([
                "gql/_service.json": #"{"graphql": {"path": "/graphql"}}"#,
                "gql/q/route.json": #"{"operation": "Q", "variants": {"200": {}}, "default": "200"}"#,
                "gql/q/200.json": #"{"data": {"a": \#(value)}}"#,
                "gql/q/operation.graphql": "query Q { a }",
            ])
            let check = GraphQLStubCheck(catalog: try StubLoader.load(directory: stubs.url.path).get(), schema: schema)
            let expected = fits ? [] : ["gql/q/200.json: $.data.a: Int cannot represent non 32-bit signed integer value: \(value) (s.graphqls:1)"]
            #expect(check.problems == expected, "\(value)")
            #expect(check.bodiesChecked == 1)
        }
    }
}
