import StubCore

/// What a resource's answers look like: the item object, its id field and kind, the list's shape,
/// and the objects of the document's examples.
extension ResourceFinder {
    /// Names of the array an envelope holds the objects in, most likely first.
    static let arrayNames = ["data", "items", "results", "records", "entries", "values", "content", "list", "objects", "elements", "rows"]

    /// The item object's schema as written, `allOf` merged (`flat`, made from its example when the
    /// document gives no schema), where it is, and the example objects.
    func itemObject(_ get: OpenAPIDocument.Operation, itemPath: String) throws(Refusal) -> (schema: JSONValue?, flat: JSONValue, pointer: String, examples: [JSONValue]) {
        guard let response = ResourceFinder.success(get) else { throw Refusal("GET \(itemPath) documents no 2xx response") }
        let pointer = "\(get.pointer)/responses/\(SpecFiles.escape(response.status))"
        let examples = response.examples.compactMap(\.value).filter { if case .object = $0 { true } else { false } }
        if let schema = response.schema, let flat = flat(schema), declaredType(flat) != nil {
            guard declaredType(flat) == "object", case .object(let properties)? = flat["properties"], !properties.isEmpty else {
                throw Refusal("GET \(itemPath) answers \(ResourceFinder.kind(declaredType(flat))), not an object with properties")
            }
            return (schema, flat, pointer, examples)
        }
        guard let first = examples.first else {
            let schema = response.schema == nil ? "no schema" : "a schema that names no type (a oneOf or anyOf)"
            throw Refusal("GET \(itemPath) gives \(schema) and no example of the object")
        }
        return (nil, ResourceFinder.schema(describing: first), pointer, examples)
    }

    /// The item path parameter's name when the object has such a field, else `id` when it has
    /// one, else the first required field whose name ends in `id`; a field that is an object or
    /// an array is no id (`{"floating_ip": {…}}` wraps the object in a field named as the parameter).
    func idField(_ flat: JSONValue, parameter: String, itemPath: String) throws(Refusal) -> String {
        guard case .object(let properties)? = flat["properties"] else { throw Refusal("the object GET \(itemPath) answers has no properties") }
        let scalar = { (name: String) -> Bool in
            guard let property = properties.first(where: { $0.key == name }) else { return false }
            let type = self.declaredType(self.flat(property.value))
            return type != "object" && type != "array"
        }
        if scalar(parameter) { return parameter }
        if scalar("id") { return "id" }
        var required: [String] = []
        if case .array(let list)? = flat["required"] { required = list.compactMap(\.scalarText) }
        let named = properties.map(\.key)
        if let name = required.first(where: { name in
            (name.hasSuffix("id") || name.hasSuffix("Id") || name.hasSuffix("ID")) && (scalar(name) || !named.contains(name))
        }) {
            return name
        }
        // An object wrapped in another (`{"droplet": {…}}`) is the common case: say so.
        let objects = properties.filter { declaredType(self.flat($0.value)) == "object" }
        let wrapper = objects.first { $0.key == parameter || properties.count == 1 || self.flat($0.value)?["properties"]?["id"] != nil }
        let hint = wrapper.map { "; it wraps the object in \"\($0.key)\", and a collection answers with the bare object" } ?? ""
        throw Refusal("the object GET \(itemPath) answers has no field \"\(parameter)\" or \"id\", nor a required one ending in \"id\"\(hint)")
    }

    /// `integer` or `uuid`, from the id field's type, else from the examples' ids.
    func idKind(_ flat: JSONValue, id: String, examples: [JSONValue]) throws(Refusal) -> String {
        let property = flat["properties"]?[id]
        if let schema = self.flat(property) {
            if let type = declaredType(schema) {
                if type == "integer" || (type == "number" && ["int32", "int64"].contains(schema["format"]?.scalarText ?? "")) { return "integer" }
                if type == "string" { return "uuid" }
                throw Refusal("the id field \"\(id)\" is \(ResourceFinder.kind(type)), and a collection makes integer or string ids")
            }
            if schema["format"]?.scalarText == "uuid" { return "uuid" }
        }
        let values = examples.compactMap { $0[id] }
        if !values.isEmpty, values.allSatisfy({ $0.wholeNumber(in: Int.min...Int.max) != nil }) { return "integer" }
        if !values.isEmpty, values.allSatisfy({ if case .string = $0 { true } else { false } }) { return "uuid" }
        throw Refusal("the id field \"\(id)\" has no type, nor examples that tell integer ids from string ones")
    }

