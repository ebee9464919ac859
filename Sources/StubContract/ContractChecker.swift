import StubCore

/// Checks each request to a stubbed route against its operation (`serve --openapi`): path
/// parameters, required query parameters and headers, and a JSON or form body against the
/// request body schema. Values from the path, query and headers are read as the schema's type
/// (`"7"` as the integer 7) before they are validated.
package final class ContractChecker: RequestContract {
    let document: OpenAPIDocument
    package let enforces: Bool
    private let validator: SchemaValidator
    /// The operation of each route (by method and full path), found once.
    private let operations = Locked<[String: Int]>([:])

    /// A checker for `document`; `enforces` answers violations with 400 or 422.
    package init(document: OpenAPIDocument, enforces: Bool) {
        self.document = document
        self.enforces = enforces
        validator = document.validator
    }

    package func violations(of request: any RequestHead, route: Route) -> [ContractViolation]? {
        guard let operation = operation(for: route) else { return nil }
        var found: [ContractViolation] = []
        let specSegments = (document.basePath + operation.path).split(separator: "/")
        let routeSegments = route.fullPath.split(separator: "/")
        for parameter in operation.parameters {
            let location = "$.\(parameter.location).\(parameter.name)"
            let raw: String?
            switch parameter.location {
            case "path":
                // Templates are compared by position: the route may name the parameter otherwise.
                guard let index = specSegments.firstIndex(of: Substring("{\(parameter.name)}")), index < routeSegments.count else { continue }
                let name = routeSegments[index].dropFirst().dropLast()
                raw = route.template.value(of: String(name), in: request.path)
            case "query": raw = request.queryValue(parameter.name)
            case "header": raw = request.header(parameter.name)
            default: continue
            }
            guard let raw else {
                if parameter.required { found.append(ContractViolation(location: location, problem: "missing required \(parameter.location == "header" ? "header" : "\(parameter.location) parameter")")) }
                continue
            }
            guard let schema = parameter.schema else { continue }
            for problem in validator.validate(ContractChecker.typed(raw, schema: document.dereferenced(schema) ?? schema), against: schema, at: location) {
                found.append(ContractViolation(location: problem.path, problem: problem.message))
            }
        }
        if let body = operation.requestBody { found += bodyViolations(request, body) }
        return found
    }

    private func bodyViolations(_ request: any RequestHead, _ body: (schema: JSONValue, required: Bool, form: Bool)) -> [ContractViolation] {
        guard !request.body.isEmpty else {
            return body.required ? [ContractViolation(location: "$.body", problem: "missing request body")] : []
        }
        let instance: JSONValue
        if body.form {
            let fields = BodyFields.parse(request.body, contentType: "application/x-www-form-urlencoded")
            let properties = document.dereferenced(body.schema)?["properties"]
            instance = .object(fields.sorted { $0.key < $1.key }.map { key, value in
                (key, ContractChecker.typed(value, schema: document.dereferenced(properties?[key]) ?? .object([])))
            })
        } else {
            do { instance = try JSONParser.parse(request.body) } catch {
                return [ContractViolation(location: "$.body", problem: "not valid JSON: \(error.message) (line \(error.line))")]
            }
        }
        return validator.validate(instance, against: body.schema, at: "$.body").map { ContractViolation(location: $0.path, problem: $0.message) }
    }

    private func operation(for route: Route) -> OpenAPIDocument.Operation? {
        let key = route.method + " " + route.fullPath
        if let index = operations.withLock({ $0[key] }) { return index >= 0 ? document.operations[index] : nil }
        let found = document.operation(method: route.method, fullPath: route.fullPath)
        let index = found.flatMap { op in document.operations.firstIndex { $0.method == op.method && $0.path == op.path } } ?? -1
        operations.withLock { $0[key] = index }
        return found
    }

    /// A path, query or header value as the schema's type: integers, numbers and booleans parsed,
    /// arrays split on commas; anything that does not parse stays a string (and fails the type).
    static func typed(_ text: String, schema: JSONValue) -> JSONValue {
        switch SchemaSynthesizer.type(of: schema) {
        case "integer", "number": return Double(text).map { .number($0) } ?? .string(text)
        case "boolean": return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case "array": return .array(text.split(separator: ",").map { typed(String($0), schema: schema["items"] ?? .object([])) })
        default: return .string(text)
        }
    }
}
