/// The GraphQL endpoints of a catalog: for each endpoint path, its operation routes by name. A
/// request to an endpoint is routed by the operation it names, not by method and path.
package struct GraphQLEndpoints: Sendable {
    /// One endpoint: its service, its operations' route indexes by name, and the operations of
    /// its manifest by id.
    package struct Endpoint: Sendable {
        /// The service folder the endpoint belongs to.
        package let service: String?
        /// Route indexes by operation name.
        package let operations: [String: Int]
        /// The manifest's operations by id (lower-case hex).
        package var manifest: [String: PersistedOperation] = [:]
        /// Whether any of the endpoint's routes tests variables in a `when`: only then does the
        /// planner hand the request's variables to the conditions.
        package var testsVariables = false

        /// The route answering `name`. A few dozen names are compared by length first, without
        /// hashing the name; more are looked up in the table.
        package func route(for name: String) -> Int? {
            guard operations.count <= 32 else { return operations[name] }
            let length = name.utf8.count
            for (candidate, index) in operations where candidate.utf8.count == length && candidate == name { return index }
            return nil
        }
    }

    /// An operation of an operation manifest (Apollo's persisted query manifest).
    package struct PersistedOperation: Sendable, Equatable {
        /// The operation's name, from the manifest or its document.
        package let name: String?
        /// The operation's document.
        package let query: String
    }

    /// Queries clients have sent in full with their hashes, for later requests that send only the
    /// hash. Kept with the catalog: a reload forgets them, and a client then sends its query again,
    /// as it does for any server that lost its cache.
    package let persisted = PersistedQueries()

    /// Indexes the operation routes of `routes`; `manifests` are the operation manifests of
    /// endpoints, by endpoint path.
    package init(routes: [Route], manifests: [String: [String: PersistedOperation]] = [:]) {
        var operations: [String: [String: Int]] = [:]
        var services: [String: String?] = [:]
        for (index, route) in routes.enumerated() {
            guard let name = route.operation else { continue }
            if operations[route.fullPath]?[name] == nil { operations[route.fullPath, default: [:]][name] = index }
            services[route.fullPath] = route.service
        }
        let table = operations.reduce(into: [String: Endpoint]()) { table, entry in
            var endpoint = Endpoint(service: services[entry.key] ?? nil, operations: entry.value, manifest: manifests[entry.key] ?? [:])
            endpoint.testsVariables = entry.value.values.contains { routes[$0].variants.contains { !($0.condition?.variables.isEmpty ?? true) } }
            table[entry.key] = endpoint
        }
        paths = table.keys.sorted()
        endpoints = paths.map { table[$0]! }
    }

    /// The endpoint at `path`. Every request asks, so a catalog's few endpoints are compared by
    /// length first, without hashing the path.
    package func endpoint(at path: String) -> Endpoint? {
        guard !paths.isEmpty else { return nil }
        let length = path.utf8.count
        for (i, candidate) in paths.enumerated() where candidate.utf8.count == length && candidate == path { return endpoints[i] }
        return nil
    }

    private let paths: [String]
    private let endpoints: [Endpoint]

    /// GraphQL's own error shape, for the errors of a service that sets no `errorEnvelope`.
    package static let errorEnvelope = ErrorEnvelope(template: .object([
        ("data", .null),
        ("errors", .array([.object([("message", .string("{{message}}")), ("extensions", .object([("code", .string("{{code}}"))]))])])),
    ]))

    /// `"graphql": {"path": "/graphql", "manifest": "operations.json"}` in `_service.json`.
    static func readService(_ value: JSONValue, reader: ValueReader) -> (path: String, manifest: String?)? {
        guard let members = reader.object(value, at: "graphql", allowed: ["path", "manifest"]) else { return nil }
        guard let raw = members.first(where: { $0.key == "path" })?.value else {
            reader.fail("graphql", "missing path; expected {\"path\": \"/graphql\"}")
            return nil
        }
        guard let path = reader.string(raw, at: "graphql.path") else { return nil }
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("{") else {
            reader.fail("graphql.path", "expected a fixed path starting with '/', like \"/graphql\", found \"\(path)\"")
            return nil
        }
        let manifest = members.first(where: { $0.key == "manifest" }).flatMap { reader.string($0.value, at: "graphql.manifest") }
        if let manifest, manifest.contains("..") || manifest.hasPrefix("/") {
            reader.fail("graphql.manifest", "expected a file in the service folder, found \"\(manifest)\"")
            return (path, nil)
        }
        return (path, manifest)
    }

    /// An operation manifest: Apollo's persisted query manifest (`{"format":
    /// "apollo-persisted-query-manifest", "operations": [{"id", "name", "body"}]}`) or the older
    /// map of id to `{"name", "source"}`.
    static func readManifest(_ json: JSONValue, reader: ValueReader) -> [String: PersistedOperation] {
        guard case .object(let members) = json else {
            reader.fail("", "expected an operation manifest object, found \(json.kindDescription)")
            return [:]
        }
        var found: [String: PersistedOperation] = [:]
        if let list = members.first(where: { $0.key == "operations" })?.value {
            guard case .array(let items) = list else {
                reader.fail("operations", "expected an array of {id, name, body}, found \(list.kindDescription)")
                return [:]
            }
            for (i, item) in items.enumerated() {
                let at = "operations.\(i)"
                guard case .object(let op) = item, case .string(let id)? = op.first(where: { $0.key == "id" })?.value,
                      case .string(let body)? = op.first(where: { $0.key == "body" })?.value else {
                    reader.fail(at, "expected an object with an id and a body")
                    continue
                }
                let name = op.first(where: { $0.key == "name" })?.value.scalarText
                found[id.lowercased()] = PersistedOperation(name: name ?? GraphQLDocument.firstOperationName(in: body), query: body)
            }
            return found
        }
        for (id, value) in members {
            guard case .object(let op) = value, case .string(let source)? = op.first(where: { $0.key == "source" })?.value else {
                reader.fail(id, "expected {\"name\": …, \"source\": the query}")
                continue
            }
            let name = op.first(where: { $0.key == "name" })?.value.scalarText
            found[id.lowercased()] = PersistedOperation(name: name ?? GraphQLDocument.firstOperationName(in: source), query: source)
        }
        return found
    }

    /// `"operation"` and `"kind"` in a route.json: the operation a route answers.
    static func readOperation(_ members: [(key: String, value: JSONValue)], defaults: ServiceDefaults,
                              reader: ValueReader) -> (name: String, kind: String)? {
        guard let value = members.first(where: { $0.key == "operation" })?.value else {
            if members.contains(where: { $0.key == "kind" }) { reader.fail("kind", "only an operation route has a kind; expected \"operation\" beside it") }
            return nil
        }
        guard let name = reader.string(value, at: "operation") else { return nil }
        guard let first = name.unicodeScalars.first, first == "_" || first.isASCIILetter, name.unicodeScalars.allSatisfy({ $0 == "_" || $0.isASCIILetter || $0.isASCIIDigit }) else {
            reader.fail("operation", "expected a GraphQL name (letters, digits and '_', not starting with a digit), found \"\(name)\"")
            return nil
        }
        guard defaults.graphqlPath != nil else {
            reader.fail("operation", "an operation route belongs in a service whose _service.json names its endpoint, like \"graphql\": {\"path\": \"/graphql\"}")
            return nil
        }
        var kind = "query"
        if let raw = members.first(where: { $0.key == "kind" })?.value, let text = reader.string(raw, at: "kind") {
            guard ["query", "mutation", "subscription"].contains(text) else {
                reader.fail("kind", "expected query, mutation or subscription, found \"\(text)\"")
                return nil
            }
            kind = text
        }
        return (name, kind)
    }

    /// An operation answered by two routes of one endpoint is a problem.
    static func reportDuplicates(_ routes: [Route], log: ProblemLog) {
        StubLoader.reportRepeats(routes, log: log, at: "operation", key: { route in route.operation.map { "\(route.fullPath) \($0)" } },
                                 message: { first, route in
            "operation \(route.operation ?? "") at \(route.fullPath) is answered twice: by \(first.id)/ and by \(route.id)/; expected one route per operation"
        })
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
