import StubCore

/// Reads SDL definitions into types. A name defined twice, or an extension of a type nobody
/// defined, is noted (`problems`) and reading goes on, so one mistake does not hide the rest.
struct GraphQLSchemaReader {
    var tokens: GraphQLTokens
    var types: [String: GraphQLSchema.TypeDefinition] = [:]
    var roots: [String: String] = [:]
    var rootPlaces: [String: (line: Int, column: Int)] = [:]
    var problems: [(line: Int, column: Int, message: String)] = []
    /// The directives the schema defines, with their arguments.
    var directives: [String: GraphQLSchema.Directive] = [:]
    private var schemaDefined = false

    init(tokens: GraphQLTokens) {
        self.tokens = tokens
    }

    mutating func read() throws(GraphQLLexer.Failure) {
        while !tokens.atEnd { try readDefinition() }
    }

    /// Reads one definition (an operation document's reader uses it to read past type-system
    /// definitions).
    mutating func readDefinition() throws(GraphQLLexer.Failure) {
        tokens.skipDescription()
        let extending = tokens.takeKeyword("extend")
        let (line, column) = (tokens.current.line, tokens.current.column)
        guard let keyword = tokens.name() else { throw tokens.fail("expected a definition") }
        switch keyword {
        case "schema": try readSchema(extending: extending, line: line, column: column)
        case "type", "interface", "input": try readFields(keyword, extending: extending)
        case "enum": try readEnum(extending: extending)
        case "scalar":
            let type = try definition(.scalar, extending: extending, "a scalar name")
            try tokens.skipDirectives()
            types[type.name] = type
        case "union": try readUnion(extending: extending)
        case "directive": try readDirectiveDefinition()
        default: throw tokens.fail("expected type, interface, input, enum, scalar, union, schema or directive")
        }
    }

    /// Reads a definition's name (`what` it should be) and starts the definition: a new one, or
    /// the one an `extend` extends.
    private mutating func definition(_ kind: GraphQLSchema.Kind, extending: Bool, _ what: String) throws(GraphQLLexer.Failure) -> GraphQLSchema.TypeDefinition {
        let (line, column) = (tokens.current.line, tokens.current.column)
        let name = try tokens.expectName(what)
        return start(name, kind: kind, extending: extending, line: line, column: column) ?? .init(name: name, kind: kind, line: line, column: column)
    }

    /// The definition to add to: a new one, or the one an `extend` extends. A second definition
    /// of a name, or an extension of none, is a problem (the definition is still read).
    private mutating func start(_ name: String, kind: GraphQLSchema.Kind, extending: Bool, line: Int, column: Int) -> GraphQLSchema.TypeDefinition? {
        if let existing = types[name] {
            if extending { return existing }
            problems.append((line, column, "There can be only one type named '\(name)'."))
            return nil
        }
        if extending { problems.append((line, column, "Cannot extend type '\(name)' because it is not defined.")) }
        if name.hasPrefix("__") {
            problems.append((line, column, "Name '\(name)' must not begin with '__', which is reserved by GraphQL introspection."))
        }
        return .init(name: name, kind: kind, line: line, column: column)
    }

    mutating func readSchema(extending: Bool, line: Int, column: Int) throws(GraphQLLexer.Failure) {
        if !extending {
            if schemaDefined { problems.append((line, column, "Must provide only one schema definition.")) }
            schemaDefined = true
        }
        try tokens.skipDirectives()
        guard tokens.take("{") else { return }
        while !tokens.take("}") {
            let (kindLine, kindColumn) = (tokens.current.line, tokens.current.column)
            let kind = try tokens.expectName("query, mutation or subscription")
            try tokens.expect(":")
            if roots[kind] != nil { problems.append((kindLine, kindColumn, "There can be only one \(kind) type in schema.")) }
            roots[kind] = try tokens.expectName("a type name")
            rootPlaces[kind] = (kindLine, kindColumn)
        }
    }

