/// Finds the route for a method and path: literal segments beat parameters, HEAD falls back to GET.
///
/// Built once per catalog as a tree of path segments (a literal child per distinct segment, one
/// parameter child), so a lookup costs the depth of the path, not the number of routes. It reads
/// the request's path as UTF-8 bytes in place: a segment is hashed and compared where it lies,
/// never copied into a string of its own.
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

    struct Endpoint: Sendable {
        var method: String
        var route: Int
    }

    var nodes: [RouteNode]
    let templates: [PathTemplate]

    /// Indexes routes by their templates.
    package init(routes: [Route]) {
        nodes = [RouteNode()]
        templates = routes.map(\.template)
        // Operation routes share their endpoint's method and path; `GraphQLEndpoints` finds them.
        for (index, route) in routes.enumerated() where route.operation == nil {
            var at = 0
            for segment in route.template.segments {
                switch segment {
                case .literal(let text): at = literalChild(of: at, Array(text.utf8))
                case .parameter:
                    if let next = nodes[at].parameter { at = next; continue }
                    nodes.append(RouteNode(parent: at))
                    nodes[at].parameter = nodes.count - 1
                    at = nodes.count - 1
                }
            }
            nodes[at].endpoints.append(Endpoint(method: route.method, route: index))
        }
    }

    private mutating func literalChild(of at: Int, _ text: [UInt8]) -> Int {
        if let found = text.withUnsafeBufferPointer({ child(of: at, $0) }) { return found }
        nodes.append(RouteNode(segment: text, parent: at))
        let made = nodes.count - 1
        nodes[at].add(literal: made, hash: RouteNode.hash(text))
        return made
    }

    /// The literal child of `at` whose text is `segment`.
    func child(of at: Int, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        // Most nodes have a few literal children: comparing them costs less than hashing.
        if nodes[at].literalOrder.count <= RouteNode.scanLimit {
            for child in nodes[at].literalOrder where nodes[child].matches(segment) { return child }
            return nil
        }
        guard let found = nodes[at].literals[RouteNode.hash(segment)] else { return nil }
        if found >= 0 { return nodes[found].matches(segment) ? found : nil }
        return nodes[at].collided.first { nodes[$0].matches(segment) }
    }

    /// What a lookup found, without the parameters (read later, only if asked for).
    package enum Lookup: Sendable, Equatable {
        /// The route at this index.
        case route(Int)
        /// The path exists, but not for this method; `allowed` lists the methods that do.
        case methodNotAllowed(allowed: [String])
        /// Nothing at this path.
        case notFound
    }

    /// Matches a method and a path as sent, capturing the decoded the path parameters.
    package func match(method: String, path: String) -> Match {
        switch route(method: method, path: path) {
        case .route(let index):
            var captured: [String: String] = [:]
            for name in templates[index].parameterNames { captured[name] = templates[index].value(of: name, in: path) }
            return .route(index: index, parameters: captured)
        case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed: allowed)
        case .notFound: return .notFound
        }
    }

    /// Finds the route for a method and a path as sent (segments are decoded one by one).
    package func route(method: String, path: String) -> Lookup {
        var path = path
        return path.withUTF8 { bytes in
            func route(for method: String) -> Int? {
                var found: Int?
                _ = visit(0, bytes, from: 0) { node in
                    found = node.endpoints.first { $0.method == method }?.route
                    return found != nil
                }
                return found
            }
            if let index = route(for: method) ?? (method == "HEAD" ? route(for: "GET") : nil) { return .route(index) }
            var allowed: Set<String> = []
            _ = visit(0, bytes, from: 0) { node in
                for endpoint in node.endpoints { allowed.insert(endpoint.method) }
                return false
            }
            guard !allowed.isEmpty else { return .notFound }
            if allowed.contains("GET") { allowed.insert("HEAD") }
            return .methodNotAllowed(allowed: allowed.sorted())
        }
    }

    /// Depth-first over the nodes that match the path from `from`, literal children before the
    /// parameter child, so end nodes are met from the most specific template to the least.
    /// Stops when `accept` says so.
    private func visit(_ at: Int, _ path: UnsafeBufferPointer<UInt8>, from: Int, _ accept: (RouteNode) -> Bool) -> Bool {
        guard let segment = RouteMatcher.segment(in: path, from: from) else {
            return !nodes[at].endpoints.isEmpty && accept(nodes[at])
        }
        let text = UnsafeBufferPointer(rebasing: path[segment])
        if let literal = literalChild(of: at, raw: text), visit(literal, path, from: segment.upperBound, accept) { return true }
        if let parameter = nodes[at].parameter, visit(parameter, path, from: segment.upperBound, accept) { return true }
        return false
    }

    /// The literal child of `at` for a segment as sent: literals are matched decoded, so `%41`
    /// matches `A` and `a%2Fb` is one segment that no literal without a slash matches.
    private func literalChild(of at: Int, raw: UnsafeBufferPointer<UInt8>) -> Int? {
        guard PathDecoding.needsDecoding(raw) else { return child(of: at, raw) }
        guard case .success(let decoded) = PathDecoding.decode(raw) else { return nil }
        return decoded.withUnsafeBufferPointer { child(of: at, $0) }
    }

    /// The next non-empty segment of `path` at or after `from`; nil when none is left.
    static func segment(in path: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int>? {
        let slash = UInt8(ascii: "/")
        var start = from
        while start < path.count && path[start] == slash { start += 1 }
        guard start < path.count else { return nil }
        var end = start
        while end < path.count && path[end] != slash { end += 1 }
        return start..<end
    }
}
