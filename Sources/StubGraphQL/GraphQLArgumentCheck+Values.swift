import StubCore

/// ValuesOfCorrectType: a literal against the input type of the place it fills, as graphql-core
/// coerces it (a single value where a list is expected is a list of one).
extension GraphQLArgumentCheck {
    mutating func checkValue(_ value: GraphQLValue, _ type: GraphQLType, placeHasDefault: Bool, line: Int, column: Int, usages: inout [Usage]) {
        if case .variable(let name) = value {
            usages.append(Usage(name: name, type: type, placeHasDefault: placeHasDefault, line: line, column: column))
            return
        }
        // Down the type's wrappers in a loop: only a list or an object in the value recurses, so
        // the depth is the value's, not the value's times the types'.
        var type = type
        while true {
            switch type {
            case .nonNull(let inner):
                if value == .null { return add(line, column, "Expected value of non-null type '\(type)' not to be null.") }
                type = inner
            case .list(let inner):
                guard case .list(let items) = value else {
                    type = inner
                    continue
                }
                for item in items { checkValue(item, inner, placeHasDefault: false, line: line, column: column, usages: &usages) }
                return
            case .named(let name):
                if value == .null { return }
                if case .list = value { return add(line, column, "Expected value of type '\(name)', found \(value.description).") }
                return checkNamed(value, name, line: line, column: column, usages: &usages)
            }
        }
    }

    private mutating func checkNamed(_ value: GraphQLValue, _ name: String, line: Int, column: Int, usages: inout [Usage]) {
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
                guard case .object(let fields) = value else { return add(line, column, "Expected value of type '\(name)', found \(value.description).") }
                checkObject(fields, type, line: line, column: column, usages: &usages)
            default:
                // A custom scalar takes any literal, as graphql-core's default parse does.
                break
            }
        }
    }

    private mutating func checkObject(_ fields: [(name: String, value: GraphQLValue)], _ type: GraphQLSchema.TypeDefinition, line: Int, column: Int,
                                      usages: inout [Usage]) {
        var seen: Set<String> = []
        for field in fields {
            if !seen.insert(field.name).inserted { add(line, column, "There can be only one input field named '\(field.name)'.") }
            guard let definition = type.fields[field.name] else {
                add(line, column, "Expected value of type '\(type.name)' not to include unknown field '\(field.name)'. Found: \(GraphQLValue.object(fields).description).")
                continue
            }
            checkValue(field.value, definition.type, placeHasDefault: definition.defaultValue != nil, line: line, column: column, usages: &usages)
        }
        for name in type.fieldOrder where !seen.contains(name) {
            guard let definition = type.fields[name], case .nonNull = definition.type, definition.defaultValue == nil else { continue }
            add(line, column, "Expected value of type '\(type.name)' to include required field '\(name)', found: \(GraphQLValue.object(fields).description).")
        }
    }
}
