import StubCore

/// Swagger 2.0's forms, read as OpenAPI 3's.
extension OperationReader {
    /// The keywords of a Swagger parameter or header that are its schema.
    static let schemaKeys: Set<String> = ["type", "format", "items", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                                          "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf", "default",
                                          "x-nullable"]

    /// A non-body parameter's schema: its own schema keywords (`type: file` read as a string).
    static func swaggerSchema(of parameter: JSONValue) -> JSONValue {
        guard case .object(let members) = parameter else { return .object([]) }
        return .object(members.compactMap { key, value in
            guard schemaKeys.contains(key) else { return nil }
            if key == "type", value == .string("file") { return (key, .string("string")) }
            if key == "items" { return (key, swaggerSchema(of: value)) }
            return (key, value)
        })
    }

    /// `consumes` of the operation, else of the document, else JSON.
    func mediaTypes(_ key: String, of op: JSONValue) -> [String] {
        for holder in [op, root] {
            if case .array(let list)? = holder[key] {
                let types = list.compactMap(\.scalarText)
                if !types.isEmpty { return types }
            }
        }
        return ["application/json"]
    }

    /// The body (`in: body`) or the form fields (`in: formData`) as request bodies per media type.
    func swaggerBodies(_ op: JSONValue, parameters: JSONValue?, shared: JSONValue?) -> ([OpenAPIDocument.RequestBody], Bool) {
        var raw: [JSONValue] = []
        for list in [parameters, shared] {
            if case .array(let items)? = list { raw += items.compactMap { OpenAPIDocument.deref($0, files: files) } }
        }
        let consumes = mediaTypes("consumes", of: op)
        if let body = raw.first(where: { $0["in"]?.scalarText == "body" }) {
            let schema = body["schema"] ?? .object([])
            return (consumes.map { OpenAPIDocument.RequestBody(mediaType: $0, schema: schema) }, body["required"] == .bool(true))
        }
        let fields = raw.filter { $0["in"]?.scalarText == "formData" }
        guard !fields.isEmpty else { return ([], false) }
        var properties: [(key: String, value: JSONValue)] = []
        var required: [JSONValue] = []
        for field in fields {
            guard let name = field["name"]?.scalarText, !properties.contains(where: { $0.key == name }) else { continue }
            properties.append((name, OperationReader.swaggerSchema(of: field)))
            if field["required"] == .bool(true) { required.append(.string(name)) }
        }
        let schema: JSONValue = .object([("type", .string("object")), ("properties", .object(properties)), ("required", .array(required))])
        var types = consumes.filter { OpenAPIDocument.BodyKind(mediaType: $0) == .form || OpenAPIDocument.BodyKind(mediaType: $0) == .multipart }
        if types.isEmpty { types = ["application/x-www-form-urlencoded"] }
        return (types.map { OpenAPIDocument.RequestBody(mediaType: $0, schema: schema) }, !required.isEmpty)
    }

    /// A response's `schema` and `examples` (keyed by media type). When `produces` has no JSON
    /// type, the body is of its first type: a JSON stream (`application/x-json-stream`, Nakadi's
    /// events) is written from the schema as JSON, sent with that type; anything else (`image/png`,
    /// `application/octet-stream`) as a body of its type, as for an OpenAPI 3 response.
    func swaggerResponse(_ status: String, _ response: JSONValue, op: JSONValue, pointer: String) -> OpenAPIDocument.Response {
        let produces = mediaTypes("produces", of: op)
        let json = produces.first { OpenAPIDocument.BodyKind(mediaType: $0) == .json }
            ?? produces.first { MediaBody.base($0).contains("json") }
        if json == nil, let other = produces.first, response["schema"] != nil || response["examples"] != nil {
            var read = OpenAPIDocument.Response(status: status, description: response["description"]?.scalarText ?? "", mediaType: nil,
                                                schema: nil, examples: [])
            read.otherMediaType = other
            if case .string(let text)? = response["examples"]?[other] { read.otherExample = text }
            return read
        }
        var examples: [OpenAPIDocument.Example] = []
        if case .object(let byType)? = response["examples"] {
            for (type, value) in byType where OpenAPIDocument.BodyKind(mediaType: type) == .json {
                examples.append(example(value, at: pointer + "/examples/" + SpecFiles.escape(type)))
            }
        }
        let schema = response["schema"]
        return OpenAPIDocument.Response(status: status, description: response["description"]?.scalarText ?? "",
                                        mediaType: schema != nil || !examples.isEmpty ? (json ?? "application/json") : nil, schema: schema, examples: examples)
    }
}
