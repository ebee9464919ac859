import StubCore
import StubSchema

/// `stubd check DIR --openapi SPEC`: every route matched to an operation (method and full path,
/// templates compared by position), every JSON variant body validated against the response
/// schema for its status; routes without an operation, undocumented statuses and operations
/// without a route are warnings (errors with `--strict`). A body that is the document's own
/// example and breaks the document's own schema is the document's problem: it is reported as
/// such, apart from drift.
package struct DriftCheck {
    /// Problems, one line each: `app/user/200.json: $.data.email: expected string (format email), found 42 (GET /users/{id} → 200)`.
    package var problems: [String] = []
    /// Warnings, one line each.
    package var warnings: [String] = []
    /// Bodies that are the document's own examples and do not fit its own schemas, one line each.
    package var documentExamples: [String] = []

    /// Checks `catalog` against `document`.
    package init(catalog: StubCatalog, document: OpenAPIDocument) {
        let compiler = document.compiler()
        var used = Set<String>()
        var matched: [(route: Route, operation: OpenAPIDocument.Operation)] = []
        // GraphQL operation routes share one endpoint; an OpenAPI document does not describe them.
        for route in catalog.routes where route.operation == nil {
            guard let operation = document.operation(method: route.method, fullPath: route.fullPath) else {
                warnings.append("\(route.id)/route.json: \(route.method) \(route.fullPath) has no operation in \(document.file)")
                continue
            }
            used.insert(operation.pointer)
            matched.append((route, operation))
            for variant in route.variants where variant.fault == nil && variant.stream == nil {
                check(variant, route: route, operation: operation, document: document, compiler: compiler)
            }
        }
        for operation in document.operations where !used.contains(operation.pointer) && !DriftCheck.folded(operation, into: matched) {
            let id = operation.operationID.map { " (\($0))" } ?? ""
            warnings.append("\(document.file): \(operation.method) \(document.basePath)\(operation.path)\(id) has no route")
        }
        warnings += compiler.warnings.map { "\(document.file): \($0)" }
    }

    /// True for an operation whose path key carries a query (`/items?beta=true`) that a route
    /// of the same method and path serves as a variant chosen by that query, as `import-openapi`
    /// writes it.
    static func folded(_ operation: OpenAPIDocument.Operation, into matched: [(route: Route, operation: OpenAPIDocument.Operation)]) -> Bool {
        guard !operation.query.isEmpty else { return false }
        let shape = OpenAPIDocument.shape(operation.path)
        return matched.contains { route, served in
            route.method == operation.method && OpenAPIDocument.shape(served.path) == shape && route.variants.contains { variant in
                operation.query.allSatisfy { variant.condition?.query[$0.name] == $0.value }
            }
        }
    }

    private mutating func check(_ variant: Variant, route: Route, operation: OpenAPIDocument.Operation, document: OpenAPIDocument, compiler: SchemaCompiler) {
        let source = variant.bodySource ?? "\(route.id)/route.json: variants.\(variant.name)"
        guard let response = document.response(operation, status: variant.status) else {
            warnings.append("\(source): status \(variant.status) is not documented for \(operation.name)")
            return
        }
        let type = variant.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        guard let schema = response.schema, OpenAPIDocument.BodyKind(mediaType: type) == .json, !variant.body.isEmpty, variant.template == nil,
              let body = try? JSONParser.parse(variant.body) else { return }
        let found = compiler.compile(schema, location: "\(operation.pointer)/responses/\(response.status)").validate(body)
        guard !found.isEmpty else { return }
        if let example = response.examples.first(where: { $0.value.map { JSONEquality.same($0, body) } ?? false }) {
            for problem in found {
                documentExamples.append("\(source): \(problem) (the document's own example at \(example.pointer) does not fit its schema)")
            }
            return
        }
        for problem in found { problems.append("\(source): \(problem) (\(operation.name) → \(response.status))") }
    }
}
