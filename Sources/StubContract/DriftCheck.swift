import StubCore

/// `stubd check DIR --openapi SPEC`: every route matched to an operation (method and full path,
/// templates compared by position), every JSON variant body validated against the response
/// schema for its status; routes without an operation, undocumented statuses and operations
/// without a route are warnings (errors with `--strict`).
public struct DriftCheck: Sendable {
    /// Problems, one line each: `app/user/200.json: $.data.email: expected string (format email), found 42 (GET /users/{id} → 200)`.
    public var problems: [String] = []
    /// Warnings, one line each.
    public var warnings: [String] = []

    /// Checks `catalog` against `document`.
    public init(catalog: StubCatalog, document: OpenAPIDocument) {
        let validator = document.validator
        var used = Set<String>()
        for route in catalog.routes {
            guard let operation = document.operation(method: route.method, fullPath: route.fullPath) else {
                warnings.append("\(route.id)/route.json: \(route.method) \(route.fullPath) has no operation in \(document.file)")
                continue
            }
            used.insert(operation.name)
            for variant in route.variants where variant.fault == nil && variant.stream == nil {
                check(variant, route: route, operation: operation, document: document, validator: validator)
            }
        }
        for operation in document.operations where !used.contains(operation.name) {
            let id = operation.operationID.map { " (\($0))" } ?? ""
            warnings.append("\(document.file): \(operation.method) \(document.basePath)\(operation.path)\(id) has no route")
        }
    }

    private mutating func check(_ variant: Variant, route: Route, operation: OpenAPIDocument.Operation, document: OpenAPIDocument, validator: SchemaValidator) {
        let source = variant.bodySource ?? "\(route.id)/route.json: variants.\(variant.name)"
        guard let response = document.response(operation, status: variant.status) else {
            warnings.append("\(source): status \(variant.status) is not documented for \(operation.name)")
            return
        }
        let type = variant.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        guard let schema = response.schema, type.contains("json"), !variant.body.isEmpty, variant.template == nil else { return }
        guard let body = try? JSONParser.parse(variant.body) else { return }
        for problem in validator.validate(body, against: schema) {
            problems.append("\(source): \(problem) (\(operation.name) → \(response.status))")
        }
    }
}
