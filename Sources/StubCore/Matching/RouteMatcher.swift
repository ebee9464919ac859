/// Finds the route for a method and path: literal segments beat parameters, HEAD falls back to GET.
public struct RouteMatcher: Sendable {
    /// What matching a request found.
    public enum Match: Sendable, Equatable {
        /// A route, with its captured path parameters.
        case route(index: Int, parameters: [String: String])
        /// The path exists, but not for this method; `allowed` lists the methods that do.
        case methodNotAllowed(allowed: [String])
        /// Nothing at this path.
        case notFound
    }

    private let templates: [(method: String, template: PathTemplate)]

    /// Indexes routes by their templates.
    public init(routes: [Route]) {
        templates = routes.map { ($0.method, $0.template) }
    }

    /// Matches a method and a decoded path.
    public func match(method: String, path: String) -> Match {
        let segments = PathTemplate.split(path)
        var candidates: [(index: Int, parameters: [String: String])] = []
        for (i, entry) in templates.enumerated() {
            if let params = entry.template.match(segments) { candidates.append((i, params)) }
        }
        guard !candidates.isEmpty else { return .notFound }
        if let best = mostSpecific(candidates.filter { templates[$0.index].method == method }) {
            return .route(index: best.index, parameters: best.parameters)
        }
        if method == "HEAD", let best = mostSpecific(candidates.filter { templates[$0.index].method == "GET" }) {
            return .route(index: best.index, parameters: best.parameters)
        }
        var allowed = Set(candidates.map { templates[$0.index].method })
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    private func mostSpecific(_ list: [(index: Int, parameters: [String: String])]) -> (index: Int, parameters: [String: String])? {
        list.min { templates[$0.index].template.isMoreSpecific(than: templates[$1.index].template) }
    }

    /// Up to `limit` routes closest to the request, for the 404 body (WireMock calls these near misses).
    public func nearMisses(method: String, path: String, in routes: [Route], limit: Int = 3) -> [Route] {
        let wanted = "\(method) \(PathTemplate(path).text)"
        let segments = PathTemplate.split(path)
        return routes.map { route -> (Route, Int) in
            // A template parameter costs nothing against the segment it would take.
            var shaped = route.template.segments.enumerated().map { i, seg -> String in
                if case .literal(let l) = seg { return l }
                return i < segments.count ? segments[i] : "{}"
            }.joined(separator: "/")
            shaped = "\(route.method) /\(shaped)"
            return (route, StringDistance.levenshtein(wanted, shaped))
        }
        .sorted { $0.1 < $1.1 }
        .prefix(limit)
        .map(\.0)
    }
}
