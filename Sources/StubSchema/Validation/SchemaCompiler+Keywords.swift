import StubCore

/// The keywords of each kind, read into a node.
extension SchemaCompiler {
    func readGeneral(_ node: SchemaNode, _ schema: JSONValue, base: String, location: String) {
        switch schema["type"] {
        case .string(let t)?: node.types = [t]
        case .array(let list)?: node.types = list.compactMap { if case .string(let t) = $0 { return t } else { return nil } }
        default: break
        }
        node.nullable = schema["nullable"] == .bool(true) || schema["x-nullable"] == .bool(true)
        if assertFormats, case .string(let format)? = schema["format"] { node.format = format }
        if case .array(let values)? = schema["enum"] { node.enumValues = values }
        if let value = schema["const"] { node.constValue = value }
        node.allOf = children(schema["allOf"], base: base, location: location + "/allOf")
        node.anyOf = children(schema["anyOf"], base: base, location: location + "/anyOf")
        node.oneOf = children(schema["oneOf"], base: base, location: location + "/oneOf")
        if let not = schema["not"] { node.not = child(not, base: base, location: location + "/not") }
        if dialect == .draft2020, let condition = schema["if"] {
            node.ifSchema = child(condition, base: base, location: location + "/if")
            if let then = schema["then"] { node.thenSchema = child(then, base: base, location: location + "/then") }
            if let otherwise = schema["else"] { node.elseSchema = child(otherwise, base: base, location: location + "/else") }
        }
    }

    func readNumbersAndStrings(_ node: SchemaNode, _ schema: JSONValue, location: String) {
        node.minimum = schema["minimum"]?.numberValue
        node.maximum = schema["maximum"]?.numberValue
        // draft 4 (OpenAPI 3.0): a boolean that makes `minimum` exclusive; 2020-12: a number.
        switch schema["exclusiveMinimum"] {
        case .bool(true)?: node.exclusiveMinimum = node.minimum; node.minimum = nil
        case .number(let n)?: node.exclusiveMinimum = n.value
        default: break
        }
        switch schema["exclusiveMaximum"] {
        case .bool(true)?: node.exclusiveMaximum = node.maximum; node.maximum = nil
        case .number(let n)?: node.exclusiveMaximum = n.value
        default: break
        }
        if let m = schema["multipleOf"]?.numberValue, m > 0 { node.multipleOf = m }
        node.minLength = SchemaCompiler.count(schema["minLength"])
        node.maxLength = SchemaCompiler.count(schema["maxLength"])
        if case .string(let pattern)? = schema["pattern"] { node.pattern = regex(pattern, location: location + "/pattern") }
    }

    func readArrays(_ node: SchemaNode, _ schema: JSONValue, base: String, location: String) {
        if case .array = schema["prefixItems"] { node.prefixItems = children(schema["prefixItems"], base: base, location: location + "/prefixItems") }
        switch schema["items"] {
        case .array?:
            // draft 4's tuple form (and a 3.1 document written the old way).
            node.prefixItems = children(schema["items"], base: base, location: location + "/items")
            if let extra = schema["additionalItems"] { node.items = child(extra, base: base, location: location + "/additionalItems") }
        case let items?: node.items = child(items, base: base, location: location + "/items")
        case nil: break
        }
        if let contains = schema["contains"] {
            node.contains = child(contains, base: base, location: location + "/contains")
            if dialect == .draft2020 {
                if let min = SchemaCompiler.count(schema["minContains"]) { node.minContains = min }
                node.maxContains = SchemaCompiler.count(schema["maxContains"])
            }
        }
        node.minItems = SchemaCompiler.count(schema["minItems"])
        node.maxItems = SchemaCompiler.count(schema["maxItems"])
        node.uniqueItems = schema["uniqueItems"] == .bool(true)
        if dialect == .draft2020, let rest = schema["unevaluatedItems"] {
            node.unevaluatedItems = child(rest, base: base, location: location + "/unevaluatedItems")
            arena.tracksAnnotations = true
        }
    }

    func readObjects(_ node: SchemaNode, _ schema: JSONValue, base: String, location: String) {
        if case .object(let properties)? = schema["properties"] {
            for (name, value) in properties {
                node.properties[ExactKey(name)] = child(value, base: base, location: location + "/properties/" + name)
            }
        }
        if case .object(let patterns)? = schema["patternProperties"] {
            for (pattern, value) in patterns {
                guard let regex = regex(pattern, location: location + "/patternProperties") else { continue }
                node.patternProperties.append((regex, child(value, base: base, location: location + "/patternProperties/" + pattern)))
            }
        }
        if let extra = schema["additionalProperties"] { node.additionalProperties = child(extra, base: base, location: location + "/additionalProperties") }
        if let names = schema["propertyNames"] { node.propertyNames = child(names, base: base, location: location + "/propertyNames") }
        if case .array(let list)? = schema["required"] { node.required = list.compactMap(\.stringValue) }
        node.minProperties = SchemaCompiler.count(schema["minProperties"])
        node.maxProperties = SchemaCompiler.count(schema["maxProperties"])
        if case .object(let map)? = schema["dependentRequired"] {
            for (key, value) in map { if case .array(let list) = value { node.dependentRequired.append((key, list.compactMap(\.stringValue))) } }
        }
        if case .object(let map)? = schema["dependentSchemas"] {
            for (key, value) in map { node.dependentSchemas.append((key, child(value, base: base, location: location + "/dependentSchemas/" + key))) }
        }
        // draft 4's `dependencies`: a list of names is dependentRequired, a schema dependentSchemas.
        if case .object(let map)? = schema["dependencies"] {
            for (key, value) in map {
                if case .array(let list) = value { node.dependentRequired.append((key, list.compactMap(\.stringValue))) } else {
                    node.dependentSchemas.append((key, child(value, base: base, location: location + "/dependencies/" + key)))
                }
            }
        }
        if dialect == .draft2020, let rest = schema["unevaluatedProperties"] {
            node.unevaluatedProperties = child(rest, base: base, location: location + "/unevaluatedProperties")
            arena.tracksAnnotations = true
        }
    }

    /// A non-negative whole number keyword (`minLength`, `maxItems` …).
    static func count(_ value: JSONValue?) -> Int? {
        guard let n = value?.numberValue, n >= 0, n.rounded() == n else { return nil }
        return n > Double(Int.max / 2) ? Int.max / 2 : Int(n)
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
