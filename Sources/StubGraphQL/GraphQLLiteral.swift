import StubCore

/// A value as an operation document writes it, with where each part of it is: the checks of
/// arguments and variable defaults report a problem at the value (or the part of a list or an
/// input object) it is about, as graphql-core does.
struct GraphQLLiteral: Sendable {
    /// One `name: value` of an input object.
    struct Field: Sendable {
        let name: String
        let line: Int
        let column: Int
        let value: GraphQLLiteral
    }

    enum Node: Sendable {
        /// A variable, a number, a string, a boolean, null or an enum value.
        case leaf(GraphQLValue)
        case list([GraphQLLiteral])
        case object([Field])
    }

    let node: Node
    let line: Int
    let column: Int

    /// The variables it holds, with where each is.
    var variables: [(name: String, line: Int, column: Int)] {
        var found: [(name: String, line: Int, column: Int)] = []
        var pending = [self]
        while let next = pending.popLast() {
            switch next.node {
            case .leaf(.variable(let name)): found.append((name, next.line, next.column))
            case .leaf: break
            case .list(let items): pending += items.reversed()
            case .object(let fields): pending += fields.map(\.value).reversed()
            }
        }
        return found
    }

    /// The value without its places.
    var value: GraphQLValue {
        switch node {
        case .leaf(let value): value
        case .list(let items): .list(items.map(\.value))
        case .object(let fields): .object(fields.map { ($0.name, $0.value.value) })
        }
    }
}

extension GraphQLTokens {
    /// A value with its places; `constant` refuses variables (in a default value or a schema).
    mutating func literal(constant: Bool) throws(GraphQLLexer.Failure) -> GraphQLLiteral {
        let (line, column) = (current.line, current.column)
        switch current.kind {
        case .punctuator("$"):
            guard !constant else { throw fail("expected a constant value") }
            advance()
            return GraphQLLiteral(node: .leaf(.variable(try expectName("a variable name"))), line: line, column: column)
        case .int(let text): advance(); return GraphQLLiteral(node: .leaf(.int(text)), line: line, column: column)
        case .float(let text): advance(); return GraphQLLiteral(node: .leaf(.float(text)), line: line, column: column)
        case .string(let text): advance(); return GraphQLLiteral(node: .leaf(.string(text)), line: line, column: column)
        case .name(let name):
            advance()
            let value: GraphQLValue = switch name {
            case "true": .boolean(true)
            case "false": .boolean(false)
            case "null": .null
            default: .enumValue(name)
            }
            return GraphQLLiteral(node: .leaf(value), line: line, column: column)
        case .punctuator("["):
            try enter()
            defer { leave() }
            advance()
            var items: [GraphQLLiteral] = []
            while !take("]") {
                guard !atEnd else { throw fail("expected ']'") }
                items.append(try literal(constant: constant))
            }
            return GraphQLLiteral(node: .list(items), line: line, column: column)
        case .punctuator("{"):
            try enter()
            defer { leave() }
            advance()
            var fields: [GraphQLLiteral.Field] = []
            while !take("}") {
                let (fieldLine, fieldColumn) = (current.line, current.column)
                let name = try expectName("an input field name")
                try expect(":")
                fields.append(GraphQLLiteral.Field(name: name, line: fieldLine, column: fieldColumn, value: try literal(constant: constant)))
            }
            return GraphQLLiteral(node: .object(fields), line: line, column: column)
        default:
            throw fail("expected a value")
        }
    }
}
