import StubCore

/// An executable document (`operation.graphql`): its operations and fragments, with the
/// selection sets a response must fit and the arguments, variables and directives the schema
/// checks.
package struct GraphQLOperations: Sendable {
    /// One selection of a selection set.
    indirect enum Selection: Sendable {
        case field(Field)
        /// `...Name`: at the `...`, with where its name is.
        case spread(name: String, line: Int, column: Int, directives: [GraphQLDirective] = [], namePlace: Place = Place())
        /// `... on Type { }`: at the `...`, with where its type condition is.
        case inline(typeCondition: String?, selections: [Selection], line: Int, column: Int, directives: [GraphQLDirective] = [],
                    conditionPlace: Place = Place())
    }

    /// A line and a column, 1-based.
    struct Place: Sendable, Hashable {
        var line = 0
        var column = 0
    }

    /// `$name: Type = default`.
    struct VariableDefinition: Sendable {
        let name: String
        let type: GraphQLType
        let defaultValue: GraphQLValue?
        let line: Int
        let column: Int
        /// Where the name (after the `$`) and the type are.
        var namePlace = Place()
        var typePlace = Place()
        /// Where the named type inside the list and non-null marks is.
        var namedTypePlace = Place()
        var defaultLiteral: GraphQLLiteral?
        var directives: [GraphQLDirective] = []
    }

    struct Field: Sendable {
        let alias: String?
        let name: String
        let selections: [Selection]
        let line: Int
        let column: Int
        var arguments: [GraphQLArgument] = []
        var directives: [GraphQLDirective] = []
        /// Where its selection set opens (`{`), when it has one.
        var selectionPlace = Place()
        /// The key of the field in a response.
        var responseKey: String { alias ?? name }
    }

    struct Operation: Sendable {
        let kind: String
        let name: String?
        let selections: [Selection]
        let line: Int
        var column = 1
        var variables: [VariableDefinition] = []
        var directives: [GraphQLDirective] = []
        /// Where its name is (an anonymous operation has none).
        var namePlace = Place()
        /// Where its selection set opens.
        var selectionPlace = Place()
    }

    struct Fragment: Sendable {
        let name: String
        let typeCondition: String
        let selections: [Selection]
        let line: Int
        let column: Int
        var namePlace = Place()
        var conditionPlace = Place()
        var directives: [GraphQLDirective] = []
        /// Where its selection set opens.
        var selectionPlace = Place()
    }

    /// A type-system definition in an operation document (`type Extra { … }`), which cannot be
    /// executed: its name (`schema` for a schema definition) and where it starts.
    struct OtherDefinition: Sendable {
        let name: String
        let line: Int
        let column: Int
    }

    /// The document's file, for messages.
    package let file: String
    let operations: [Operation]
    /// The fragments by name; where a name is defined twice, the last definition.
    let fragments: [String: Fragment]
    /// Every fragment definition, in the document's order.
    var fragmentList: [Fragment] = []
    /// The definitions that are neither operations nor fragments.
    var otherDefinitions: [OtherDefinition] = []

    /// The names of the document's operations (nil for an anonymous one).
    package var operationNames: [String?] { operations.map(\.name) }

    /// Reads an executable document; the failure names the line and column.
    package static func parse(_ text: String, file: String) -> Result<GraphQLOperations, GraphQLDocumentError> {
        GraphQLLexer.read(text, file: file, make: { GraphQLOperationReader(tokens: $0) }) { (reader: inout GraphQLOperationReader) throws(GraphQLLexer.Failure) in
            try reader.read()
        }.map {
            GraphQLOperations(file: file, operations: $0.operations, fragments: $0.fragments, fragmentList: $0.fragmentList,
                              otherDefinitions: $0.otherDefinitions)
        }
    }
}

