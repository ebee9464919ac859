/// A collection's six answers over the store: every change is one compare-and-set, so objects
/// created or patched at once on several replicas are all kept.
extension StubMemory {
    /// The answer of a collection route to one request; `change` says what it changed, for the
    /// journal. `tries` counts the times another request changed the object first (it is read
    /// and changed again, up to `limits.retries`).
    func answer(_ action: CollectionAction, _ spec: CollectionSpec, _ view: inout RequestView, memory: MemoryView,
                envelope: ErrorEnvelope?, tries: Int = 0) throws(MemoryError) -> (reply: Reply, change: String?) {
        guard tries < limits.retries else { throw MemoryError("the object changed under \(tries) tries in a row; try again") }
        let scope = memory.scope
        let parents = spec.parents.map { ($0, view.parameter($0) ?? "") }
        if action == .list { return (try list(spec, &view, scope: scope, parents: parents), nil) }
        if action == .create { return try create(spec, &view, memory: memory, parents: parents, envelope: envelope, tries: tries) }
        let key = view.parameter(spec.idParameter) ?? ""
        guard let current = try object(key, spec, scope: scope), belongs(current, to: parents) else {
            return (refusal(404, "Not found", "no \(spec.idField) \(key) in \(spec.path)", envelope), nil)
        }
        switch action {
        case .get:
            return (Reply(status: 200, headers: StubMemory.jsonHeaders, body: Array(current.json.utf8)), nil)
        case .delete:
            let outcome = try commitWrite(spec, scope: scope, FieldWrite(key: key, expected: current, new: nil))
            if outcome != .done { return try answer(action, spec, &view, memory: memory, envelope: envelope, tries: tries + 1) }
            return (Reply(status: 204), "\(spec.id) \(key) deleted")
        default:
            guard let body = requestObject(&view) else {
                return (refusal(400, "Bad request", "expected a JSON object as the body", envelope), nil)
            }
            var next = action == .update ? JSONMergePatch.apply(body, to: current.decoded ?? .null) : body
            next = stamped(next, spec.idField, current.decoded?[spec.idField] ?? .string(key), parents: parents)
            let field = StoredField(order: current.order, value: next)
            let outcome = try commitWrite(spec, scope: scope, FieldWrite(key: key, expected: current, new: field))
            // Changed by another request meanwhile: the patch is applied again to what is there now.
            if outcome != .done { return try answer(action, spec, &view, memory: memory, envelope: envelope, tries: tries + 1) }
            return (Reply(status: 200, headers: StubMemory.jsonHeaders, body: Array(field.json.utf8)),
                    "\(spec.id) \(key) \(action == .update ? "updated" : "replaced")")
        }
    }

    /// POST: the object with its id (given, else generated), 201 with `Location`.
    private func create(_ spec: CollectionSpec, _ view: inout RequestView, memory: MemoryView, parents: [(String, String)],
                        envelope: ErrorEnvelope?, tries: Int) throws(MemoryError) -> (reply: Reply, change: String?) {
        let scope = memory.scope
        if view.head.body.count > limits.maxObjectBytes {
            return (refusal(413, "Object too large", "the bound is \(limits.maxObjectBytes) bytes", envelope), nil)
        }
        guard let body = requestObject(&view) else {
            return (refusal(400, "Bad request", "expected a JSON object as the body", envelope), nil)
        }
        let given = body[spec.idField].flatMap(CollectionSpec.key)
        if body[spec.idField] != nil && given == nil {
            return (refusal(400, "Bad request", "expected \(spec.idField) to be a string or a whole number", envelope), nil)
        }
        let order = try store.nextNumber(spec.space, scope: scope, floor: max(spec.seedMaxID, spec.seedInOrder.count))
        let key = given ?? (spec.ids == .integer ? String(order) : memory.uuid())
        let idValue: JSONValue = given == nil ? (spec.ids == .integer ? .number(Double(order)) : .string(key)) : body[spec.idField]!
        let field = StoredField(order: order, value: stamped(body, spec.idField, idValue, parents: parents))
        switch try commit([FieldWrite(key: key, expected: nil, new: field)], to: spec.space, scope: scope, seed: spec.seed, limit: limits.maxObjects) {
        case .done: break
        case .full:
            return (refusal(409, "Collection full", "\(spec.path) holds \(limits.maxObjects) objects, the bound (--max-collection-objects)", envelope), nil)
        case .conflict, .needsSeed:
            // A given id that exists is the client's conflict; a generated one is taken again.
            if given != nil { return (refusal(409, "Conflict", "\(spec.idField) \(key) exists in \(spec.path)", envelope), nil) }
            return try answer(.create, spec, &view, memory: memory, envelope: envelope, tries: tries + 1)
        }
        var base = view.head.path
        if base.hasSuffix("/") { base.removeLast() }
        let location = base + "/" + key.percentEncodedComponent()
        return (Reply(status: 201, headers: StubMemory.jsonHeaders + [HTTPHeader("Location", location)], body: Array(field.json.utf8)),
                "\(spec.id) \(key) created")
    }

