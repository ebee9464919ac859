import StubCore

/// Finds the error shape a document's 4xx and 5xx responses share and makes it a stubd
/// `errorEnvelope`: the shared schema (the same `$ref`, or the same inline schema, on two or more
/// error responses) with a string field for a title and/or a message, at the top or one object
/// down (`{"error": {"message": …}}`), which become `{{title}}` and `{{message}}`.
struct ErrorEnvelopeGuess {
    /// The `errorEnvelope` JSON, or nil when the document has no such shared schema.
    let template: JSONValue?
    private let key: String?

    static let titleNames = ["title", "error", "code", "type", "name"]
    static let messageNames = ["message", "detail", "description", "error_description", "reason", "msg"]

    init(document: OpenAPIDocument, synthesizer: SchemaSynthesizer) {
        var counts: [String: (count: Int, schema: JSONValue)] = [:]
        for operation in document.operations {
            for response in operation.responses where response.remoteRefs.isEmpty && (response.status.hasPrefix("4") || response.status.hasPrefix("5") || response.status == "default") {
                guard let schema = response.schema else { continue }
                let k = ErrorEnvelopeGuess.identity(schema)
                counts[k, default: (0, schema)].count += 1
            }
        }
        guard let best = counts.filter({ $0.value.count >= 2 }).max(by: { $0.value.count < $1.value.count }),
              let resolved = document.dereferenced(best.value.schema) else {
            (template, key) = (nil, nil)
            return
        }
        var filled = SchemaSynthesizer(document: document, allKeys: true).value(resolved)
        let found = ErrorEnvelopeGuess.placeVariables(in: &filled, schema: resolved, document: document, depth: 0)
        (template, key) = found ? (filled, best.key) : (nil, nil)
    }

    /// True when `schema` is the shared error schema.
    func matches(_ schema: JSONValue?) -> Bool {
        guard let schema, let key else { return false }
        return ErrorEnvelopeGuess.identity(schema) == key
    }

    static func identity(_ schema: JSONValue) -> String {
        schema["$ref"]?.scalarText ?? schema.serialized()
    }

    /// Puts `{{title}}` and `{{message}}` where the schema has string fields for them.
    static func placeVariables(in value: inout JSONValue, schema: JSONValue, document: OpenAPIDocument, depth: Int) -> Bool {
        guard case .object(var members) = value, case .object(let properties)? = schema["properties"] else { return false }
        func isString(_ name: String) -> Bool {
            guard let p = properties.first(where: { $0.key == name })?.value, let resolved = document.dereferenced(p) else { return false }
            return SchemaSynthesizer.type(of: resolved) == "string" && resolved["enum"] == nil
        }
        let titleField = titleNames.first(where: isString)
        let messageField = messageNames.first { isString($0) && $0 != titleField }
        for (field, variable) in [(titleField, "{{title}}"), (messageField, "{{message}}")] {
            guard let field else { continue }
            if let i = members.firstIndex(where: { $0.key == field }) { members[i].value = .string(variable) } else { members.append((field, .string(variable))) }
        }
        var placed = titleField != nil || messageField != nil
        if !placed, depth == 0 {
            for (name, property) in properties {
                guard let nested = document.dereferenced(property), SchemaSynthesizer.type(of: nested) == "object",
                      let i = members.firstIndex(where: { $0.key == name }) else { continue }
                var inner = members[i].value
                if placeVariables(in: &inner, schema: nested, document: document, depth: 1) {
                    members[i].value = inner
                    placed = true
                    break
                }
            }
        }
        value = .object(members)
        return placed
    }
}
