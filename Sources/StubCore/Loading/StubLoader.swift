#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads and validates a stub directory into a `StubCatalog`, reporting every problem at once.
package enum StubLoader {
    /// Loads `directory`; on any problem returns all of them and no catalog.
    package static func load(directory: String, allowEmpty: Bool = false) -> Result<StubCatalog, StubLoadFailure> {
        let log = ProblemLog()
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        let kind = FileKind.of(root)
        guard kind == .directory else {
            log.addFile(directory, "expected a stub directory, found \(kind == .file ? "a file" : "nothing")")
            return .failure(StubLoadFailure(problems: log.problems))
        }
        let tree = StubTree.walk(root)
        for problem in tree.problems { log.add(problem) }
        var jobs: [RouteJob] = []
        var defaults = ServiceDefaults()
        var manifests: [String: [String: GraphQLEndpoints.PersistedOperation]] = [:]
        var stateSeeds: [String: [String: JSONValue]] = [:]
        for folder in tree.folders {
            switch folder.role {
            case .root:
                if folder.entries.contains(where: { $0.name == stateFile && !$0.isDirectory }) { stateSeeds[""] = readState(root: root, relative: stateFile, log: log) }
                for entry in folder.entries where !entry.isDirectory && isStubFile(entry.name) && entry.name != stateFile {
                    log.addFile(entry.name, "unexpected file at the top level; the stub directory holds service folders and route folders")
                }
            case .service:
                defaults = serviceDefaults(root: root, name: folder.relative, entries: folder.entries, log: log)
                if folder.entries.contains(where: { $0.name == stateFile && !$0.isDirectory }) {
                    stateSeeds[folder.relative] = readState(root: root, relative: "\(folder.relative)/\(stateFile)", log: log)
                }
                if let endpoint = defaults.graphqlPath, !defaults.graphqlManifest.isEmpty { manifests[endpoint] = defaults.graphqlManifest }
            case .route:
                jobs.append(RouteJob(folder: folder.relative, service: folder.service,
                                     defaults: folder.service == nil ? ServiceDefaults() : defaults, entries: folder.entries))
            }
        }
        let routes = RouteJob.run(jobs, root: root, log: log)
        reportDuplicates(routes, log: log)
        checkStateNames(routes, seeds: stateSeeds, log: log)
        if routes.isEmpty && log.problems.isEmpty && !allowEmpty {
            log.addFile(".", "no routes found; add a folder with a route.json (see docs/stub-format.md)")
        }
        guard log.problems.isEmpty else { return .failure(StubLoadFailure(problems: log.problems)) }
        return .success(StubCatalog(directory: root, routes: routes, warnings: tree.warnings, graphQLManifests: manifests, stateSeeds: stateSeeds))
    }

    /// A service folder's `_service.json`, and a problem for each file that does not belong there.
    private static func serviceDefaults(root: String, name: String, entries: [StubFiles.Entry], log: ProblemLog) -> ServiceDefaults {
        var defaults = ServiceDefaults()
        let serviceFile = "\(name)/_service.json"
        if entries.contains(where: { $0.name == "_service.json" }),
           let json = readJSON(root: root, relative: serviceFile, log: log) {
            defaults = ServiceDefaults.read(json, reader: ValueReader(file: serviceFile, log: log))
        }
        if let file = defaults.graphqlManifestFile {
            let relative = "\(name)/\(file)"
            if let json = readJSON(root: root, relative: relative, log: log) {
                defaults.graphqlManifest = GraphQLEndpoints.readManifest(json, reader: ValueReader(file: relative, log: log))
            }
        }
        for entry in entries where !entry.isDirectory && entry.name != "_service.json" && entry.name != stateFile
            && entry.name != defaults.graphqlManifestFile && isStubFile(entry.name) {
            log.addFile("\(name)/\(entry.name)", "unexpected file in a service folder; expected _service.json, _state.json or route folders")
        }
        return defaults
    }

    private static func reportDuplicates(_ routes: [Route], log: ProblemLog) {
        GraphQLEndpoints.reportDuplicates(routes, log: log)
        for (first, route) in repeatedShapes(routes.filter { $0.operation == nil }) {
            log.add("\(route.id)/route.json", "",
                    "\(route.method) \(route.fullPath) is defined twice: in \(first.id)/ and in \(route.id)/; expected one route per method and path")
        }
    }

    /// Each route whose method and path shape an earlier route already has, with that first route,
    /// in route order. Keyed by `hash` of the shape (a string key per route cost more than the
    /// rest of the check for 10,000 routes); routes whose hashes meet are compared in full, and a
    /// different shape probes on, so a collision never hides a repeat. A test passes a `hash` that
    /// always collides.
    package static func repeatedShapes(_ routes: [Route], hash: (Route) -> UInt64 = shapeHash) -> [(first: Route, repeat: Route)] {
        var firstByHash: [UInt64: Route] = [:]
        firstByHash.reserveCapacity(routes.count)
        var repeats: [(first: Route, repeat: Route)] = []
        for route in routes {
            var key = hash(route)
            while let first = firstByHash[key] {
                if sameShape(first, route) {
                    repeats.append((first, route))
                    break
                }
                key &+= 0x9E37_79B9_7F4A_7C15
            }
            if firstByHash[key] == nil { firstByHash[key] = route }
        }
        return repeats
    }

    /// A hash of the method and the template's segments, any parameter counting as one shape.
    package static func shapeHash(_ route: Route) -> UInt64 {
        var hash = RouteNode.hash(route.method.utf8)
        for segment in route.template.segments {
            hash = RouteNode.hash(hash, UInt8(ascii: "/"))
            switch segment {
            case .literal(let text): for byte in text.utf8 { hash = RouteNode.hash(hash, byte) }
            case .parameter: hash = RouteNode.hash(hash, 0xFF)  // never a byte of UTF-8 text
            case .pattern(let pattern):
                hash = RouteNode.hash(hash, 0xFE)
                for byte in pattern.shape.utf8 { hash = RouteNode.hash(hash, byte) }
            }
        }
        return hash
    }

    /// True when both routes have the same method and segments, any parameter matching any other.
    private static func sameShape(_ a: Route, _ b: Route) -> Bool {
        guard a.method == b.method, a.template.segments.count == b.template.segments.count else { return false }
        for (x, y) in zip(a.template.segments, b.template.segments) {
            switch (x, y) {
            case (.literal(let p), .literal(let q)) where p == q: continue
            case (.parameter, .parameter): continue
            case (.pattern(let p), .pattern(let q)) where p.shape == q.shape: continue
            default: return false
            }
        }
        return true
    }

    /// Reports each route whose `key` an earlier route already has, in its route.json at `path`.
    static func reportRepeats(_ routes: [Route], log: ProblemLog, at path: String, key: (Route) -> String?,
                              message: (_ first: Route, _ route: Route) -> String) {
        var seen: [String: Route] = [:]
        for route in routes {
            guard let key = key(route) else { continue }
            if let first = seen[key] { log.add("\(route.id)/route.json", path, message(first, route)) } else { seen[key] = route }
        }
    }

    /// Files that look like something meant for stubd (have an extension); others are left alone.
    static func isStubFile(_ name: String) -> Bool {
        name.utf8.contains(UInt8(ascii: ".")) && !name.lowercased().hasSuffix(".md")
    }

    static func readJSON(root: String, relative: String, log: ProblemLog) -> JSONValue? {
        let bytes: [UInt8]
        switch StubFiles.read(PathText.join(root, relative)) {
        case .success(let read): bytes = read
        case .failure(let error):
            log.addFile(relative, error.description)
            return nil
        }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            log.add(StubProblem(file: relative, location: .position(line: error.line, column: error.column), message: error.message))
            return nil
        }
    }
}

