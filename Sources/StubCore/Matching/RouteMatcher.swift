/// Finds the route for a method and path: literal segments beat parameters, HEAD falls back to GET.
///
/// Built once per catalog as a tree of path segments (a literal child per distinct segment, one
/// parameter child), so a lookup costs the depth of the path, not the number of routes, and reads
/// the request's path in place without copying its segments.
package struct RouteMatcher: Sendable {
    /// What matching a request found.
    package enum Match: Sendable, Equatable {
        /// A route, with its captured path parameters.
        case route(index: Int, parameters: [String: String])
        /// The path exists, but not for this method; `allowed` lists the methods that do.
        case methodNotAllowed(allowed: [String])
        /// Nothing at this path.
        case notFound
    }

    struct Node: Sendable {
        var literals: [Substring: Int] = [:]
        /// The literal children in the order they were added, for a stable near-miss walk.
        var literalOrder: [Int] = []
        var parameter: Int?
        var parent: Int?
        /// Routes whose template ends here: (method, index into the catalog's routes).
        var endpoints: [Endpoint] = []
    }

    struct Endpoint: Sendable {
        var method: String
        var route: Int
    }

    let nodes: [Node]
    let templates: [PathTemplate]

    /// Indexes routes by their templates.
    package init(routes: [Route]) {
        var nodes = [Node()]
        for (index, route) in routes.enumerated() {
            var at = 0
            for segment in route.template.segments {
                switch segment {
                case .literal(let text):
                    if let next = nodes[at].literals[Substring(text)] { at = next; continue }
                    nodes.append(Node(parent: at))
                    nodes[at].literals[Substring(text)] = nodes.count - 1
                    nodes[at].literalOrder.append(nodes.count - 1)
                    at = nodes.count - 1
                case .parameter:
                    if let next = nodes[at].parameter { at = next; continue }
                    nodes.append(Node(parent: at))
                    nodes[at].parameter = nodes.count - 1
                    at = nodes.count - 1
                }
            }
            nodes[at].endpoints.append(Endpoint(method: route.method, route: index))
        }
        self.nodes = nodes
        templates = routes.map(\.template)
    }

    /// Matches a method and a decoded path.
    package func match(method: String, path: String) -> Match {
        let rest = Substring(path)
        func route(for method: String) -> Int? {
            var found: Int?
            _ = visit(0, rest) { node in
                found = node.endpoints.first { $0.method == method }?.route
                return found != nil
            }
            return found
        }
        if let index = route(for: method) ?? (method == "HEAD" ? route(for: "GET") : nil) {
            return .route(index: index, parameters: parameters(of: index, in: path))
        }
        var allowed: Set<String> = []
        _ = visit(0, rest) { node in
            for endpoint in node.endpoints { allowed.insert(endpoint.method) }
            return false
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    /// Depth-first over the nodes that match `rest`, literal children before the parameter child,
    /// so end nodes are met from the most specific template to the least. Stops when `accept` says so.
    /// Segments are slices of the request's path: nothing is copied.
    private func visit(_ at: Int, _ rest: Substring, _ accept: (Node) -> Bool) -> Bool {
        guard let (segment, after) = RouteMatcher.nextSegment(rest) else { return !nodes[at].endpoints.isEmpty && accept(nodes[at]) }
        if let literal = nodes[at].literals[segment], visit(literal, after, accept) { return true }
        if let parameter = nodes[at].parameter, visit(parameter, after, accept) { return true }
        return false
    }

    /// The first non-empty segment of `path` and what follows it; nil when none is left.
    static func nextSegment(_ path: Substring) -> (segment: Substring, rest: Substring)? {
        let utf8 = path.utf8
        let slash = UInt8(ascii: "/")
        guard let start = utf8.firstIndex(where: { $0 != slash }) else { return nil }
        let end = utf8[start...].firstIndex(of: slash) ?? utf8.endIndex
        return (path[start..<end], path[end...])
    }

    private func parameters(of route: Int, in path: String) -> [String: String] {
        guard templates[route].segments.contains(where: { if case .parameter = $0 { return true } else { return false } }) else { return [:] }
        var captured: [String: String] = [:]
        for (segment, actual) in zip(templates[route].segments, path.split(separator: "/")) {
            if case .parameter(let name) = segment { captured[name] = String(actual) }
        }
        return captured
    }
}
