/// One segment of a request path, as a lookup cut it: where it lies, its hash (as
/// `RouteNode.hash`) and whether it holds a percent escape (then it is decoded before a literal
/// is looked up).
struct PathSegment {
    var start: Int32
    var end: Int32
    var hash: UInt64
    var escaped: Bool
}

extension RouteMatcher {
    /// The route for `method` at `path` (HEAD falls back to GET), or nil.
    ///
    /// The path is cut into segments once, each hashed as it is read; the slot of
    /// every literal step is asked for at the same time (`RouteEdges.prefetch`), from the path
    /// alone, so with a table too large for the cache the steps' memory arrives together.
    func route(for method: String, _ path: UnsafeBufferPointer<UInt8>) -> Int? {
        let methodIndex = methods.firstIndex(of: method)
        let fallback = method == "HEAD" ? methods.firstIndex(of: "GET") : nil
        guard methodIndex != nil || fallback != nil else { return nil }
        let segments = cut(path)
        if let methodIndex, let found = find(0, summaries[0], identity: RouteEdges.root, path, segments, depth: 0, method: methodIndex) {
            return found
        }
        guard let fallback else { return nil }
        return find(0, summaries[0], identity: RouteEdges.root, path, segments, depth: 0, method: fallback)
    }

    /// The segments of `path`; asks for the slots of the first eight, until one needs decoding.
    /// (An array: cutting into a stack buffer saved 1% of instructions, not the 2% of server CPU
    /// an unsafe form must earn; bench/README.md.)
    private func cut(_ path: UnsafeBufferPointer<UInt8>) -> [PathSegment] {
        let slash = UInt8(ascii: "/"), percent = UInt8(ascii: "%")
        var segments: [PathSegment] = []
        segments.reserveCapacity(8)
        var at = 0
        var identity = RouteEdges.root
        var prefetching = true
        while at < path.count {
            if path[at] == slash { at += 1; continue }
            let start = at
            var hash = RouteNode.hashStart
            var escaped = false
            while at < path.count, path[at] != slash {
                escaped = escaped || path[at] == percent
                hash = RouteNode.hash(hash, path[at])
                at += 1
            }
            segments.append(PathSegment(start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: at), hash: hash, escaped: escaped))
            prefetching = prefetching && !escaped && segments.count <= 8
            if prefetching {
                identity = RouteEdges.identity(after: identity, segment: hash)
                edges.prefetch(identity: identity)
            }
        }
        return segments
    }

    /// The first route for the method at `methodIndex` of `methods` below node `at`, whose summary
    /// is `summary` and identity `identity`, for the segments from `depth` on. Literal children
    /// are tried before the parameter child, so the most specific template wins.
    private func find(_ at: Int, _ summary: RouteNodeSummary, identity: UInt64, _ path: UnsafeBufferPointer<UInt8>,
                      _ segments: [PathSegment], depth: Int, method methodIndex: Int) -> Int? {
        guard depth < segments.count else { return endpoint(at, summary, method: methodIndex) }
        let segment = segments[depth]
        if summary.literals > 0 {
            let text = UnsafeBufferPointer(rebasing: path[Int(segment.start)..<Int(segment.end)])
            let index = segment.escaped ? literalSlot(of: at, identity: identity, raw: text) : slot(of: at, identity: identity, text, hash: segment.hash)
            if index >= 0 {
                let literal = edges.slots[index]
                if let found = find(Int(literal.child), literal.summary, identity: literal.key, path, segments,
                                    depth: depth + 1, method: methodIndex) {
                    return found
                }
            }
        }
        if summary.patterns > 0, let found = findAmongPatterns(at, path, segments, depth: depth, method: methodIndex) { return found }
        let parameter = Int(summary.parameter)
        guard parameter >= 0 else { return nil }
        // A path that ends at the parameter child finds its first route in this summary.
        if depth + 1 == segments.count && Int(summary.parameterMethod) == methodIndex { return Int(summary.parameterRoute) }
        return find(parameter, summaries[parameter], identity: RouteEdges.identity(after: identity, segment: RouteEdges.parameterStep), path,
                    segments, depth: depth + 1, method: methodIndex)
    }

    /// The first route below a mixed-segment child of node `at` whose pattern matches the segment
    /// at `depth` (decoded), for the segments after it.
    private func findAmongPatterns(_ at: Int, _ path: UnsafeBufferPointer<UInt8>, _ segments: [PathSegment], depth: Int,
                                   method methodIndex: Int) -> Int? {
        let segment = segments[depth]
        let raw = UnsafeBufferPointer(rebasing: path[Int(segment.start)..<Int(segment.end)])
        guard segment.escaped else { return findAmongPatterns(at, decoded: raw, path, segments, depth: depth, method: methodIndex) }
        guard case .success(let decoded) = PathDecoding.decode(raw) else { return nil }
        return decoded.withUnsafeBufferPointer { findAmongPatterns(at, decoded: $0, path, segments, depth: depth, method: methodIndex) }
    }

    /// As above, with the segment at `depth` decoded. A loop over the node's patterns, with
    /// nothing allocated, so a mixed segment costs about what a parameter does.
    private func findAmongPatterns(_ at: Int, decoded: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>,
                                   _ segments: [PathSegment], depth: Int, method methodIndex: Int) -> Int? {
        for (pattern, child) in nodes[at].patterns where pattern.matches(decoded) {
            if let found = find(child, summaries[child], identity: identities[child], path, segments, depth: depth + 1, method: methodIndex) {
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
