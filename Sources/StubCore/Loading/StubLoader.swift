#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads and validates a stub directory into a `StubCatalog`, reporting every problem at once.
public enum StubLoader {
    /// Loads `directory`; on any problem returns all of them and no catalog.
    public static func load(directory: String) -> Result<StubCatalog, StubLoadFailure> {
        let log = ProblemLog()
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        let kind = FileKind.of(root.path)
        guard kind == .directory else {
            log.addFile(directory, "expected a stub directory, found \(kind == .file ? "a file" : "nothing")")
            return .failure(StubLoadFailure(problems: log.problems))
        }
        var routes: [Route] = []
        for entry in listing(root, log: log, relative: "") {
            let url = root.appendingPathComponent(entry)
            if isDirectory(url) {
                if FileManager.default.fileExists(atPath: url.appendingPathComponent("route.json").path) {
                    if let r = RouteLoader(root: root, folder: entry, service: nil, defaults: ServiceDefaults(), log: log).load() { routes.append(r) }
                } else {
                    routes += loadService(root: root, name: entry, log: log)
                }
            } else if isStubFile(entry) {
                log.addFile(entry, "unexpected file at the top level; the stub directory holds service folders and route folders")
            }
        }
        reportDuplicates(routes, log: log)
        if routes.isEmpty && log.problems.isEmpty {
            log.addFile(".", "no routes found; add a folder with a route.json (see docs/stub-format.md)")
        }
        guard log.problems.isEmpty else { return .failure(StubLoadFailure(problems: log.problems)) }
        return .success(StubCatalog(directory: root.path, routes: routes))
    }

    private static func loadService(root: URL, name: String, log: ProblemLog) -> [Route] {
        let folder = root.appendingPathComponent(name)
        var defaults = ServiceDefaults()
        let serviceFile = "\(name)/_service.json"
        if let json = readJSON(root: root, relative: serviceFile, log: log, optional: true) {
            defaults = ServiceDefaults.read(json, reader: ValueReader(file: serviceFile, log: log))
        }
        var routes: [Route] = []
        for entry in listing(folder, log: log, relative: name) {
            let relative = "\(name)/\(entry)"
            if isDirectory(folder.appendingPathComponent(entry)) {
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(entry).appendingPathComponent("route.json").path) {
                    if let r = RouteLoader(root: root, folder: relative, service: name, defaults: defaults, log: log).load() { routes.append(r) }
                } else {
                    log.addFile("\(relative)/route.json", "missing; every folder inside a service is a route and needs a route.json")
                }
            } else if entry != "_service.json" && isStubFile(entry) {
                log.addFile(relative, "unexpected file in a service folder; expected _service.json or route folders")
            }
        }
        return routes
    }

    private static func reportDuplicates(_ routes: [Route], log: ProblemLog) {
        var seen: [String: Route] = [:]
        for route in routes {
            let shape = route.template.segments.map { seg -> String in
                if case .literal(let l) = seg { return l } else { return "{}" }
            }.joined(separator: "/")
            let key = "\(route.method) /\(shape)"
            if let first = seen[key] {
                log.add("\(route.id)/route.json", "",
                        "\(route.method) \(route.fullPath) is defined twice: in \(first.id)/ and in \(route.id)/; expected one route per method and path")
            } else {
                seen[key] = route
            }
        }
    }

    /// Sorted names in a folder, skipping hidden files and editor leftovers (`x~`, vim's `4913`).
    static func listing(_ url: URL, log: ProblemLog, relative: String) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { !$0.hasPrefix(".") && !$0.hasSuffix("~") && !$0.hasSuffix(".swp") && !$0.hasPrefix("#") }
                .sorted()
        } catch {
            log.addFile(relative.isEmpty ? "." : relative, "cannot list folder: \(error)")
            return []
        }
    }

    /// Files that look like something meant for stubd (have an extension); others are left alone.
    static func isStubFile(_ name: String) -> Bool {
        name.contains(".") && !name.lowercased().hasSuffix(".md")
    }

    static func isDirectory(_ url: URL) -> Bool {
        FileKind.of(url.path) == .directory
    }

    static func readJSON(root: URL, relative: String, log: ProblemLog, optional: Bool = false) -> JSONValue? {
        let url = root.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if !optional || FileManager.default.fileExists(atPath: url.path) { log.addFile(relative, "cannot be read") }
            return nil
        }
        do {
            return try JSONParser.parse(Array(data))
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

    static func read(_ json: JSONValue, reader: ValueReader) -> ServiceDefaults {
        var d = ServiceDefaults()
        guard let members = reader.object(json, at: "", allowed: ["basePath", "headers", "errorEnvelope", "delay", "throttle", "description"]) else { return d }
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
            default: _ = reader.string(value, at: key)
            }
        }
        return d
    }
}