    mutating func readFields(_ keyword: String, extending: Bool) throws(GraphQLLexer.Failure) {
        let kind = GraphQLSchema.Kind(rawValue: keyword) ?? .object
        var type = try definition(kind, extending: extending, "a type name")
        let name = type.name
        if tokens.takeKeyword("implements") {
            _ = tokens.take("&")
            repeat { type.interfaces.append(try tokens.expectName("an interface name")) } while tokens.take("&")
        }
        try tokens.skipDirectives()
        if tokens.take("{") {
            while !tokens.take("}") {
                tokens.skipDescription()
                let (fieldLine, fieldColumn) = (tokens.current.line, tokens.current.column)
                let fieldName = try tokens.expectName("a field name")
                let arguments = kind == .input ? [] : try tokens.inputValueDefinitions()
                try tokens.expect(":")
                let fieldType = try tokens.typeReference()
                let defaultValue = tokens.take("=") ? try tokens.value(constant: true) : nil
                let deprecated = try tokens.directives(constant: true).contains { $0.name == "deprecated" }
                if type.fields[fieldName] != nil {
                    problems.append((fieldLine, fieldColumn, "Field '\(name).\(fieldName)' can only be defined once."))
                    continue
                }
                var seen: Set<String> = []
                for argument in arguments where !seen.insert(argument.name).inserted {
                    problems.append((argument.line, argument.column, "Argument '\(name).\(fieldName)(\(argument.name):)' can only be defined once."))
                }
                type.fields[fieldName] = .init(name: fieldName, type: fieldType, line: fieldLine, column: fieldColumn, arguments: arguments,
                                               defaultValue: defaultValue, deprecated: deprecated)
                type.fieldOrder.append(fieldName)
            }
        }
        types[name] = type
    }

    mutating func readEnum(extending: Bool) throws(GraphQLLexer.Failure) {
        var type = try definition(.enum, extending: extending, "an enum name")
        let name = type.name
        try tokens.skipDirectives()
        if tokens.take("{") {
            while !tokens.take("}") {
                tokens.skipDescription()
                let (valueLine, valueColumn) = (tokens.current.line, tokens.current.column)
                let value = try tokens.expectName("an enum value")
                if !type.enumValues.insert(value).inserted {
                    problems.append((valueLine, valueColumn, "Enum value '\(name).\(value)' can only be defined once."))
                }
                if ["true", "false", "null"].contains(value) {
                    problems.append((valueLine, valueColumn, "Enum type \(name) cannot include value: \(value)."))
                }
                try tokens.skipDirectives()
            }
        }
        types[name] = type
    }

    mutating func readUnion(extending: Bool) throws(GraphQLLexer.Failure) {
        var type = try definition(.union, extending: extending, "a union name")
        let name = type.name
        try tokens.skipDirectives()
        if tokens.take("=") {
            _ = tokens.take("|")
            repeat {
                let (memberLine, memberColumn) = (tokens.current.line, tokens.current.column)
                let member = try tokens.expectName("a member type")
                if !type.possibleTypes.insert(member).inserted {
                    problems.append((memberLine, memberColumn, "Union type \(name) can only include type \(member) once."))
                }
                type.members.append(member)
            } while tokens.take("|")
        }
        types[name] = type
    }

    mutating func readDirectiveDefinition() throws(GraphQLLexer.Failure) {
        try tokens.expect("@")
        let name = try tokens.expectName("a directive name")
        let arguments = try tokens.inputValueDefinitions()
        let repeatable = tokens.takeKeyword("repeatable")
        guard tokens.takeKeyword("on") else { throw tokens.fail("expected 'on'") }
        _ = tokens.take("|")
        var locations: Set<String> = []
        repeat { locations.insert(try tokens.expectName("a directive location")) } while tokens.take("|")
        directives[name] = GraphQLSchema.Directive(arguments: arguments, locations: locations, repeatable: repeatable)
    }
}