    /// One object by id: what requests stored, else the seed's.
    package func object(_ key: String, _ spec: CollectionSpec, scope: Scope) throws(MemoryError) -> StoredField? {
        switch try store.field(key, of: spec.space, scope: scope) {
        case .unwritten: return spec.seed[key]
        case .absent: return nil
        case .value(let field): return field
        }
    }

    /// Every object, in the order each was first stored.
    package func objects(_ spec: CollectionSpec, scope: Scope) throws(MemoryError) -> [StoredField] {
        try store.ordered(spec.space, scope: scope) ?? spec.seedInOrder
    }

    /// Puts a collection's seed back in a scope (the admin API).
    package func resetObjects(_ spec: CollectionSpec, scope: Scope) throws(MemoryError) {
        try store.reset(scope, space: spec.space)
    }

    /// Replaces a collection's objects in a scope (the admin API); objects without an id are refused.
    package func replaceObjects(_ objects: [JSONValue], _ spec: CollectionSpec, scope: Scope) throws(MemoryError) -> String? {
        var fields: [String: StoredField] = [:]
        for (i, object) in objects.enumerated() {
            guard case .object = object, let key = object[spec.idField].flatMap(CollectionSpec.key) else {
                return "[\(i)]: expected an object with \(spec.idField) (a string or a whole number)"
            }
            guard fields[key] == nil else { return "[\(i)]: \(spec.idField) \(key) is given twice" }
            fields[key] = StoredField(order: i + 1, value: object)
        }
        try store.reset(scope, space: spec.space)
        _ = try store.commit([], to: spec.space, scope: scope, seed: fields, limit: nil)
        // New ids and places follow the largest given, not the seed's.
        let largest = max(fields.keys.compactMap { Int($0) }.max() ?? 0, fields.count)
        if largest > 1 { _ = try store.nextNumber(spec.space, scope: scope, floor: largest - 1) }
        return nil
    }

    private func commitWrite(_ spec: CollectionSpec, scope: Scope, _ write: FieldWrite) throws(MemoryError) -> CommitOutcome {
        try commit([write], to: spec.space, scope: scope, seed: spec.seed)
    }

    /// The body as a JSON object, or nil.
    private func requestObject(_ view: inout RequestView) -> JSONValue? {
        guard let value = view.bodyValue(at: []), case .object = value else { return nil }
        return value
    }

    /// True when the object's parent fields are the path's (a nested collection's scope).
    private func belongs(_ field: StoredField, to parents: [(String, String)]) -> Bool {
        guard !parents.isEmpty, let object = field.decoded else { return true }
        return parents.allSatisfy { object[$0.0]?.scalarText == $0.1 }
    }

    /// `object` with its id and parent fields set.
    private func stamped(_ object: JSONValue, _ idField: String, _ id: JSONValue, parents: [(String, String)]) -> JSONValue {
        guard case .object(var members) = object else { return object }
        func put(_ key: String, _ value: JSONValue) {
            if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value } else { members.insert((key, value), at: 0) }
        }
        for (name, value) in parents.reversed() where members.first(where: { $0.key == name })?.value.scalarText != value {
            put(name, Int(value).map { .number(Double($0)) } ?? .string(value))
        }
        put(idField, id)
        return .object(members)
    }

    /// An error in the service's envelope, else stubd's own shape.
    func refusal(_ status: Int, _ title: String, _ message: String, _ envelope: ErrorEnvelope?) -> Reply {
        guard let envelope else { return Reply.error(status, message) }
        let values = ["title": title, "message": message, "code": title.lowercased().split(separator: " ").joined(separator: "_"), "status": String(status)]
        return Reply.json(status, envelope.render(values, status: status))
    }

    static let jsonHeaders = [HTTPHeader("Content-Type", "application/json; charset=utf-8")]
}
