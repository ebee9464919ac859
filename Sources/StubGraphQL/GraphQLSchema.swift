import StubCore

/// The types of a GraphQL schema, read from SDL (`schema.graphqls`): enough to check the schema
/// itself (`GraphQLSchemaCheck`), an operation's fields and arguments against it, and that a
/// stub's `data` fits an operation's selection set. Directives are read past, not kept.
package struct GraphQLSchema: Sendable {
    /// A field of an object, interface or input type.
    struct Field: Sendable {
        let name: String
        let type: GraphQLType
        let line: Int
        var column: Int = 0
        /// A field's arguments, in order.
        var arguments: [GraphQLInputValue] = []
        /// An input field's default value.
        var defaultValue: GraphQLValue? = nil
        /// Marked `@deprecated`.
        var deprecated = false
    }

    enum Kind: String, Sendable {
        case object = "type", interface, input, `enum`, scalar, union
    }

    /// A named type.
    struct TypeDefinition: Sendable {
        let name: String
        var kind: Kind
        var fields: [String: Field] = [:]
        var enumValues: Set<String> = []
        /// The members of a union; the types implementing an interface.
        var possibleTypes: Set<String> = []
        var interfaces: [String] = []
        let line: Int
        var column: Int = 0
        /// The fields in the order written (`fields` is by name).
        var fieldOrder: [String] = []
        /// A union's members in the order written.
        var members: [String] = []
    }

    /// The file the schema was read from, for messages.
    package let file: String
    var types: [String: TypeDefinition]
    var roots: [String: String]
    /// Where each root was named (`schema { query: Query }`), for messages.
    var rootPlaces: [String: (line: Int, column: Int)] = [:]
    /// What reading found wrong that still let it read on: names defined twice, an extension of
    /// nothing (graphql-core's SDL rules).
    var readingProblems: [GraphQLDocumentError] = []
    /// The directives an operation may use, with their arguments: `@include` and `@skip`, and
    /// those the schema defines.
    var directives: [String: Directive] = GraphQLSchema.builtInDirectives

    /// A directive: its arguments, where it may be used (`FIELD`, `QUERY`, …) and whether it may
    /// be used more than once in one place.
    struct Directive: Sendable {
        let arguments: [GraphQLInputValue]
        let locations: Set<String>
        var repeatable = false
    }

    /// graphql-core's specified directives.
    static let builtInDirectives: [String: Directive] = {
        func argument(_ name: String, _ type: String, _ defaultValue: GraphQLValue? = nil) -> GraphQLInputValue {
            GraphQLInputValue(name: name, type: .nonNull(.named(type)), defaultValue: defaultValue, line: 0, column: 0)
        }
        let executable: Set = ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"]
        return [
            "include": Directive(arguments: [argument("if", "Boolean")], locations: executable),
            "skip": Directive(arguments: [argument("if", "Boolean")], locations: executable),
            "deprecated": Directive(arguments: [argument("reason", "String", .string("No longer supported"))],
                                    locations: ["FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE", "DIRECTIVE_DEFINITION"]),
            "specifiedBy": Directive(arguments: [argument("url", "String")], locations: ["SCALAR"]),
            "oneOf": Directive(arguments: [], locations: ["INPUT_OBJECT"]),
        ]
    }()

    static let builtInScalars: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]

    /// The root type of an operation kind (`query`, `mutation`, `subscription`).
    func root(_ kind: String) -> TypeDefinition? {
        roots[kind].flatMap { types[$0] }
    }

    /// Reads SDL; the failure names the line and column.
    package static func parse(_ text: String, file: String) -> Result<GraphQLSchema, GraphQLDocumentError> {
        GraphQLLexer.read(text, file: file, make: { GraphQLSchemaReader(tokens: $0) }) { (reader: inout GraphQLSchemaReader) throws(GraphQLLexer.Failure) in
            try reader.read()
        }.map { reader in
            var schema = GraphQLSchema(file: file, types: reader.types, roots: reader.roots)
            schema.rootPlaces = reader.rootPlaces
            schema.directives.merge(reader.directives) { _, defined in defined }
            schema.readingProblems = reader.problems.map { GraphQLDocumentError(file: file, line: $0.line, column: $0.column, message: $0.message) }
            schema.linkPossibleTypes()
            return schema
        }
    }

    private mutating func linkPossibleTypes() {
        for type in types.values where type.kind == .object {
            for interface in type.interfaces { types[interface]?.possibleTypes.insert(type.name) }
        }
        for kind in ["query", "mutation", "subscription"] where roots[kind] == nil {
            let conventional = kind.prefix(1).uppercased() + kind.dropFirst()
            if types[conventional] != nil { roots[kind] = conventional }
        }
    }
}

/// A problem reading a GraphQL document, with its place.
package struct GraphQLDocumentError: Error, Equatable, CustomStringConvertible {
    /// The document's file.
    package let file: String
    /// Where in it, 1-based.
    package let line: Int
    package let column: Int
    /// What was expected there.
    package let message: String

    /// `file:line:column: message`.
    package var description: String { "\(file):\(line):\(column): \(message)" }
}
