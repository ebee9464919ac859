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
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        let kind = FileKind.of(root)
        guard kind == .directory else {
            log.addFile(directory, "expected a stub directory, found \(kind == .file ? "a file" : "nothing")")
            return .failure(StubLoadFailure(problems: log.problems))
        }
        var jobs: [RouteJob] = []
        for entry in listing(root, log: log, relative: "") {
            if entry.isDirectory {
                let inner = listing(PathText.join(root, entry.name), log: log, relative: entry.name)
                if inner.contains(where: { $0.name == "route.json" && !$0.isDirectory }) {
                    jobs.append(RouteJob(folder: entry.name, service: nil, defaults: ServiceDefaults(), entries: inner))
                } else {
                    jobs += serviceJobs(root: root, name: entry.name, entries: inner, log: log)
                }
            } else if isStubFile(entry.name) {
                log.addFile(entry.name, "unexpected file at the top level; the stub directory holds service folders and route folders")
            }
        }
        let routes = RouteJob.run(jobs, root: root, log: log)
        reportDuplicates(routes, log: log)
        if routes.isEmpty && log.problems.isEmpty {
            log.addFile(".", "no routes found; add a folder with a route.json (see docs/stub-format.md)")
        }
        guard log.problems.isEmpty else { return .failure(StubLoadFailure(problems: log.problems)) }
        return .success(StubCatalog(directory: root, routes: routes))
    }

    private static func serviceJobs(root: String, name: String, entries: [StubFiles.Entry], log: ProblemLog) -> [RouteJob] {
        var defaults = ServiceDefaults()
        let serviceFile = "\(name)/_service.json"
        if entries.contains(where: { $0.name == "_service.json" }),
           let json = readJSON(root: root, relative: serviceFile, log: log) {
            defaults = ServiceDefaults.read(json, reader: ValueReader(file: serviceFile, log: log))
        }
        var jobs: [RouteJob] = []
        for entry in entries {
            let relative = "\(name)/\(entry.name)"
            if entry.isDirectory {
                jobs.append(RouteJob(folder: relative, service: name, defaults: defaults, entries: nil))
            } else if entry.name != "_service.json" && isStubFile(entry.name) {
                log.addFile(relative, "unexpected file in a service folder; expected _service.json or route folders")
            }
        }
        return jobs
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

    /// Sorted entries of a folder, skipping hidden files and editor leftovers (`x~`, vim's `4913`).
    static func listing(_ path: String, log: ProblemLog, relative: String) -> [StubFiles.Entry] {
        switch StubFiles.list(path) {
        case .success(let entries): return entries
        case .failure(let error):
            log.addFile(relative.isEmpty ? "." : relative, "cannot list folder: \(error)")
            return []
        }
    }

    /// Files that look like something meant for stubd (have an extension); others are left alone.
    static func isStubFile(_ name: String) -> Bool {
        name.contains(".") && !name.lowercased().hasSuffix(".md")
    }

    static func readJSON(root: String, relative: String, log: ProblemLog) -> JSONValue? {
        guard let bytes = StubFiles.read(PathText.join(root, relative)) else {
            log.addFile(relative, "cannot be read")
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
