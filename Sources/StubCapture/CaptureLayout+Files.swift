import StubCore

/// The files a layout is written as, relative to the stub root.
extension CaptureLayout {
    /// One file to write.
    package struct File: Sendable {
        /// The path relative to the stub root.
        package var path: String
        /// The file's contents.
        package var bytes: [UInt8]
        /// A file whose contents these are instead (linked, not read), when set.
        package var source: String?

        /// A file at `path` (relative to the stub root) holding `bytes`, or the contents of `source`.
        package init(path: String, bytes: [UInt8], source: String? = nil) {
            self.path = path
            self.bytes = bytes
            self.source = source
        }
    }

    /// Every file of `service`: `_service.json`, then per route its body files and `route.json`
    /// last (a watcher that reloads half-way sees bodies before the route that names them).
    func files(of service: Service) -> [File] {
        var files: [File] = []
        for route in service.routes {
            for variant in route.variants {
                if let ext = variant.fileExtension {
                    files.append(File(path: "\(service.name)/\(route.folder)/\(variant.name).\(ext)", bytes: variant.body, source: variant.bodyFile))
                }
            }
            if let document = route.operation?.document {
                files.append(File(path: "\(service.name)/\(route.folder)/\(RouteLoader.operationDocument)", bytes: Array((document + "\n").utf8)))
            }
            files.append(File(path: "\(service.name)/\(route.folder)/route.json", bytes: Array((CaptureLayout.routeJSON(route).serialized(pretty: true) + "\n").utf8)))
        }
        var serviceMembers: [(key: String, value: JSONValue)] = []
        if !service.basePath.isEmpty { serviceMembers.append(("basePath", .string(service.basePath))) }
        if let path = service.graphqlPath { serviceMembers.append(("graphql", .object([("path", .string(path))]))) }
        serviceMembers.append(("description", .string("Captured from \(service.host)")))
        files.append(File(path: "\(service.name)/_service.json", bytes: Array((JSONValue.object(serviceMembers).serialized(pretty: true) + "\n").utf8)))
        return files
    }

    /// Every file of every service.
    package var files: [File] { services.flatMap { files(of: $0) } }

    static func routeJSON(_ route: Route) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("method", .string(route.method)), ("path", .string(route.path))]
        if let operation = route.operation { members = [("operation", .string(operation.name)), ("kind", .string(operation.kind))] }
        if let subprotocols = route.webSocket {
            members.append(("websocket", .object(subprotocols.isEmpty ? [] : [("subprotocols", .array(subprotocols.map { .string($0) }))])))
        }
        if let description = route.description { members.append(("description", .string(description))) }
        if let name = route.defaultVariant { members.append(("default", .string(name))) }
        if !route.headers.isEmpty { members.append(("headers", headersJSON(route.headers))) }
        members.append(("variants", .object(route.variants.map { ($0.name, variantJSON($0)) })))
        return .object(members)
    }

    static func variantJSON(_ variant: Variant) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let description = variant.description { members.append(("description", .string(description))) }
        if !variant.when.isEmpty {
            var kinds: [(key: String, value: JSONValue)] = []
            for (kind, key) in [("path", "path"), ("query", "query"), ("header", "headers"), ("body", "body"), ("variables", "variables")] {
                let items = variant.when.filter { $0.kind == kind }
                if !items.isEmpty { kinds.append((key, .object(items.map { ($0.name, .string($0.value)) }))) }
            }
            members.append(("when", .object(kinds)))
        }
        if !variant.headers.isEmpty { members.append(("headers", headersJSON(variant.headers))) }
        if let conversation = variant.conversation { members.append(("conversation", conversation)) }
        return .object(members)
    }

    static func headersJSON(_ headers: [(name: String, value: String)]) -> JSONValue {
        .object(headers.map { ($0.name, .string($0.value)) })
    }

    /// `service/route: 200, 404, 200-2` lines for the import's report.
    package var summary: [String] {
        services.flatMap { service in
            service.routes.map { route in
                let target = route.operation.map { "\($0.kind.uppercased()) \(service.basePath)\(service.graphqlPath ?? "")#\($0.name)" }
                    ?? "\(route.method) \(service.basePath)\(route.path == "/" && !service.basePath.isEmpty ? "" : route.path)"
                return "\(service.name)/\(route.folder)  \(target)  variants: \(route.variants.map(\.name).joined(separator: ", "))"
            }
        }
    }
}
