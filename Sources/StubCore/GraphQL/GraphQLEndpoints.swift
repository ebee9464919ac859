/// The GraphQL endpoints of a catalog: for each endpoint path, its operation routes by name. A
/// request to an endpoint is routed by the operation it names, not by method and path.
package struct GraphQLEndpoints: Sendable {
    /// One endpoint: its service and its operations' route indexes by name.
    package struct Endpoint: Sendable {
        package let service: String?
        package let operations: [String: Int]
    }

    /// Endpoints by their full path.
    package let byPath: [String: Endpoint]

    /// Indexes the operation routes of `routes`.
    package init(routes: [Route]) {
        var operations: [String: [String: Int]] = [:]
        var services: [String: String?] = [:]
        for (index, route) in routes.enumerated() {
            guard let name = route.operation else { continue }
            if operations[route.fullPath]?[name] == nil { operations[route.fullPath, default: [:]][name] = index }
            services[route.fullPath] = route.service
        }
        byPath = operations.reduce(into: [:]) { $0[$1.key] = Endpoint(service: services[$1.key] ?? nil, operations: $1.value) }
    }

    /// The endpoint at `path`; most catalogs have none, and then nothing is compared.
    package func endpoint(at path: String) -> Endpoint? {
        byPath.isEmpty ? nil : byPath[path]
    }

    /// GraphQL's own error shape, for the errors of a service that sets no `errorEnvelope`.
    package static let errorEnvelope = ErrorEnvelope(template: .object([
        ("data", .null),
        ("errors", .array([.object([("message", .string("{{message}}")), ("extensions", .object([("code", .string("{{code}}"))]))])])),
    ]))

    /// `"graphql": {"path": "/graphql"}` in `_service.json`.
    static func readService(_ value: JSONValue, reader: ValueReader) -> String? {
        guard let members = reader.object(value, at: "graphql", allowed: ["path"]) else { return nil }
        guard let raw = members.first(where: { $0.key == "path" })?.value else {
            reader.fail("graphql", "missing path; expected {\"path\": \"/graphql\"}")
            return nil
        }
        guard let path = reader.string(raw, at: "graphql.path") else { return nil }
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("{") else {
            reader.fail("graphql.path", "expected a fixed path starting with '/', like \"/graphql\", found \"\(path)\"")
            return nil
        }
        return path
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
        var seen: [String: Route] = [:]
        for route in routes {
            guard let name = route.operation else { continue }
            let key = "\(route.fullPath) \(name)"
            if let first = seen[key] {
                log.add("\(route.id)/route.json", "operation",
                        "operation \(name) at \(route.fullPath) is answered twice: by \(first.id)/ and by \(route.id)/; expected one route per operation")
            } else {
                seen[key] = route
            }
        }
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
