/// Near misses for the 404 body (WireMock's name for them), at a cost bounded whatever the table
/// size or the request: candidates come from the deepest part of the route tree the path reaches,
/// and the compared text is cut to a fixed length.
extension RouteMatcher {
    /// Routes ranked by edit distance at most, per 404.
    static let nearMissCandidates = 16
    /// Bytes of the request line and of each route compared, so a huge segment costs no more.
    static let nearMissComparedBytes = 64
    /// Tree nodes looked at while gathering candidates.
    static let nearMissVisitedNodes = 2048

    /// Up to `limit` routes closest to the request, closest first.
    package func nearMisses(method: String, path: String, in routes: [Route], limit: Int = 3) -> [Route] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var wanted = CappedBytes()
        wanted.append(method.utf8)
        wanted.append(" /".utf8)
        for (i, segment) in segments.enumerated() where !wanted.isFull {
            if i > 0 { wanted.append("/".utf8) }
            wanted.append(segment.utf8)
        }
        let ranked = candidates(near: segments).map { index -> (index: Int, distance: Int) in
            var shaped = CappedBytes()
            shaped.append(routes[index].method.utf8)
            shaped.append(" /".utf8)
            for (i, segment) in templates[index].segments.enumerated() where !shaped.isFull {
                if i > 0 { shaped.append("/".utf8) }
                switch segment {
                case .literal(let text): shaped.append(text.utf8)
                // A template parameter costs nothing against the segment it would take.
                case .parameter: i < segments.count ? shaped.append(segments[i].utf8) : shaped.append("{}".utf8)
                case .pattern(let pattern):
                    var segment = i < segments.count ? String(segments[i]) : ""
                    segment.withUTF8 { pattern.match($0) != nil } ? shaped.append(segment.utf8) : shaped.append(pattern.shape.utf8)
                }
            }
            return (index, StringDistance.levenshtein(wanted.bytes, shaped.bytes))
        }
        return ranked.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }.prefix(limit).map { routes[$0.index] }
    }

    /// Route indices below the deepest node the path reaches, then below its ancestors, until
    /// there are enough. Depth first, so routes come from whole nearby subtrees rather than from a
    /// wide level of folders that hold none.
    func candidates(near segments: [Substring]) -> [Int] {
        var start = deepestNode(for: segments)
        var found: [Int] = []
        var seen: Set<Int> = []
        var visited = 0
        while true {
            var stack = [start]
            while let at = stack.popLast(), found.count < RouteMatcher.nearMissCandidates, visited < RouteMatcher.nearMissVisitedNodes {
                let node = nodes[at]
                visited += 1
                for endpoint in node.endpoints where seen.insert(endpoint.route).inserted { found.append(endpoint.route) }
                if let parameter = node.parameter { stack.append(parameter) }
                stack.append(contentsOf: node.patterns.map(\.child).reversed())
                stack.append(contentsOf: node.literalOrder.reversed())
            }
            guard found.count < RouteMatcher.nearMissCandidates, visited < RouteMatcher.nearMissVisitedNodes,
                  let parent = nodes[start].parent else { return found }
            start = parent
        }
    }

    /// The node reached by following the path as far as it goes, literal segments first.
    func deepestNode(for segments: [Substring]) -> Int {
        var at = 0
        for segment in segments {
            let bytes = Array(segment.utf8)
            guard let next = bytes.withUnsafeBufferPointer({ child(of: at, $0) ?? patternChildren(of: at, raw: $0).first }) ?? nodes[at].parameter
            else { break }
            at = next
        }
        return at
    }
}

/// Bytes collected up to `RouteMatcher.nearMissComparedBytes`; the rest is dropped, so a huge
/// segment costs no more to compare than a short one.
struct CappedBytes {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(RouteMatcher.nearMissComparedBytes) }

    var isFull: Bool { bytes.count >= RouteMatcher.nearMissComparedBytes }

    mutating func append<Bytes: Sequence>(_ more: Bytes) where Bytes.Element == UInt8 {
        for byte in more {
            guard !isFull else { return }
            bytes.append(byte)
        }
    }
}