/// What a `_service.json` gives its routes.
struct ServiceDefaults {
    var basePath = ""
    var headers: [HTTPHeader] = []
    var envelope: ErrorEnvelope?
    var delay: DelaySpec?
    var throttle: Int?
    /// The path of the service's GraphQL endpoint (`"graphql": {"path": "/graphql"}`), joined
    /// to `basePath`; its routes are operations.
    var graphqlPath: String?
    /// The service's operation manifest file, relative to its folder, and what it holds.
    var graphqlManifestFile: String?
    var graphqlManifest: [String: GraphQLEndpoints.PersistedOperation] = [:]

    static func read(_ json: JSONValue, reader: ValueReader) -> ServiceDefaults {
        var d = ServiceDefaults()
        guard let members = reader.object(json, at: "", allowed: ["basePath", "headers", "errorEnvelope", "delay", "throttle", "description", "graphql"]) else { return d }
        for (key, value) in members {
            switch key {
            case "basePath":
                if let s = reader.string(value, at: key) {
                    if s.hasPrefix("/") { d.basePath = s } else { reader.fail(key, "expected a path starting with '/', found \"\(s)\"") }
                }
            case "headers": d.headers = reader.headers(value, at: key) ?? []
            case "errorEnvelope":
                let envelope = ErrorEnvelope(template: value)
                for name in envelope.variables where !ErrorEnvelope.knownVariables.contains(name) {
                    reader.fail(key, "unknown template variable {{\(name)}}; expected one of \(ErrorEnvelope.knownVariables.map { "{{\($0)}}" }.joined(separator: ", "))")
                }
                d.envelope = envelope
            case "delay": d.delay = reader.delay(value, at: key)
            case "throttle": d.throttle = reader.throttle(value, at: key)
            case "graphql":
                let service = GraphQLEndpoints.readService(value, reader: reader)
                d.graphqlPath = service?.path
                d.graphqlManifestFile = service?.manifest
            default: _ = reader.string(value, at: key)
            }
        }
        if let endpoint = d.graphqlPath, !d.basePath.isEmpty { d.graphqlPath = d.basePath + (endpoint == "/" ? "" : endpoint) }
        // A GraphQL service's errors are GraphQL's own unless it says otherwise.
        if d.graphqlPath != nil && d.envelope == nil { d.envelope = GraphQLEndpoints.errorEnvelope }
        return d
    }
}
