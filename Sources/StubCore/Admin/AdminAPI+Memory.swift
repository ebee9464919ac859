/// State values and collections through the admin API, in the caller's scope (the session
/// header or prefix, else the global one): read them, replace them, put the seeds back.
extension AdminAPI {
    static let memoryEndpoints = [
        "GET /__stubd/state", "PUT /__stubd/state", "DELETE /__stubd/state", "PUT /__stubd/seed",
        "GET /__stubd/collections", "GET /__stubd/collections/{collection}", "PUT /__stubd/collections/{collection}",
        "DELETE /__stubd/collections/{collection}",
    ]

    /// `/__stubd/state`, `/__stubd/seed` and `/__stubd/collections…`; nil for other paths.
    func memory(_ request: StubRequest, parts: [String], session: String?) -> Reply? {
        let scope = Scope(session), memory = control.memory, catalog = host.currentCatalog
        do {
            switch (parts.first, parts.count) {
            case ("state", 1):
                switch request.method {
                case "GET": return try .json(200, .object([("state", state(catalog, scope: scope)), ("session", session.map(JSONValue.string) ?? .null)]))
                case "PUT":
                    guard case .object(let services)? = try? JSONParser.parse(request.body) else {
                        return .error(400, "expected an object of service name to an object of state values", [("example", .string("{\"app\": {\"loggedIn\": true}}"))])
                    }
                    let known = catalog.memory.services(routes: catalog.routes)
                    for (service, values) in services {
                        guard known.contains(service) else {
                            return .error(404, "no service with state", [("service", .string(service)), ("services", .array(known.map(JSONValue.string)))])
                        }
                        guard case .object(let members) = values else { return .error(400, "expected an object of state values for \"\(service)\"") }
                        try memory.replaceState(members, service: service, scope: scope)
                    }
                    return try .json(200, .object([("state", state(catalog, scope: scope))]))
                case "DELETE":
                    try memory.reset(scope)
                    return try .json(200, .object([("state", state(catalog, scope: scope)), ("reset", .bool(true))]))
                default: return notAllowed(["GET", "PUT", "DELETE"])
                }
            case ("seed", 1):
                guard request.method == "PUT" else { return notAllowed(["PUT"]) }
                let value = (try? JSONParser.parse(request.body))?["seed"]
                guard value == .null || value?.wholeNumber(in: 0...Int.max) != nil else {
                    return .error(400, "expected {\"seed\": a whole number ≥ 0, or null for the server's}")
                }
                memory.setSeed(value?.wholeNumber(in: 0...Int.max).map(UInt64.init), scope: scope)
                return .json(200, .object([("seed", .number(Double(memory.seed(of: scope))))]))
            case ("collections", 1):
                guard request.method == "GET" else { return notAllowed(["GET"]) }
                return try .json(200, .object([("collections", .array(catalog.memory.collections.map { spec in
                    .object([("id", .string(spec.id)), ("path", .string(spec.path)),
                             ("count", .number(Double(try memory.objects(spec, scope: scope).count)))])
                }))]))
            case ("collections", _):
                let id = parts.dropFirst().joined(separator: "/")
                guard let spec = catalog.memory.collection(id) else {
                    return .error(404, "unknown collection", [("collection", .string(id)), ("collections", .array(catalog.memory.collections.map { .string($0.id) }))])
                }
                switch request.method {
                case "GET": return try objects(spec, scope: scope)
                case "PUT":
                    guard case .array(let list)? = try? JSONParser.parse(request.body) else { return .error(400, "expected an array of objects") }
                    if let problem = try memory.replaceObjects(list, spec, scope: scope) { return .error(400, "bad object", [("where", .string(problem))]) }
                    return try objects(spec, scope: scope)
                case "DELETE":
                    try memory.resetObjects(spec, scope: scope)
                    return try objects(spec, scope: scope)
                default: return notAllowed(["GET", "PUT", "DELETE"])
                }
            default: return nil
            }
        } catch {
            return .error(503, "the state store did not answer", [("reason", .string((error as? MemoryError)?.message ?? "\(error)"))])
        }
    }

    private func state(_ catalog: StubCatalog, scope: Scope) throws(MemoryError) -> JSONValue {
        var services: [(key: String, value: JSONValue)] = []
        for service in catalog.memory.services(routes: catalog.routes) {
            let values = try control.memory.stateValues(service: service, scope: scope, seed: catalog.memory.stateSeed(service))
            services.append((service, .object(values)))
        }
        return .object(services)
    }

    private func objects(_ spec: CollectionSpec, scope: Scope) throws(MemoryError) -> Reply {
        let list = try control.memory.objects(spec, scope: scope).compactMap(\.decoded)
        return .json(200, .object([("id", .string(spec.id)), ("path", .string(spec.path)), ("count", .number(Double(list.count))), ("objects", .array(list))]))
    }
}
