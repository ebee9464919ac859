import StubGraphQL
import Testing

/// graphql-core's NoUnusedFragments and PossibleFragmentSpreads rules: each expected line is
/// what graphql-core 3.3 says for the same schema and document, with its line and column.
@Suite struct GraphQLFragmentSpreadTests {
    static let schema = """
    type Query { user(id: ID!): User node(id: ID!): Node search: [Result] }
    interface Node { id: ID! }
    type User implements Node { id: ID! name: String }
    type Repository implements Node { id: ID! name: String }
    type Team { id: ID! }
    union Result = User | Repository
    union Crew = Team
    """

    func problems(_ document: String) throws -> [String] {
        let schema = try GraphQLSchema.parse(GraphQLFragmentSpreadTests.schema, file: "s.graphqls").get()
        #expect(GraphQLStubCheck.validate(schema).isEmpty)
        return try GraphQLStubCheck.validate(GraphQLOperations.parse(document, file: "d.graphql").get(), against: schema)
    }

    @Test func aFragmentNoOperationReachesIsNeverUsed() throws {
        #expect(try problems("query Q { user(id: \"1\") { id } }\nfragment Unused on User { name }")
            == ["d.graphql:2:1: Fragment 'Unused' is never used."])
        // A fragment spread only by an unused fragment is unused too.
        #expect(try problems("fragment A on User { ...B }\nfragment B on Node { id }")
            == ["d.graphql:1:1: Fragment 'A' is never used.", "d.graphql:2:1: Fragment 'B' is never used."])
    }

    @Test func aNamedSpreadOfAnotherObjectTypeCanNeverApply() throws {
        #expect(try problems("query Q { user(id: \"1\") { ...R } }\nfragment R on Repository { name }")
            == ["d.graphql:1:27: Fragment 'R' cannot be spread here as objects of type 'User' can never be of type 'Repository'."])
    }

    @Test func anInlineFragmentThatCanNeverApplyIsReported() throws {
        #expect(try problems("query Q { user(id: \"1\") { ... on Repository { name } } }")
            == ["d.graphql:1:27: Fragment cannot be spread here as objects of type 'User' can never be of type 'Repository'."])
        // Two unions with no member in common.
        #expect(try problems("query Q { search { ... on Crew { ... on Team { id } } } }")
            == ["d.graphql:1:20: Fragment cannot be spread here as objects of type 'Result' can never be of type 'Crew'."])
    }

    @Test func spreadsOnInterfacesAndUnionsThatCanApplyAreNotReported() throws {
        let document = """
        query Q { node(id: "1") { ...U ... on Repository { name } } search { ... on Node { id } ...U ... { ... on User { id } } } }
        fragment U on User { name }
        """
        #expect(try problems(document) == [])
    }
}
