import StubCore

/// Checks an operation's document against the schema's types, in graphql-core's words and at
/// its places: every field exists on its parent type (FieldsOnCorrectType), leaves have no
/// selection set and objects have one (ScalarLeafs), type conditions name known composite types
/// (KnownTypeNames, FragmentsOnCompositeTypes), spreads name known fragments
/// (KnownFragmentNames).
struct GraphQLDocumentCheck: GraphQLDocumentRule {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    var problems: [String] = []

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations {
            // An operation without a root type is GraphQLDefinitionCheck's problem; below it only
            // type conditions can be checked.
            check(operation.selections, on: schema.root(operation.kind)?.name)
        }
        for fragment in document.fragmentList {
            let place = fragment.conditionPlace
            let type = schema.types[fragment.typeCondition]
            if type == nil && !GraphQLSchema.builtInScalars.contains(fragment.typeCondition) {
                add(place.line, place.column, "Unknown type '\(fragment.typeCondition)'.")
            } else if type?.isComposite != true {
                add(place.line, place.column, "Fragment '\(fragment.name)' cannot condition on non composite type '\(fragment.typeCondition)'.")
            }
            // Below a type that is not composite only type conditions can be checked.
            check(fragment.selections, on: type?.isComposite == true ? fragment.typeCondition : nil)
        }
    }

    /// Checks a selection set whose type is `typeName` (nil where it is not a composite type
    /// the schema knows: graphql-core checks nothing below such a place, and neither does this).
    private mutating func check(_ selections: [GraphQLOperations.Selection], on typeName: String?) {
        for selection in selections {
            switch selection {
            case .field(let field): check(field, on: typeName)
            case .spread(let name, _, _, _, let place):
                if document.fragments[name] == nil { add(place.line, place.column, "Unknown fragment '\(name)'.") }
            case .inline(let condition, let inner, _, _, _, let place):
                guard let condition else {
                    check(inner, on: typeName)
                    continue
                }
                guard let type = schema.types[condition] else {
                    if GraphQLSchema.builtInScalars.contains(condition) {
                        add(place.line, place.column, "Fragment cannot condition on non composite type '\(condition)'.")
                    } else {
                        add(place.line, place.column, "Unknown type '\(condition)'.")
                    }
                    check(inner, on: nil)
                    continue
                }
                if !type.isComposite { add(place.line, place.column, "Fragment cannot condition on non composite type '\(condition)'.") }
                check(inner, on: type.isComposite ? condition : nil)
            }
        }
    }

    private mutating func check(_ field: GraphQLOperations.Field, on typeName: String?) {
        guard let typeName, let parent = schema.types[typeName] else {
            check(field.selections, on: nil)
            return
        }
        let fieldType: GraphQLType
        if field.name == "__typename" {
            fieldType = .nonNull(.named("String"))
        } else if let definition = GraphQLBodyCheck.field(field.name, of: parent, in: schema) {
            fieldType = definition.type
        } else {
            add(field.line, field.column, "Cannot query field '\(field.name)' on type '\(typeName)'.")
            check(field.selections, on: nil)
            return
        }
        let named = fieldType.namedType
        let composite = schema.types[named]?.isComposite ?? false
        let leaf = GraphQLSchema.builtInScalars.contains(named) || schema.types[named].map { [.scalar, .enum].contains($0.kind) } ?? false
        if leaf && !field.selections.isEmpty {
            let place = field.selectionPlace
            add(place.line, place.column, "Field '\(field.name)' must not have a selection since type '\(fieldType)' has no subfields.")
        } else if composite && field.selections.isEmpty {
            add(field.line, field.column, "Field '\(field.name)' of type '\(fieldType)' must have a selection of subfields. Did you mean '\(field.name) { ... }'?")
        }
        check(field.selections, on: composite ? named : nil)
    }
}

extension GraphQLSchema.TypeDefinition {
    /// An object, an interface or a union: a type with fields to select.
    var isComposite: Bool { [.object, .interface, .union].contains(kind) }
}

extension GraphQLSchema {
    /// `name` when it names a composite type (`isComposite`), else nil: the parent type of a
    /// selection set below it, as graphql-core's TypeInfo tracks it.
    func compositeName(_ name: String?) -> String? {
        guard let name, types[name]?.isComposite == true else { return nil }
        return name
    }
}
