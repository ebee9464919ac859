/// One segment of a request path, as a lookup cuts it: where it lies, its hash (as
/// `RouteNode.hash`) and whether it holds a percent escape (then it is decoded before a literal
/// is looked up).
struct PathSegment {
    var start: Int
    var end: Int
    var hash: UInt64
    var escaped: Bool

    /// The first segment of `path` at or after `from` (empty segments skipped, as the route
    /// tree has none), or nil when only slashes are left. Cut and hashed in one pass
    /// (`RouteMatcher.segment` and a second pass over its bytes cost 320 more instructions per
    /// request).
    static func first(in path: UnsafeBufferPointer<UInt8>, from: Int) -> PathSegment? {
        let slash = UInt8(ascii: "/"), percent = UInt8(ascii: "%")
        var at = from
        while at < path.count, path[at] == slash { at += 1 }
        guard at < path.count else { return nil }
        let start = at
        var hash = RouteNode.hashStart
        var escaped = false
        while at < path.count, path[at] != slash {
            escaped = escaped || path[at] == percent
            hash = RouteNode.hash(hash, path[at])
            at += 1
        }
        return PathSegment(start: start, end: at, hash: hash, escaped: escaped)
    }
}

extension RouteMatcher {
    /// The route for `method` at `path` (HEAD falls back to GET), or nil.
    ///
    /// The slot of every literal step is asked for first, from the path alone
    /// (`RouteEdges.prefetch`), so with a table too large for the cache the steps' memory arrives
    /// together; the walk then cuts each segment as it reaches it. (Nothing is allocated: the
    /// segments kept in an array cost 470 instructions and 10 cache misses per request on the
    /// 10,000-route table, bench/instructions.py --cache-sim.)
    func route(for method: String, _ path: UnsafeBufferPointer<UInt8>) -> Int? {
        let methodIndex = methods.firstIndex(of: method)
        let fallback = method == "HEAD" ? methods.firstIndex(of: "GET") : nil
        guard methodIndex != nil || fallback != nil else { return nil }
        prefetchSteps(path)
        if let methodIndex, let found = find(0, summaries[0], identity: RouteEdges.root, path, from: 0, method: methodIndex) {
            return found
        }
        guard let fallback else { return nil }
        return find(0, summaries[0], identity: RouteEdges.root, path, from: 0, method: fallback)
    }

    /// Asks for the slots of the path's first eight literal steps, until a segment needs decoding.
    private func prefetchSteps(_ path: UnsafeBufferPointer<UInt8>) {
        var identity = RouteEdges.root
        var from = 0
        for _ in 0..<8 {
            guard let segment = PathSegment.first(in: path, from: from), !segment.escaped else { return }
            identity = RouteEdges.identity(after: identity, segment: segment.hash)
            edges.prefetch(identity: identity)
            from = segment.end
        }
    }

    /// The first route for the method at `methodIndex` of `methods` below node `at`, whose summary
    /// is `summary` and identity `identity`, for the path from byte `from` on. Literal children
    /// are tried before the parameter child, so the most specific template wins.
    private func find(_ at: Int, _ summary: RouteNodeSummary, identity: UInt64, _ path: UnsafeBufferPointer<UInt8>,
                      from: Int, method methodIndex: Int) -> Int? {
        guard let segment = PathSegment.first(in: path, from: from) else { return endpoint(at, summary, method: methodIndex) }
        if summary.literals > 0 {
            let text = UnsafeBufferPointer(rebasing: path[segment.start..<segment.end])
            let index = segment.escaped ? literalSlot(of: at, identity: identity, raw: text) : slot(of: at, identity: identity, text, hash: segment.hash)
            if index >= 0 {
                let literal = edges.slots[index]
                if let found = find(Int(literal.child), literal.summary, identity: literal.key, path, from: segment.end, method: methodIndex) {
                    return found
                }
            }
        }
        if summary.patterns > 0, let found = findAmongPatterns(at, path, segment, method: methodIndex) { return found }
        let parameter = Int(summary.parameter)
        guard parameter >= 0 else { return nil }
        // A path that ends at the parameter child finds its first route in this summary.
        if Int(summary.parameterMethod) == methodIndex && RouteMatcher.segment(in: path, from: segment.end) == nil { return Int(summary.parameterRoute) }
        return find(parameter, summaries[parameter], identity: RouteEdges.identity(after: identity, segment: RouteEdges.parameterStep), path,
                    from: segment.end, method: methodIndex)
    }

    /// The first route below a mixed-segment child of node `at` whose pattern matches `segment`
    /// (decoded), for the segments after it.
    private func findAmongPatterns(_ at: Int, _ path: UnsafeBufferPointer<UInt8>, _ segment: PathSegment, method methodIndex: Int) -> Int? {
        let raw = UnsafeBufferPointer(rebasing: path[segment.start..<segment.end])
        guard segment.escaped else { return findAmongPatterns(at, decoded: raw, path, after: segment.end, method: methodIndex) }
        guard case .success(let decoded) = PathDecoding.decode(raw) else { return nil }
        return decoded.withUnsafeBufferPointer { findAmongPatterns(at, decoded: $0, path, after: segment.end, method: methodIndex) }
    }

    /// As above, with the segment decoded and the rest of the path from byte `after`. A loop over
    /// the node's patterns, with nothing allocated, so a mixed segment costs about what a
    /// parameter does.
    private func findAmongPatterns(_ at: Int, decoded: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>,
                                   after: Int, method methodIndex: Int) -> Int? {
        for (pattern, child) in nodes[at].patterns where pattern.matches(decoded) {
            if let found = find(child, summaries[child], identity: identities[child], path, from: after, method: methodIndex) {
                return found
            }
        }
        return nil
    }

    /// The mixed-segment children of node `at` whose pattern matches `raw`, a segment as sent
    /// (decoded first, as for a literal), in the order a lookup tries them.
    func patternChildren(of at: Int, raw: UnsafeBufferPointer<UInt8>) -> [Int] {
        let patterns = nodes[at].patterns
        guard !patterns.isEmpty else { return [] }
        func matching(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
            patterns.compactMap { $0.pattern.matches(bytes) ? $0.child : nil }
        }
        guard PathDecoding.needsDecoding(raw) else { return matching(raw) }
        guard case .success(let decoded) = PathDecoding.decode(raw) else { return [] }
        return decoded.withUnsafeBufferPointer(matching)
    }

    /// The route ending at node `at`, summarised by `summary`, for the method at `methodIndex` of
    /// `methods`.
    private func endpoint(_ at: Int, _ summary: RouteNodeSummary, method methodIndex: Int) -> Int? {
        if Int(summary.firstMethod) == methodIndex { return Int(summary.firstRoute) }
        guard summary.endpoints > 1 else { return nil }
        let method = methods[methodIndex]
        return nodes[at].endpoints.first { $0.method == method }?.route
    }
}
