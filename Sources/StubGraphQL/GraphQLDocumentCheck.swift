import StubCore

/// Checks an operation's document against the schema: every type, fragment and field it names
/// exists, leaves have no selection set and objects have one (graphql-core's
/// FieldsOnCorrectType, KnownTypeNames, KnownFragmentNames and ScalarLeafs rules).
struct GraphQLDocumentCheck {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    private(set) var problems: [String] = []

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations {
            guard let root = schema.root(operation.kind) else {
                problems.append("\(document.file):\(operation.line): the schema has no \(operation.kind) type")
                continue
            }
            check(operation.selections, on: root.name)
        }
        for fragment in document.fragments.values {
            guard schema.types[fragment.typeCondition] != nil else {
                problems.append("\(document.file):\(fragment.line): fragment \(fragment.name) is on unknown type \(fragment.typeCondition)")
                continue
            }
            check(fragment.selections, on: fragment.typeCondition)
        }
    }

    private mutating func check(_ selections: [GraphQLOperations.Selection], on typeName: String) {
        for selection in selections {
            switch selection {
            case .field(let field): check(field, on: typeName)
            case .spread(let name, let line, _, _):
                if document.fragments[name] == nil { problems.append("\(document.file):\(line): unknown fragment \(name)") }
            case .inline(let condition, let inner, let line, _, _):
                if let condition, schema.types[condition] == nil {
                    problems.append("\(document.file):\(line): inline fragment on unknown type \(condition)")
                    continue
                }
                check(inner, on: condition ?? typeName)
            }
        }
    }

    private mutating func check(_ field: GraphQLOperations.Field, on typeName: String) {
        let place = "\(document.file):\(field.line):\(field.column)"
        if field.name == "__typename" {
            if !field.selections.isEmpty { problems.append("\(place): __typename is a String and takes no selection set") }
            return
        }
        guard let type = schema.types[typeName] else { return }
        guard let definition = GraphQLBodyCheck.field(field.name, of: type, in: schema) else {
            problems.append("\(place): cannot query field \"\(field.name)\" on type \"\(typeName)\" (\(schema.file):\(type.line))")
            return
        }
        let named = definition.type.namedType
        guard let fieldType = schema.types[named] ?? (GraphQLSchema.builtInScalars.contains(named) ? nil : nil) else {
            if !GraphQLSchema.builtInScalars.contains(named) {
                problems.append("\(place): field \(field.name) has unknown type \(named) (\(schema.file):\(definition.line))")
            } else if !field.selections.isEmpty {
                problems.append("\(place): field \"\(field.name)\" must not have a selection since type \"\(definition.type)\" has no subfields")
            }
            return
        }
        switch fieldType.kind {
        case .object, .interface, .union:
            if field.selections.isEmpty {
                problems.append("\(place): field \"\(field.name)\" of type \"\(definition.type)\" must have a selection of subfields")
            }
            check(field.selections, on: named)
        case .scalar, .enum, .input:
            if !field.selections.isEmpty {
                problems.append("\(place): field \"\(field.name)\" must not have a selection since type \"\(definition.type)\" has no subfields")
            }
        }
    }
}
