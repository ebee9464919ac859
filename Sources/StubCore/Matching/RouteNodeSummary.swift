/// What a lookup reads of a route node, packed side by side with the other nodes' summaries: the
/// start of its segment, the parameter child and the first route ending there. The node itself
/// (`RouteNode`) keeps the rest, for longer segments, more methods and near misses.
struct RouteNodeSummary: Sendable {
    /// The segment's first 16 bytes, zero-padded.
    var head: (UInt64, UInt64) = (0, 0)
    /// The segment's length in bytes.
    var length: Int32 = 0
    /// The parameter child, or -1.
    var parameter: Int32 = -1
    /// How many routes end here.
    var endpoints: Int32 = 0
    /// The method (an index into `RouteMatcher.methods`) and route of the first route ending here.
    var firstMethod: Int32 = -1
    var firstRoute: Int32 = -1

    /// Summarises `node`; `methods` lists the matcher's methods by index.
    init(_ node: RouteNode, methods: [String]) {
        length = Int32(truncatingIfNeeded: node.segment.count)
        head = RouteNodeSummary.head(of: node.segment.withUnsafeBufferPointer { $0 })
        parameter = node.parameter.map { Int32(truncatingIfNeeded: $0) } ?? -1
        endpoints = Int32(truncatingIfNeeded: node.endpoints.count)
        if let first = node.endpoints.first, let method = methods.firstIndex(of: first.method) {
            firstMethod = Int32(truncatingIfNeeded: method)
            firstRoute = Int32(truncatingIfNeeded: first.route)
        }
    }

    /// True when `bytes` may be the segment: same length and same first 16 bytes. Only a longer
    /// segment needs the whole comparison.
    @inline(__always)
    func mayMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(length) == bytes.count else { return false }
        let other = RouteNodeSummary.head(of: bytes)
        return other.0 == head.0 && other.1 == head.1
    }

    /// The first 16 bytes of `bytes`, zero-padded.
    @inline(__always)
    static func head(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        guard let base = bytes.baseAddress else { return words }
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: min(bytes.count, 16)) }
        return words
    }
}