    /// How the list answers: a bare array of objects, or an object holding one.
    func listShape(_ list: OpenAPIDocument.Operation, itemSchema: JSONValue?) throws(Refusal) -> RestResource.ListShape {
        guard let response = ResourceFinder.success(list) else { throw Refusal("GET \(list.path) documents no 2xx response") }
        if let flat = flat(response.schema), let type = declaredType(flat) {
            switch type {
            case "array":
                if let items = self.flat(flat["items"]), let inner = declaredType(items), inner != "object" {
                    throw Refusal("GET \(list.path) answers an array of \(inner) values, not of objects")
                }
                return .array
            case "object":
                guard let property = arrayProperty(flat, itemSchema: itemSchema) else {
                    throw Refusal("GET \(list.path) answers an object without an array of objects in it")
                }
                return .envelope(property: property, schema: flat)
            default:
                throw Refusal("GET \(list.path) answers \(ResourceFinder.kind(type)), not a list")
            }
        }
        // No schema that says: the examples show the shape.
        for case .object(let members) in response.examples.compactMap(\.value) {
            if let member = members.first(where: { ResourceFinder.objects(in: $0.value) != nil }) { return .envelope(property: member.key, schema: nil) }
        }
        return .array
    }

    /// The object's array property holding the items: the one whose items are the item's schema,
    /// else one with a usual name (`data`, `items`, `results`…), else the first array of objects.
    func arrayProperty(_ flat: JSONValue, itemSchema: JSONValue?) -> String? {
        guard case .object(let properties)? = flat["properties"] else { return nil }
        let arrays = properties.filter { property in
            guard let schema = self.flat(property.value), declaredType(schema) == "array" else { return false }
            let items = self.flat(schema["items"])
            return items == nil || declaredType(items) == nil || declaredType(items) == "object"
        }
        if let itemSchema, let same = arrays.first(where: { self.flat($0.value)?["items"].map(ErrorEnvelopeGuess.identity) == ErrorEnvelopeGuess.identity(itemSchema) }) {
            return same.key
        }
        return arrays.first { ResourceFinder.arrayNames.contains($0.key) }?.key ?? arrays.first?.key
    }

    /// The objects in the list answer's examples.
    func listExamples(_ list: OpenAPIDocument.Operation, shape: RestResource.ListShape) -> [JSONValue] {
        guard let response = ResourceFinder.success(list) else { return [] }
        return response.examples.compactMap(\.value).flatMap { value -> [JSONValue] in
            if let objects = ResourceFinder.objects(in: value) { return objects }
            guard case .object(let members) = value else { return [] }
            if case .envelope(let property, _) = shape, let held = value[property] { return ResourceFinder.objects(in: held) ?? [] }
            return members.lazy.compactMap { ResourceFinder.objects(in: $0.value) }.first ?? []
        }
    }

    /// The objects of a non-empty array of objects; nil for anything else.
    static func objects(in value: JSONValue) -> [JSONValue]? {
        guard case .array(let items) = value, !items.isEmpty else { return nil }
        let objects = items.filter { if case .object = $0 { true } else { false } }
        return objects.isEmpty ? nil : objects
    }

    /// A schema naming the fields of an example object and their types (nested objects' too).
    static func schema(describing example: JSONValue) -> JSONValue {
        guard case .object(let members) = example else { return .object([]) }
        let properties: [(key: String, value: JSONValue)] = members.map { key, value in
            let type: String? = switch value {
            case .number: value.wholeNumber(in: Int.min...Int.max) != nil ? "integer" : "number"
            case .string: "string"
            case .bool: "boolean"
            case .array: "array"
            case .object: nil
            case .null: nil
            }
            if case .object = value { return (key, schema(describing: value)) }
            return (key, .object(type.map { [("type", .string($0))] } ?? []))
        }
        return .object([("type", .string("object")), ("properties", .object(properties))])
    }

    /// `an integer`, `a string`, `an array`…
    static func kind(_ type: String?) -> String {
        guard let type else { return "nothing said" }
        return (["a", "e", "i", "o", "u"].contains(type.prefix(1)) ? "an " : "a ") + type
    }
}
