import StubCore

/// ValuesOfCorrectType: a literal against the input type of the place it fills, as graphql-core
/// coerces it (a single value where a list is expected is a list of one), each problem at the
/// part of the literal it is about.
extension GraphQLArgumentCheck {
    mutating func checkValue(_ literal: GraphQLLiteral, _ type: GraphQLType, placeHasDefault: Bool, usages: inout [Usage]) {
        let (line, column) = (literal.line, literal.column)
        if case .leaf(.variable(let name)) = literal.node {
            usages.append(Usage(name: name, type: type, placeHasDefault: placeHasDefault, line: line, column: column))
            return
        }
        // Down the type's wrappers in a loop: only a list or an object in the value recurses, so
        // the depth is the value's, not the value's times the types'.
        var type = type
        while true {
            switch type {
            case .nonNull(let inner):
                if case .leaf(.null) = literal.node { return add(line, column, "Expected value of non-null type '\(type)' not to be null.") }
                type = inner
            case .list(let inner):
                // A null fills a list that may be null; only a value that is not a list is
                // taken as a list of one.
                if case .leaf(.null) = literal.node { return }
                guard case .list(let items) = literal.node else {
                    type = inner
                    continue
                }
                for item in items { checkValue(item, inner, placeHasDefault: false, usages: &usages) }
                return
            case .named(let name):
                if case .leaf(.null) = literal.node { return }
                return checkNamed(literal, name, usages: &usages)
            }
        }
    }

    private mutating func checkNamed(_ literal: GraphQLLiteral, _ name: String, usages: inout [Usage]) {
        let (line, column, value) = (literal.line, literal.column, literal.value)
        switch name {
        case "Int":
            guard case .int(let text) = value else { return add(line, column, "Int cannot represent non-integer value: \(value.description)") }
            if Int32(text) == nil { add(line, column, "Int cannot represent non 32-bit signed integer value: \(text)") }
        case "Float":
            switch value {
            case .int, .float: break
            default: add(line, column, "Float cannot represent non numeric value: \(value.description)")
            }
        case "String":
            guard case .string = value else { return add(line, column, "String cannot represent a non string value: \(value.description)") }
        case "Boolean":
            guard case .boolean = value else { return add(line, column, "Boolean cannot represent a non boolean value: \(value.description)") }
        case "ID":
            switch value {
            case .string, .int: break
            default: add(line, column, "ID cannot represent a non-string and non-integer value: \(value.description)")
            }
        default:
            guard let type = schema.types[name] else { return }
            switch type.kind {
            case .enum:
                guard case .enumValue(let member) = value else {
                    return add(line, column, "Enum '\(name)' cannot represent non-enum value: \(value.description).")
                }
                if !type.enumValues.contains(member) { add(line, column, "Value '\(member)' does not exist in '\(name)' enum.") }
            case .input:
                guard case .object(let fields) = literal.node else {
                    return add(line, column, "Expected value of type '\(name)' to be an object, found: \(value.description).")
                }
                checkObject(fields, type, literal: literal, usages: &usages)
            default:
                // A custom scalar takes any literal, as graphql-core's default parse does.
                break
            }
        }
    }

    /// An input object: required fields present, each field's value of its type (a name given
    /// twice counts with its last value, as graphql-core's does), no field the type lacks.
    private mutating func checkObject(_ fields: [GraphQLLiteral.Field], _ type: GraphQLSchema.TypeDefinition, literal: GraphQLLiteral,
                                      usages: inout [Usage]) {
        var given: [String: GraphQLLiteral.Field] = [:]
        for field in fields { given[field.name] = field }
        for name in type.fieldOrder {
            guard let definition = type.fields[name] else { continue }
            guard let field = given[name] else {
                if case .nonNull = definition.type, definition.defaultValue == nil {
                    add(literal.line, literal.column,
                        "Expected value of type '\(type.name)' to include required field '\(name)', found: \(literal.value.description).")
                }
                continue
            }
            checkValue(field.value, definition.type, placeHasDefault: definition.defaultValue != nil, usages: &usages)
        }
        for field in fields where type.fields[field.name] == nil {
            add(field.line, field.column,
                "Expected value of type '\(type.name)' not to include unknown field '\(field.name)', found: \(literal.value.description).")
        }
    }

    /// UniqueInputFieldNames: in every input object of a literal, each name once (reported at
    /// its first use), wherever the literal is and whatever its type.
    mutating func checkUniqueInputFields(_ literal: GraphQLLiteral) {
        var pending = [literal]
        while let next = pending.popLast() {
            switch next.node {
            case .leaf: break
            case .list(let items): pending += items.reversed()
            case .object(let fields):
                var first: [String: GraphQLLiteral.Field] = [:]
                for field in fields {
                    if let earlier = first[field.name] {
                        add(earlier.line, earlier.column, "There can be only one input field named '\(field.name)'.")
                    } else {
                        first[field.name] = field
                    }
                }
                pending += fields.map(\.value).reversed()
            }
        }
    }
}
