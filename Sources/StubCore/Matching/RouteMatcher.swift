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

    let nodes: [RouteNode]
    let templates: [PathTemplate]
    /// Every literal edge, for lookups.
    private let edges: RouteEdges
    /// What a lookup reads of each node, by node index.
    private let summaries: [RouteNodeSummary]
    /// The methods routes answer, in the order first met: a summary names one by its index.
    private let methods: [String]

    /// A literal edge while the tree is built.
    private struct Edge: Hashable {
        var parent: Int
        var segment: [UInt8]
    }

    /// Indexes routes by their templates.
    package init(routes: [Route]) {
        var nodes = [RouteNode()]
        var literals: [Edge: Int] = [:]
        var methods: [String] = []
        templates = routes.map(\.template)
        // Operation routes share their endpoint's method and path; `GraphQLEndpoints` finds them.
        for (index, route) in routes.enumerated() where route.operation == nil {
            var at = 0
            for segment in route.template.segments {
                switch segment {
                case .literal(let text):
                    let edge = Edge(parent: at, segment: Array(text.utf8))
                    if let found = literals[edge] { at = found; continue }
                    nodes.append(RouteNode(segment: edge.segment, parent: at))
                    nodes[at].literalOrder.append(nodes.count - 1)
                    literals[edge] = nodes.count - 1
                    at = nodes.count - 1
                case .parameter:
                    if let next = nodes[at].parameter { at = next; continue }
                    nodes.append(RouteNode(parent: at))
                    nodes[at].parameter = nodes.count - 1
                    at = nodes.count - 1
                }
            }
            nodes[at].endpoints.append(Endpoint(method: route.method, route: index))
            if !methods.contains(route.method) { methods.append(route.method) }
        }
        var edges = RouteEdges(count: literals.count)
        for (edge, child) in literals { edges.insert(parent: edge.parent, key: RouteNode.hash(edge.segment), child: child) }
        self.nodes = nodes
        self.edges = edges
        self.methods = methods
        summaries = nodes.map { RouteNodeSummary($0, methods: methods) }
    }

    /// The literal child of `at` whose text is `segment`.
    func child(of at: Int, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        // A plain loop: a closure here would capture (and retain) the matcher's arrays per call.
        let key = RouteNode.hash(segment)
        let parent = Int32(truncatingIfNeeded: at)
        var slot = edges.start(parent: at, key: key)
        while true {
            let edge = edges.slots[slot]
            if edge.child < 0 { return nil }
            if edge.key == key && edge.parent == parent {
                let child = Int(edge.child)
                if summaries[child].mayMatch(segment) && (segment.count <= 16 || nodes[child].matches(segment)) { return child }
            }
            slot = (slot + 1) & edges.mask
        }
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
            if let index = route(for: method, bytes) ?? (method == "HEAD" ? route(for: "GET", bytes) : nil) { return .route(index) }
            var allowed: Set<String> = []
            collectMethods(0, bytes, from: 0, into: &allowed)
            guard !allowed.isEmpty else { return .notFound }
            if allowed.contains("GET") { allowed.insert("HEAD") }
            return .methodNotAllowed(allowed: allowed.sorted())
        }
    }

    private func route(for method: String, _ path: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let methodIndex = methods.firstIndex(of: method) else { return nil }
        return find(0, path, from: 0, method: methodIndex)
    }

    // The two walks below visit the nodes that match the path from `from` depth first, literal
    // children before the parameter child, so end nodes are met from the most specific template
    // to the least. They are written out rather than sharing a walk that takes a closure: the
    // closure would capture (and retain) the matcher's arrays on every request.

    /// The first route for the method at `methodIndex` of `methods` below node `at`.
    private func find(_ at: Int, _ path: UnsafeBufferPointer<UInt8>, from: Int, method methodIndex: Int) -> Int? {
        guard let segment = RouteMatcher.segment(in: path, from: from) else { return endpoint(at, method: methodIndex) }
        let text = UnsafeBufferPointer(rebasing: path[segment])
        if let literal = literalChild(of: at, raw: text), let found = find(literal, path, from: segment.upperBound, method: methodIndex) {
            return found
        }
        let parameter = summaries[at].parameter
        guard parameter >= 0 else { return nil }
        return find(Int(parameter), path, from: segment.upperBound, method: methodIndex)
    }

    /// Every method of the routes below node `at` whose template matches the whole path.
    private func collectMethods(_ at: Int, _ path: UnsafeBufferPointer<UInt8>, from: Int, into allowed: inout Set<String>) {
        guard let segment = RouteMatcher.segment(in: path, from: from) else {
            for endpoint in nodes[at].endpoints { allowed.insert(endpoint.method) }
            return
        }
        let text = UnsafeBufferPointer(rebasing: path[segment])
        if let literal = literalChild(of: at, raw: text) { collectMethods(literal, path, from: segment.upperBound, into: &allowed) }
        if let parameter = nodes[at].parameter { collectMethods(parameter, path, from: segment.upperBound, into: &allowed) }
    }

    /// The route ending at node `at` for the method at `methodIndex` of `methods`.
    private func endpoint(_ at: Int, method methodIndex: Int) -> Int? {
        let summary = summaries[at]
        if Int(summary.firstMethod) == methodIndex { return Int(summary.firstRoute) }
        guard summary.endpoints > 1 else { return nil }
        let method = methods[methodIndex]
        return nodes[at].endpoints.first { $0.method == method }?.route
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
