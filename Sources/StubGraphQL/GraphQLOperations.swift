import StubCore

/// An executable document (`operation.graphql`): its operations and fragments, with the
/// selection sets a response must fit and the arguments, variables and directives the schema
/// checks.
package struct GraphQLOperations: Sendable {
    /// One selection of a selection set.
    indirect enum Selection: Sendable {
        case field(Field)
        case spread(name: String, line: Int, column: Int, directives: [GraphQLDirective] = [])
        case inline(typeCondition: String?, selections: [Selection], line: Int, column: Int, directives: [GraphQLDirective] = [])
    }

    /// `$name: Type = default`.
    struct VariableDefinition: Sendable {
        let name: String
        let type: GraphQLType
        let defaultValue: GraphQLValue?
        let line: Int
        let column: Int
    }

    struct Field: Sendable {
        let alias: String?
        let name: String
        let selections: [Selection]
        let line: Int
        let column: Int
        var arguments: [GraphQLArgument] = []
        var directives: [GraphQLDirective] = []
        /// The key of the field in a response.
        var responseKey: String { alias ?? name }
    }

    struct Operation: Sendable {
        let kind: String
        let name: String?
        let selections: [Selection]
        let line: Int
        var variables: [VariableDefinition] = []
        var directives: [GraphQLDirective] = []
    }

    struct Fragment: Sendable {
        let name: String
        let typeCondition: String
        let selections: [Selection]
        let line: Int
        let column: Int
    }

    /// The document's file, for messages.
    package let file: String
    let operations: [Operation]
    let fragments: [String: Fragment]

    /// The names of the document's operations (nil for an anonymous one).
    package var operationNames: [String?] { operations.map(\.name) }

    /// Reads an executable document; the failure names the line and column.
    package static func parse(_ text: String, file: String) -> Result<GraphQLOperations, GraphQLDocumentError> {
        GraphQLLexer.read(text, file: file, make: { OperationReader(tokens: $0) }) { (reader: inout OperationReader) throws(GraphQLLexer.Failure) in
            try reader.read()
        }.map { GraphQLOperations(file: file, operations: $0.operations, fragments: $0.fragments) }
    }
}

private struct OperationReader {
    var tokens: GraphQLTokens
    var operations: [GraphQLOperations.Operation] = []
    var fragments: [String: GraphQLOperations.Fragment] = [:]

    mutating func read() throws(GraphQLLexer.Failure) {
        while !tokens.atEnd {
            let (line, column) = (tokens.current.line, tokens.current.column)
            if tokens.current.kind == .punctuator("{") {
                operations.append(.init(kind: "query", name: nil, selections: try selectionSet(), line: line))
                continue
            }
            guard let keyword = tokens.name() else { throw tokens.fail("expected an operation or a fragment") }
            switch keyword {
            case "query", "mutation", "subscription":
                let name = tokens.name()
                let variables = try variableDefinitions()
                let directives = try tokens.directives(constant: false)
                operations.append(.init(kind: keyword, name: name, selections: try selectionSet(), line: line, variables: variables,
                                        directives: directives))
            case "fragment":
                let name = try tokens.expectName("a fragment name")
                guard tokens.takeKeyword("on") else { throw tokens.fail("expected 'on'") }
                let condition = try tokens.expectName("a type name")
                try tokens.skipDirectives()
                fragments[name] = .init(name: name, typeCondition: condition, selections: try selectionSet(), line: line, column: column)
            default:
                throw tokens.fail("expected query, mutation, subscription or fragment")
            }
        }
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
                    let condition = tokens.takeKeyword("on") ? try tokens.expectName("a type name") : nil
                    let directives = try tokens.directives(constant: false)
                    let inner = try selectionSet()
                    selections.append(.inline(typeCondition: condition, selections: inner, line: line, column: column, directives: directives))
                } else {
                    let name = try tokens.expectName("a fragment name")
                    selections.append(.spread(name: name, line: line, column: column, directives: try tokens.directives(constant: false)))
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
            let inner = tokens.current.kind == .punctuator("{") ? try selectionSet() : []
            selections.append(.field(.init(alias: alias, name: name, selections: inner, line: line, column: column, arguments: arguments,
                                           directives: directives)))
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
            let name = try tokens.expectName("a variable name")
            try tokens.expect(":")
            let type = try tokens.typeReference()
            let defaultValue = tokens.take("=") ? try tokens.value(constant: true) : nil
            _ = try tokens.directives(constant: true)
            variables.append(.init(name: name, type: type, defaultValue: defaultValue, line: line, column: column))
        }
        return variables
    }
}
