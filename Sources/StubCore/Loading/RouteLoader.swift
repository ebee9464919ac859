#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads one route folder: route.json plus its body files.
package struct RouteLoader {
    let root: String
    let folder: String
    let service: String?
    let defaults: ServiceDefaults
    let log: ProblemLog
    /// The folder's entries, listed by whoever found the folder.
    let entries: [StubFiles.Entry]

    /// The methods a route may have.
    package static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "CONNECT"]
    static let routeKeys = ["method", "path", "headers", "default", "variants", "delay", "throttle", "description", "operation", "kind", "etag", "lastModified", "websocket", "collection"]

    var routeFile: String { "\(folder)/route.json" }
    /// The file an operation route keeps its GraphQL document in.
    package static let operationDocument = "operation.graphql"

    /// The folder's route, or a collection's six.
    func load() -> [Route] {
        guard let json = StubLoader.readJSON(root: root, relative: routeFile, log: log) else { return [] }
        if case .object(let members) = json, members.contains(where: { $0.key == "collection" }) {
            return loadCollection(members, reader: ValueReader(file: routeFile, log: log))
        }
        return loadRoute(json).map { [$0] } ?? []
    }

    private func loadRoute(_ json: JSONValue) -> Route? {
        let problemsBefore = log.problems.count
        let reader = ValueReader(file: routeFile, log: log)
        guard let members = reader.object(json, at: "", allowed: RouteLoader.routeKeys) else { return nil }
        let keys = Set(members.map(\.key))
        var operation = GraphQLEndpoints.readOperation(members, defaults: defaults, reader: reader)
        // Without a `kind`, the operation's document beside route.json says what it is.
        if let named = operation, !keys.contains("kind"), let kind = documentedKind(of: named.name) { operation?.kind = kind }
        let isWebSocket = keys.contains("websocket")
        // A WebSocket handshake is a GET: the method may be left out.
        for required in ["method", "path"] where !keys.contains(required) && operation == nil && !keys.contains("operation")
            && !(required == "method" && isWebSocket) {
            reader.fail(required, "missing; expected a \(required == "method" ? "method like \"GET\"" : "path like \"/users/{id}\"")")
        }
        var method = operation == nil ? (isWebSocket ? "GET" : "") : "POST", path = operation == nil ? "" : (defaults.graphqlPath ?? "")
        var routeHeaders: [HTTPHeader] = [], defaultName: String?
        var routeDelay = defaults.delay
        var routeThrottle = defaults.throttle
        var validators = CacheValidatorDefaults()
        var entries: [(key: String, value: JSONValue)] = []
        var webSocket: WebSocketEndpoint?
        for (key, value) in members {
            switch key {
            case "websocket":
                webSocket = ConversationReader(reader: reader).endpoint(value, at: key)
                if operation != nil {
                    reader.fail(key, "expected no websocket in an operation route: subscriptions are served over the endpoint's WebSocket (graphql-transport-ws)")
                }
            case "operation", "kind":
                continue
            case "method" where operation != nil, "path" where operation != nil:
                reader.fail(key, "an operation route answers at its service's GraphQL endpoint; expected no \(key)")
            case "method":
                if let m = reader.string(value, at: key) {
                    if RouteLoader.methods.contains(m.uppercased()) { method = m.uppercased() } else {
                        reader.fail(key, "expected one of \(RouteLoader.methods.joined(separator: ", ")), found \"\(m)\"")
                    }
                }
            case "path":
                if let p = reader.string(value, at: key) {
                    if p.hasPrefix("/") && !p.utf8.contains(UInt8(ascii: "?")) { path = p } else {
                        reader.fail(key, "expected a path starting with '/' and without a query, found \"\(p)\"")
                    }
                }
            case "headers": routeHeaders = reader.headers(value, at: key) ?? []
            case "default": defaultName = reader.string(value, at: key)
            case "delay": routeDelay = reader.delay(value, at: key) ?? routeDelay
            case "throttle": routeThrottle = reader.throttle(value, at: key) ?? routeThrottle
            case "etag": validators.etag = reader.entityTag(value, at: key)
            case "lastModified": validators.lastModified = reader.lastModified(value, at: key)
            case "variants":
                guard case .object(let list) = value else {
                    reader.fail(key, "expected an object of variant name to variant, found \(value.kindDescription)")
                    continue
                }
                entries = list
            default: _ = reader.string(value, at: key)
            }
        }
        let template = PathTemplate(operation == nil ? defaults.basePath + (path == "/" ? "" : path) : path)
        checkTemplate(template, reader: reader)
        if template.text + "/" == Limits.adminPrefix || template.text.hasPrefix(Limits.adminPrefix) {
            reader.fail("path", "expected a path outside \(Limits.adminPrefix), which is reserved for the admin API, found \"\(template.text)\"")
        }
        if template.text + "/" == Limits.sessionPathPrefix || template.text.hasPrefix(Limits.sessionPathPrefix) {
            reader.fail("path", "expected a path outside \(Limits.sessionPathPrefix), which names a session, found \"\(template.text)\"")
        }
        let files = bodyFiles(isOperation: operation != nil || keys.contains("operation"))
        if isWebSocket && method != "GET" { reader.fail("method", "expected GET for a WebSocket route (the handshake is a GET), found \"\(method)\"") }
        var context = VariantContext(reader: reader, parameters: template.parameterNames, baseHeaders: defaults.headers + routeHeaders,
                                     envelope: defaults.envelope, delay: routeDelay, throttle: routeThrottle)
        context.isWebSocket = isWebSocket
        context.routeFolder = (PathText.join(root, folder), folder)
        context.isSubscription = operation?.kind == "subscription"
        context.validators = validators
        var variants: [Variant] = []
        for (name, value) in entries {
            variants += context.variant(name: name, json: value, file: files[name]).map { [$0] } ?? []
        }
        let named = Set(entries.lazy.map(\.key))
        for (name, file) in files.sorted(by: { $0.key < $1.key }) where !named.contains(name) {
            variants += context.variant(name: name, json: nil, file: file).map { [$0] } ?? []
        }
        // A route with other problems is still returned when its method and path are known, so
        // duplicate detection sees it; the load as a whole fails on any problem anyway.
        guard !method.isEmpty, !path.isEmpty else { return nil }
        guard !variants.isEmpty else {
            if log.problems.count > problemsBefore { return nil }
            log.addFile(folder, "no responses; expected a body file like 200.json or variants in route.json")
            return nil
        }
        let defaultIndex: Int
        if let name = defaultName {
            guard let i = variants.firstIndex(where: { $0.name == name }) else {
                reader.fail("default", "expected the name of a variant (\(variants.map(\.name).joined(separator: ", "))), found \"\(name)\"")
                return nil
            }
            defaultIndex = i
        } else if let talking = variants.firstIndex(where: { $0.conversation != nil }) {
            defaultIndex = talking
        } else {
            let successes = variants.indices.filter { (200..<300).contains(variants[$0].status) }
            // Without a 2xx, the first variant that is a response rather than a fault.
            defaultIndex = successes.min { (variants[$0].status, variants[$0].name) < (variants[$1].status, variants[$1].name) }
                ?? variants.firstIndex { $0.fault == nil } ?? 0
        }
        return Route(id: folder, service: service, name: PathText.lastComponent(folder), method: method,
                     template: template, variants: variants, defaultIndex: defaultIndex, errorEnvelope: defaults.envelope,
                     operation: operation?.name, operationKind: operation?.kind, webSocket: webSocket)
    }

    /// The kind `operation.graphql` in the route's folder gives operation `name`, if the file
    /// is there and names it.
    private func documentedKind(of name: String) -> String? {
        guard entries.contains(where: { $0.name == RouteLoader.operationDocument && !$0.isDirectory }),
              case .success(let bytes) = StubFiles.read(PathText.join(PathText.join(root, folder), RouteLoader.operationDocument), limit: 1 << 20)
        else { return nil }
        return GraphQLDocument.operations(in: String(decoding: bytes, as: UTF8.self)).first { $0.name == name }?.kind
    }

    func checkTemplate(_ template: PathTemplate, reader: ValueReader) {
        var seen: Set<String> = []
        for name in template.parameterNames {
            if name.isEmpty || name.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "-" }) {
                reader.fail("path", "expected parameter names of letters, digits, '_' or '-', found {\(name)}")
            }
            if !seen.insert(name).inserted { reader.fail("path", "parameter {\(name)} appears twice") }
        }
        // Bytes, not characters: a search by character breaks the text into graphemes first.
        for case .literal(let lit) in template.segments where lit.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            reader.fail("path", "expected each parameter as {name}, a whole segment ({id}) or beside literal text ({id}.json), found \"\(lit)\"")
        }
        for case .pattern(let pattern) in template.segments {
            if let problem = pattern.problem { reader.fail("path", problem) }
        }
    }
}
