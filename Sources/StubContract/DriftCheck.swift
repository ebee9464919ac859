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
        // Operations that share a method and path, told apart by a query or fragment in their key.
        var siblings: [String: [OpenAPIDocument.Operation]] = [:]
        for operation in document.operations where !(operation.query.isEmpty && operation.fragment == nil) {
            siblings[OpenAPIDocument.shapeKey(operation.method, document.basePath + operation.path), default: []].append(operation)
        }
        // GraphQL operation routes share one endpoint; an OpenAPI document does not describe them.
        for route in catalog.routes where route.operation == nil {
            guard let operation = document.operation(method: route.method, fullPath: route.fullPath) else {
                warnings.append("\(route.id)/route.json: \(route.method) \(route.fullPath) has no operation in \(document.file)")
                continue
            }
            used.insert(operation.pointer)
            let others = siblings[OpenAPIDocument.shapeKey(operation.method, document.basePath + operation.path)] ?? []
            for variant in route.variants {
                let own = DriftCheck.operation(of: variant, among: others) ?? operation
                used.insert(own.pointer)
                if variant.fault == nil && variant.stream == nil { check(variant, route: route, operation: own, document: document, compiler: compiler) }
            }
        }
        for operation in document.operations where !used.contains(operation.pointer) {
            let id = operation.operationID.map { " (\($0))" } ?? ""
            let remote = (operation.remoteRefs + operation.responses.flatMap(\.remoteRefs)).first.map { " (it uses \($0))" } ?? ""
            warnings.append("\(document.file): \(operation.method) \(document.basePath)\(operation.path)\(id) has no route\(remote)")
        }
        warnings += compiler.warnings.map { "\(document.file): \($0)" }
    }

    /// The operation of a path key with a query or fragment that `variant` stands for, as
    /// `import-openapi` writes them: chosen by `when` on that query (`/items?beta=true`), or
    /// named after the fragment (`200-classifications` for `/schema#classifications`).
    static func operation(of variant: Variant, among others: [OpenAPIDocument.Operation]) -> OpenAPIDocument.Operation? {
        others.first { other in
            if !other.query.isEmpty {
                return other.query.allSatisfy { variant.condition?.query[$0.name] == $0.value }
            }
            guard let fragment = other.fragment else { return false }
            let tag = "-" + OpenAPIImporter.slug(fragment).lowercased()
            return variant.name.hasSuffix(tag) || variant.name.contains(tag + "-")
        }
    }

    /// True when `contentType` is one of `documented` (parameters ignored; `*/*` and `image/*` cover their kind).
    static func documents(_ documented: [String], _ contentType: String) -> Bool {
        let type = MediaBody.base(contentType)
        return documented.map(MediaBody.base).contains { listed in
            listed == type || listed == "*/*" || (listed.hasSuffix("/*") && type.hasPrefix(listed.dropLast()))
        }
    }

    private mutating func check(_ variant: Variant, route: Route, operation: OpenAPIDocument.Operation, document: OpenAPIDocument, compiler: SchemaCompiler) {
        let source = variant.bodySource ?? "\(route.id)/route.json: variants.\(variant.name)"
        guard let response = document.response(operation, status: variant.status) else {
            warnings.append("\(source): status \(variant.status) is not documented for \(operation.name)")
            return
        }
        if let remote = response.remoteRefs.first {
            // Its schema cannot be read whole: the body is not checked, and that is said.
            warnings.append("\(source): not checked against \(operation.name) → \(response.status): it uses \(remote)")
            return
        }
        let type = variant.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        if !variant.body.isEmpty, !type.isEmpty, !response.mediaTypes.isEmpty, !DriftCheck.documents(response.mediaTypes, type) {
            warnings.append("\(source): Content-Type \(type) is not documented for \(operation.name) → \(response.status); expected "
                            + response.mediaTypes.joined(separator: " or "))
        }
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
