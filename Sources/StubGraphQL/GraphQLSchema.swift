import StubCore

/// The types of a GraphQL schema, read from SDL (`schema.graphqls`): enough to check that a stub's
/// `data` fits an operation's selection set. Arguments, default values and directives are read
/// past, not kept.
package struct GraphQLSchema: Sendable {
    /// A field of an object, interface or input type.
    struct Field: Sendable {
        let name: String
        let type: GraphQLType
        let line: Int
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
    }

    /// The file the schema was read from, for messages.
    package let file: String
    var types: [String: TypeDefinition]
    var roots: [String: String]

    static let builtInScalars: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]

    /// The root type of an operation kind (`query`, `mutation`, `subscription`).
    func root(_ kind: String) -> TypeDefinition? {
        roots[kind].flatMap { types[$0] }
    }

    /// Reads SDL; the failure names the line and column.
    package static func parse(_ text: String, file: String) -> Result<GraphQLSchema, GraphQLDocumentError> {
        GraphQLLexer.read(text, file: file, make: { SchemaReader(tokens: $0) }) { (reader: inout SchemaReader) throws(GraphQLLexer.Failure) in
            try reader.read()
        }.map { reader in
            var schema = GraphQLSchema(file: file, types: reader.types, roots: reader.roots)
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

/// Reads SDL definitions into types.
private struct SchemaReader {
    var tokens: GraphQLTokens
    var types: [String: GraphQLSchema.TypeDefinition] = [:]
    var roots: [String: String] = [:]

    mutating func read() throws(GraphQLLexer.Failure) {
        while !tokens.atEnd {
            tokens.skipDescription()
            let extending = tokens.takeKeyword("extend")
            let line = tokens.current.line
            guard let keyword = tokens.name() else { throw tokens.fail("expected a definition") }
            switch keyword {
            case "schema": try readSchema()
            case "type", "interface", "input": try readFields(keyword, extending: extending, line: line)
            case "enum": try readEnum(extending: extending, line: line)
            case "scalar":
                let name = try tokens.expectName("a scalar name")
                try tokens.skipDirectives()
                if types[name] == nil { types[name] = .init(name: name, kind: .scalar, line: line) }
            case "union": try readUnion(extending: extending, line: line)
            case "directive": try readDirectiveDefinition()
            default: throw tokens.fail("expected type, interface, input, enum, scalar, union, schema or directive")
            }
        }
    }

    mutating func readSchema() throws(GraphQLLexer.Failure) {
        try tokens.skipDirectives()
        try tokens.expect("{")
        while !tokens.take("}") {
            let kind = try tokens.expectName("query, mutation or subscription")
            try tokens.expect(":")
            roots[kind] = try tokens.expectName("a type name")
        }
    }

    mutating func readFields(_ keyword: String, extending: Bool, line: Int) throws(GraphQLLexer.Failure) {
        let name = try tokens.expectName("a type name")
        let kind = GraphQLSchema.Kind(rawValue: keyword) ?? .object
        var type = types[name] ?? .init(name: name, kind: kind, line: line)
        if tokens.takeKeyword("implements") {
            _ = tokens.take("&")
            repeat { type.interfaces.append(try tokens.expectName("an interface name")) } while tokens.take("&")
        }
        try tokens.skipDirectives()
        if tokens.take("{") {
            while !tokens.take("}") {
                tokens.skipDescription()
                let fieldLine = tokens.current.line
                let fieldName = try tokens.expectName("a field name")
                try tokens.skipArguments()
                try tokens.expect(":")
                let fieldType = try tokens.typeReference()
                if tokens.take("=") {
                    if case .punctuator = tokens.current.kind { try tokens.skipGroup() } else { tokens.advance() }
                }
                try tokens.skipDirectives()
                type.fields[fieldName] = .init(name: fieldName, type: fieldType, line: fieldLine)
            }
        }
        types[name] = type
    }

    mutating func readEnum(extending: Bool, line: Int) throws(GraphQLLexer.Failure) {
        let name = try tokens.expectName("an enum name")
        var type = types[name] ?? .init(name: name, kind: .enum, line: line)
        try tokens.skipDirectives()
        if tokens.take("{") {
            while !tokens.take("}") {
                tokens.skipDescription()
                type.enumValues.insert(try tokens.expectName("an enum value"))
                try tokens.skipDirectives()
            }
        }
        types[name] = type
    }

    mutating func readUnion(extending: Bool, line: Int) throws(GraphQLLexer.Failure) {
        let name = try tokens.expectName("a union name")
        var type = types[name] ?? .init(name: name, kind: .union, line: line)
        try tokens.skipDirectives()
        if tokens.take("=") {
            _ = tokens.take("|")
            repeat { type.possibleTypes.insert(try tokens.expectName("a member type")) } while tokens.take("|")
        }
        types[name] = type
    }

    mutating func readDirectiveDefinition() throws(GraphQLLexer.Failure) {
        try tokens.expect("@")
        _ = try tokens.expectName("a directive name")
        try tokens.skipArguments()
        _ = tokens.takeKeyword("repeatable")
        guard tokens.takeKeyword("on") else { throw tokens.fail("expected 'on'") }
        _ = tokens.take("|")
        repeat { _ = try tokens.expectName("a directive location") } while tokens.take("|")
    }
}
