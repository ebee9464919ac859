/// Finds the route for a method and path: literal segments beat mixed ones (`{Sid}.json`), which
/// beat parameters; HEAD falls back to GET.
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
    let edges: RouteEdges
    /// What a lookup reads of each node, by node index (a literal node's is in its edge's slot
    /// too, where lookups read it).
    let summaries: [RouteNodeSummary]
    /// Each node's identity, by node index (see `RouteEdges`).
    let identities: [UInt64]
    /// The methods routes answer, in the order first met: a summary names one by its index.
    let methods: [String]

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
                case .pattern(let pattern):
                    if let found = nodes[at].patterns.first(where: { $0.pattern.shape == pattern.shape }) { at = found.child; continue }
                    nodes.append(RouteNode(segment: Array(pattern.shape.utf8), parent: at))
                    let place = nodes[at].patterns.firstIndex { $0.pattern.literalBytes < pattern.literalBytes } ?? nodes[at].patterns.endIndex
                    nodes[at].patterns.insert((pattern, nodes.count - 1), at: place)
                    at = nodes.count - 1
                }
            }
            nodes[at].endpoints.append(Endpoint(method: route.method, route: index))
            if !methods.contains(route.method) { methods.append(route.method) }
        }
        // A node is added after its parent, so one pass in order gives every identity.
        var identities = [RouteEdges.root]
        for index in nodes.indices.dropFirst() {
            let parent = nodes[index].parent ?? 0
            // A mixed segment's node steps by its shape's hash with a byte no literal holds.
            let isPattern = nodes[parent].patterns.contains { $0.child == index }
            let step = nodes[parent].parameter == index ? RouteEdges.parameterStep
                : isPattern ? RouteNode.hash(nodes[index].segment + [0xFE]) : RouteNode.hash(nodes[index].segment)
            identities.append(RouteEdges.identity(after: identities[parent], segment: step))
        }
        let summaries = nodes.map { RouteNodeSummary($0, parameterChild: $0.parameter.map { nodes[$0] }, methods: methods) }
        edges = RouteEdges(literals.map { edge, child in
            RouteEdges.Slot(key: identities[child], parent: Int32(truncatingIfNeeded: edge.parent), child: Int32(truncatingIfNeeded: child),
                            summary: summaries[child])
        })
        self.nodes = nodes
        self.methods = methods
        self.summaries = summaries
        self.identities = identities
    }

    /// The literal child of `at` whose text is `segment`.
    func child(of at: Int, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        let slot = slot(of: at, identity: identities[at], segment)
        return slot < 0 ? nil : Int(edges.slots[slot].child)
    }

    /// The index of the slot of the edge from node `at`, whose identity is `identity`, for
    /// `segment`; -1 for none.
    @inline(__always)
    func slot(of at: Int, identity: UInt64, _ segment: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil) -> Int {
        // A plain loop: a closure here would capture (and retain) the matcher's arrays per call.
        let key = RouteEdges.identity(after: identity, segment: hash ?? RouteNode.hash(segment))
        let parent = Int32(truncatingIfNeeded: at)
        var index = Int(truncatingIfNeeded: key) & edges.mask
        while true {
            let slot = edges.slots[index]
            if slot.child < 0 { return -1 }
            // Two segments may share a hash, and two parents an identity: compare both.
            if slot.key == key && slot.parent == parent && slot.summary.mayMatch(segment)
                && (segment.count <= 16 || nodes[Int(slot.child)].matches(segment)) {
                return index
            }
            index = (index + 1) & edges.mask
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
            if let index = route(for: method, bytes) { return .route(index) }
            var allowed: Set<String> = []
            collectMethods(0, bytes, from: 0, into: &allowed)
            guard !allowed.isEmpty else { return .notFound }
            if allowed.contains("GET") { allowed.insert("HEAD") }
            return .methodNotAllowed(allowed: allowed.sorted())
        }
    }

    // `collectMethods` visits the nodes that match the path from `from` depth first, as a lookup
    // does (`find`); it is written out rather than sharing a walk that takes a closure, which
    // would capture (and retain) the matcher's arrays on every request.

    /// Every method of the routes below node `at` whose template matches the whole path.
    private func collectMethods(_ at: Int, _ path: UnsafeBufferPointer<UInt8>, from: Int, into allowed: inout Set<String>) {
        guard let segment = RouteMatcher.segment(in: path, from: from) else {
            for endpoint in nodes[at].endpoints { allowed.insert(endpoint.method) }
            return
        }
        let text = UnsafeBufferPointer(rebasing: path[segment])
        if let literal = literalChild(of: at, raw: text) { collectMethods(literal, path, from: segment.upperBound, into: &allowed) }
        for child in patternChildren(of: at, raw: text) { collectMethods(child, path, from: segment.upperBound, into: &allowed) }
        if let parameter = nodes[at].parameter { collectMethods(parameter, path, from: segment.upperBound, into: &allowed) }
    }

    /// The literal child of `at` for a segment as sent: literals are matched decoded, so `%41`
    /// matches `A` and `a%2Fb` is one segment that no literal without a slash matches.
    private func literalChild(of at: Int, raw: UnsafeBufferPointer<UInt8>) -> Int? {
        let slot = literalSlot(of: at, identity: identities[at], raw: raw)
        return slot < 0 ? nil : Int(edges.slots[slot].child)
    }

    /// The index of that literal child's slot, for node `at` whose identity is `identity`; -1 for
    /// none.
    func literalSlot(of at: Int, identity: UInt64, raw: UnsafeBufferPointer<UInt8>) -> Int {
        guard PathDecoding.needsDecoding(raw) else { return slot(of: at, identity: identity, raw) }
        guard case .success(let decoded) = PathDecoding.decode(raw) else { return -1 }
        return decoded.withUnsafeBufferPointer { slot(of: at, identity: identity, $0) }
    }

    /// The next non-empty segment of `path` at or after `from`; nil when none is left. Inlined:
    /// walks along a request's path call it once per segment.
    @inline(__always)
    static func segment(in path: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int>? {
        let slash = UInt8(ascii: "/")
        var start = from
        while start < path.count && path[start] == slash { start += 1 }
        guard start < path.count else { return nil }
        var end = start
        while end < path.count && path[end] != slash { end += 1 }
        return Range(uncheckedBounds: (start, end))
    }
}
