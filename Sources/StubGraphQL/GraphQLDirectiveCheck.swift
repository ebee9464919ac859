import StubCore

/// graphql-core's KnownDirectives and UniqueDirectivesPerLocation rules, in its words and at
/// its places (the `@`): a directive the schema does not define, one used where its definition
/// does not allow it (`Directive '@include' may not be used on query.`), and a directive that
/// is not repeatable used twice in one place. The directives' arguments are
/// `GraphQLArgumentCheck`'s.
struct GraphQLDirectiveCheck: GraphQLDocumentRule {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    var problems: [String] = []

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations {
            check(operation.directives, at: operation.kind.uppercased())
            for variable in operation.variables { check(variable.directives, at: "VARIABLE_DEFINITION") }
            walk(operation.selections)
        }
        for fragment in document.fragmentList {
            check(fragment.directives, at: "FRAGMENT_DEFINITION")
            walk(fragment.selections)
        }
    }

    private mutating func walk(_ selections: [GraphQLOperations.Selection]) {
        for selection in selections {
            switch selection {
            case .field(let field):
                check(field.directives, at: "FIELD")
                walk(field.selections)
            case .spread(_, _, _, let directives, _):
                check(directives, at: "FRAGMENT_SPREAD")
            case .inline(_, let inner, _, _, let directives, _):
                check(directives, at: "INLINE_FRAGMENT")
                walk(inner)
            }
        }
    }

    /// The directives of one place, whose location is `location` (`FIELD`, `QUERY`, …). The
    /// repeats first: graphql-core finds them on entering the place, before its directives.
    private mutating func check(_ directives: [GraphQLDirective], at location: String) {
        var seen: [String: GraphQLDirective] = [:]
        for directive in directives where schema.directives[directive.name]?.repeatable == false {
            if let first = seen[directive.name] {
                add(first, "The directive '@\(directive.name)' can only be used once at this location.")
            } else {
                seen[directive.name] = directive
            }
        }
        for directive in directives {
            guard let definition = schema.directives[directive.name] else {
                add(directive, "Unknown directive '@\(directive.name)'.")
                continue
            }
            if !definition.locations.contains(location) {
                let words = location.lowercased().replacing("_", with: " ")
                add(directive, "Directive '@\(directive.name)' may not be used on \(words).")
            }
        }
    }

    private mutating func add(_ directive: GraphQLDirective, _ message: String) {
        add(directive.line, directive.column, message)
    }
}
