import StubCore

/// Reads an executable document's definitions, keeping where each name, type and selection set
/// is: graphql-core reports each problem at the node it is about.
struct GraphQLOperationReader {
    var tokens: GraphQLTokens
    var operations: [GraphQLOperations.Operation] = []
    var fragments: [String: GraphQLOperations.Fragment] = [:]
    var fragmentList: [GraphQLOperations.Fragment] = []
    var otherDefinitions: [GraphQLOperations.OtherDefinition] = []

    /// The keywords that start a type-system definition, which an operation document may hold
    /// (and graphql-core reads) but cannot execute.
    static let typeSystemKeywords: Set<String> = ["schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend"]

    private var place: GraphQLOperations.Place { .init(line: tokens.current.line, column: tokens.current.column) }

    mutating func read() throws(GraphQLLexer.Failure) {
        while !tokens.atEnd {
            let (line, column) = (tokens.current.line, tokens.current.column)
            if tokens.current.kind == .punctuator("{") {
                let opening = place
                operations.append(.init(kind: "query", name: nil, selections: try selectionSet(), line: line, column: column, selectionPlace: opening))
                continue
            }
            if case .string = tokens.current.kind {
                try otherDefinition(line: line, column: column)
                continue
            }
            if case .name(let word) = tokens.current.kind, GraphQLOperationReader.typeSystemKeywords.contains(word) {
                try otherDefinition(line: line, column: column)
                continue
            }
            guard let keyword = tokens.name() else { throw tokens.fail("expected an operation or a fragment") }
            switch keyword {
            case "query", "mutation", "subscription":
                let namePlace = place
                let name = tokens.name()
                let variables = try variableDefinitions()
                let directives = try tokens.directives(constant: false)
                let opening = place
                operations.append(.init(kind: keyword, name: name, selections: try selectionSet(), line: line, column: column, variables: variables,
                                        directives: directives, namePlace: name == nil ? .init() : namePlace, selectionPlace: opening))
            case "fragment":
                let namePlace = place
                let name = try tokens.expectName("a fragment name")
                guard tokens.takeKeyword("on") else { throw tokens.fail("expected 'on'") }
                let conditionPlace = place
                let condition = try tokens.expectName("a type name")
                let directives = try tokens.directives(constant: false)
                let opening = place
                let fragment = GraphQLOperations.Fragment(name: name, typeCondition: condition, selections: try selectionSet(), line: line, column: column,
                                                          namePlace: namePlace, conditionPlace: conditionPlace, directives: directives,
                                                          selectionPlace: opening)
                fragments[name] = fragment
                fragmentList.append(fragment)
            default:
                throw tokens.fail("expected query, mutation, subscription or fragment")
            }
        }
    }

    /// A type-system definition, read as a schema's and kept by name and place only.
    private mutating func otherDefinition(line: Int, column: Int) throws(GraphQLLexer.Failure) {
        var peek = tokens
        peek.skipDescription()
        _ = peek.takeKeyword("extend")
        let keyword = peek.name()
        _ = peek.take("@")
        let name = keyword == "schema" ? "schema" : "'\(peek.name() ?? "")'"
        var reader = GraphQLSchemaReader(tokens: tokens)
        try reader.readDefinition()
        tokens = reader.tokens
        otherDefinitions.append(.init(name: name, line: line, column: column))
    }

    mutating func selectionSet() throws(GraphQLLexer.Failure) -> [GraphQLOperations.Selection] {
        guard tokens.current.kind == .punctuator("{") else { throw tokens.fail("expected '{'") }
        try tokens.enter()
        defer { tokens.leave() }
        tokens.advance()
        var selections: [GraphQLOperations.Selection] = []
        while !tokens.take("}") {
            let (line, column) = (tokens.current.line, tokens.current.column)
            if tokens.take("...") {
                if tokens.current.kind == .name("on") || tokens.current.kind == .punctuator("{") || tokens.current.kind == .punctuator("@") {
                    var conditionPlace = GraphQLOperations.Place()
                    var condition: String?
                    if tokens.takeKeyword("on") {
                        conditionPlace = place
                        condition = try tokens.expectName("a type name")
                    }
                    let directives = try tokens.directives(constant: false)
                    let inner = try selectionSet()
                    selections.append(.inline(typeCondition: condition, selections: inner, line: line, column: column, directives: directives,
                                              conditionPlace: conditionPlace))
                } else {
                    let namePlace = place
                    let name = try tokens.expectName("a fragment name")
                    selections.append(.spread(name: name, line: line, column: column, directives: try tokens.directives(constant: false),
                                              namePlace: namePlace))
                }
                continue
            }
            var name = try tokens.expectName("a field")
            var alias: String?
            if tokens.take(":") {
                alias = name
                name = try tokens.expectName("a field after the alias")
            }
            let arguments = try tokens.arguments(constant: false)
            let directives = try tokens.directives(constant: false)
            let opening = place
            let hasSelections = tokens.current.kind == .punctuator("{")
            let inner = hasSelections ? try selectionSet() : []
            selections.append(.field(.init(alias: alias, name: name, selections: inner, line: line, column: column, arguments: arguments,
                                           directives: directives, selectionPlace: hasSelections ? opening : .init())))
        }
        return selections
    }

    /// `($name: Type = default, …)`, if variable definitions start here.
    mutating func variableDefinitions() throws(GraphQLLexer.Failure) -> [GraphQLOperations.VariableDefinition] {
        guard tokens.take("(") else { return [] }
        var variables: [GraphQLOperations.VariableDefinition] = []
        while !tokens.take(")") {
            let (line, column) = (tokens.current.line, tokens.current.column)
            try tokens.expect("$")
            let namePlace = place
            let name = try tokens.expectName("a variable name")
            try tokens.expect(":")
            let typePlace = place
            var peek = tokens
            while peek.take("[") {}
            let namedTypePlace = GraphQLOperations.Place(line: peek.current.line, column: peek.current.column)
            let type = try tokens.typeReference()
            let defaultLiteral = tokens.take("=") ? try tokens.literal(constant: true) : nil
            let directives = try tokens.directives(constant: true)
            variables.append(.init(name: name, type: type, defaultValue: defaultLiteral?.value, line: line, column: column, namePlace: namePlace,
                                   typePlace: typePlace, namedTypePlace: namedTypePlace, defaultLiteral: defaultLiteral, directives: directives))
        }
        return variables
    }
}
