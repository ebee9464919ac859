import StubCore

/// Finds the REST resources among a document's operations, for `import-openapi --collections`.
/// Every path whose last segment is literal and that has an item path beside it (`/pets` and
/// `/pets/{petId}`, `/users/{userId}/posts` and `/users/{userId}/posts/{postId}`) is a
/// candidate; one a collection can answer for becomes a resource, any other is named with the
/// reason and stays routes.
struct ResourceFinder {
    /// Why a candidate is not a resource.
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The resources, in document order.
    private(set) var resources: [RestResource] = []
    /// `/pets and /pets/{petId}: no GET on /pets/{petId}; imported as routes`: the candidates
    /// left as routes, one line each.
    private(set) var rejected: [String] = []
    let document: OpenAPIDocument
    let synthesizer: SchemaSynthesizer
    private let groups: [[OpenAPIDocument.Operation]]
    /// Group indices by method and path shape (`GET pets/{}`), as the importer groups them.
    private var byKey: [String: Int] = [:]

    /// Looks at `groups`, the importer's operation groups.
    init(groups: [[OpenAPIDocument.Operation]], document: OpenAPIDocument, synthesizer: SchemaSynthesizer) {
        self.groups = groups
        self.document = document
        self.synthesizer = synthesizer
        var shapes: [String] = []
        var paths: [String: String] = [:]
        for (i, group) in groups.enumerated() {
            let shape = OpenAPIDocument.shape(group[0].path).joined(separator: "/")
            byKey[group[0].method + " " + shape] = i
            if paths[shape] == nil {
                paths[shape] = group[0].path
                shapes.append(shape)
            }
        }
        for shape in shapes {
            guard let path = paths[shape], case .literal? = PathTemplate(path).segments.last, let itemPath = paths[shape + "/{}"] else { continue }
            do throws(Refusal) {
                resources.append(try candidate(shape, path: path, itemPath: itemPath))
            } catch {
                rejected.append("\(path) and \(itemPath): \(error.reason); imported as routes")
            }
        }
    }

    /// The resource at `path` and `itemPath`, or why a collection cannot stand for them.
    private func candidate(_ shape: String, path: String, itemPath: String) throws(Refusal) -> RestResource {
        let itemShape = shape + "/{}"
        let list = try operation("GET", shape), create = try operation("POST", shape)
        let get = try operation("GET", itemShape), replace = try operation("PUT", itemShape)
        let update = try operation("PATCH", itemShape), delete = try operation("DELETE", itemShape)
        guard list != nil || create != nil else { throw Refusal("no GET (list) or POST (create) on \(path)") }
        guard let get else { throw Refusal("no GET on \(itemPath)") }
        guard replace != nil || update != nil || delete != nil else {
            // Stripe's way: POST to the item updates it.
            let post = byKey["POST " + itemShape] == nil ? "" : " (POST updates it, and a collection updates with PUT or PATCH)"
            throw Refusal("no PUT, PATCH or DELETE on \(itemPath)\(post)")
        }
        for (_, op) in [create, replace, update].compactMap({ $0 }) where !op.requestBodies.isEmpty && !op.requestBodies.contains(where: { $0.kind == .json }) {
            let types = op.requestBodies.map(\.mediaType).joined(separator: ", ")
            throw Refusal("\(op.method) \(op.path) takes \(types) bodies, and a collection reads JSON ones")
        }
        let item = try itemObject(get.op, itemPath: itemPath)
        let parameter = PathTemplate(get.op.path).parameterNames.last ?? ""
        let id = try idField(item.flat, parameter: parameter, itemPath: itemPath)
        var listShape = RestResource.ListShape.array
        var examples: [JSONValue] = []
        if let list {
            listShape = try self.listShape(list.op, itemSchema: item.schema)
            examples = listExamples(list.op, shape: listShape)
        }
        examples += item.examples
        let ids = try idKind(item.flat, id: id, examples: examples)
        let indices = [list, create, get, replace, update, delete].compactMap { $0?.index }
        return RestResource(path: (list ?? create)?.op.path ?? path, itemPath: get.op.path, list: list?.op, create: create?.op, get: get.op,
                            replace: replace?.op, update: update?.op, delete: delete?.op, groups: indices, id: id, ids: ids,
                            itemSchema: item.schema, itemPointer: item.pointer, listShape: listShape, examples: examples)
    }

    /// The one operation of `method` on the path of `shape`, if the document has it; a group of
    /// several (told apart by a query or fragment in their path keys) is refused.
    private func operation(_ method: String, _ shape: String) throws(Refusal) -> (index: Int, op: OpenAPIDocument.Operation)? {
        guard let i = byKey[method + " " + shape] else { return nil }
        let group = groups[i]
        guard group.count == 1, group[0].query.isEmpty, group[0].fragment == nil else {
            throw Refusal("\(group.map(\.name).joined(separator: ", ")): operations told apart by a query or fragment in the path key, which a collection cannot tell apart")
        }
        return (i, group[0])
    }

    /// The lowest 2xx response (a lone `default` counts as 200).
    static func success(_ operation: OpenAPIDocument.Operation) -> OpenAPIDocument.Response? {
        operation.responses
            .compactMap { r in OpenAPIImporter.status(r.status, others: operation.responses.count).map { (status: $0, response: r) } }
            .filter { (200...299).contains($0.status) }
            .min { $0.status < $1.status }?.response
    }

    /// `schema` resolved and its `allOf` merged; nil for none, or a ref that leads nowhere.
    func flat(_ schema: JSONValue?) -> JSONValue? { synthesizer.resolvedFlat(schema) }

    /// The schema's type when it says one (`integer`, `string`, `object`…), else nil.
    func declaredType(_ flat: JSONValue?) -> String? { SchemaSynthesizer.declaredType(flat) }
}
