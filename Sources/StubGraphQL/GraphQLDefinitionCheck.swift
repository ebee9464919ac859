import StubCore

/// The rules about a document's definitions as a whole, in graphql-core's words and at its
/// places: only operations and fragments (ExecutableDefinitions), a root type for each
/// operation (KnownOperationTypes), operation and fragment names defined once
/// (UniqueOperationNames, UniqueFragmentNames), an anonymous operation alone
/// (LoneAnonymousOperation) and a subscription selecting one root field, no introspection field
/// and no `@skip` or `@include` at its top level (SingleFieldSubscriptions).
struct GraphQLDefinitionCheck: GraphQLDocumentRule {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    var problems: [String] = []

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for definition in document.otherDefinitions {
            add(definition.line, definition.column, "The \(definition.name) definition is not executable.")
        }
        var operationNames: [String: GraphQLOperations.Place] = [:]
        for operation in document.operations {
            if schema.root(operation.kind) == nil {
                add(operation.line, operation.column, "The \(operation.kind) operation is not supported by the schema.")
            }
            if let name = operation.name {
                if let first = operationNames[name] {
                    add(first.line, first.column, "There can be only one operation named '\(name)'.")
                } else {
                    operationNames[name] = operation.namePlace
                }
            } else if document.operations.count > 1 {
                add(operation.line, operation.column, "This anonymous operation must be the only defined operation.")
            }
            if operation.kind == "subscription", let root = schema.root("subscription") {
                checkSubscription(operation, root: root)
            }
        }
        var fragmentNames: [String: GraphQLOperations.Place] = [:]
        for fragment in document.fragmentList {
            if let first = fragmentNames[fragment.name] {
                add(first.line, first.column, "There can be only one fragment named '\(fragment.name)'.")
            } else {
                fragmentNames[fragment.name] = fragment.namePlace
            }
        }
    }

    /// A root field of a subscription, by response name: where its first field is, and its name.
    private struct RootField {
        let key: String
        let name: String
        let line: Int
        let column: Int
    }

    private mutating func checkSubscription(_ operation: GraphQLOperations.Operation, root: GraphQLSchema.TypeDefinition) {
        let subject = operation.name.map { "Subscription '\($0)'" } ?? "Anonymous Subscription"
        var fields: [RootField] = []
        var forbidden: [GraphQLDirective] = []
        var visited: Set<String> = []
        collect(operation.selections, root: root, into: &fields, forbidden: &forbidden, visited: &visited)
        if let directive = forbidden.first {
            return add(directive.line, directive.column, "\(subject) must not use `@skip` or `@include` directives in the top level selection.")
        }
        if fields.isEmpty {
            add(operation.selectionPlace.line, operation.selectionPlace.column, "\(subject) must select one top level field.")
        } else if fields.count > 1 {
            add(fields[1].line, fields[1].column, "\(subject) must select only one top level field.")
        }
        for field in fields where field.name.hasPrefix("__") {
            add(field.line, field.column, "\(subject) must not select an introspection top level field.")
        }
    }

    /// The root fields as graphql-core's `collect_fields` groups them, following spreads and
    /// inline fragments whose type applies to the root (each fragment once). A work list, not
    /// recursion: a long chain of fragments costs memory, not the thread's stack.
    private func collect(_ selections: [GraphQLOperations.Selection], root: GraphQLSchema.TypeDefinition, into fields: inout [RootField],
                         forbidden: inout [GraphQLDirective], visited: inout Set<String>) {
        var stack: [(selections: [GraphQLOperations.Selection], next: Int)] = [(selections, 0)]
        var keys: Set<String> = []
        while let top = stack.last {
            guard top.next < top.selections.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            switch top.selections[top.next] {
            case .field(let field):
                forbidden += field.directives.filter { ["skip", "include"].contains($0.name) }
                if keys.insert(field.responseKey).inserted {
                    fields.append(RootField(key: field.responseKey, name: field.name, line: field.line, column: field.column))
                }
            case .spread(let name, _, _, let directives, _):
                forbidden += directives.filter { ["skip", "include"].contains($0.name) }
                guard visited.insert(name).inserted, let fragment = document.fragments[name], applies(fragment.typeCondition, to: root) else { continue }
                stack.append((fragment.selections, 0))
            case .inline(let condition, let inner, _, _, let directives, _):
                forbidden += directives.filter { ["skip", "include"].contains($0.name) }
                guard condition.map({ applies($0, to: root) }) ?? true else { continue }
                stack.append((inner, 0))
            }
        }
    }

    private func applies(_ condition: String, to root: GraphQLSchema.TypeDefinition) -> Bool {
        condition == root.name || (schema.types[condition].map { [.interface, .union].contains($0.kind) && $0.possibleTypes.contains(root.name) } ?? false)
    }
}
