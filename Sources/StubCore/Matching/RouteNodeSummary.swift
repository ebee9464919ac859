/// What a lookup reads of a route node, packed in 48 bytes (inside the edge's slot, for a node
/// with a literal segment): the start of its segment, its children and the first route ending
/// there and at its parameter child. The node itself (`RouteNode`) keeps the rest, for longer
/// segments, more methods and near misses.
struct RouteNodeSummary: Sendable {
    /// The segment's first 16 bytes, zero-padded.
    var head: (UInt64, UInt64) = (0, 0)
    /// The segment's length in bytes.
    var length: Int32 = 0
    /// The parameter child, or -1.
    var parameter: Int32 = -1
    /// How many routes end here (at most `Int16.max`: a lookup only asks whether more than one).
    var endpoints: Int16 = 0
    /// How many mixed-segment children (`{Sid}.json`) the node has: with none, a lookup tries none.
    var patterns: Int16 = 0
    /// The method (an index into `RouteMatcher.methods`) and route of the first route ending here.
    var firstMethod: Int32 = -1
    var firstRoute: Int32 = -1
    /// How many literal children the node has: with none, a lookup skips the probe for one.
    var literals: Int32 = 0
    /// The method and route of the first route ending at the parameter child, so a path that ends
    /// there needs no other read.
    var parameterMethod: Int32 = -1
    var parameterRoute: Int32 = -1

    /// An empty summary.
    init() {}

    /// Summarises `node`, whose parameter child is `parameterChild`; `methods` lists the
    /// matcher's methods by index.
    init(_ node: RouteNode, parameterChild: RouteNode? = nil, methods: [String]) {
        length = Int32(truncatingIfNeeded: node.segment.count)
        head = node.segment.withUnsafeBufferPointer(RouteNodeSummary.head)
        parameter = node.parameter.map { Int32(truncatingIfNeeded: $0) } ?? -1
        endpoints = Int16(min(node.endpoints.count, Int(Int16.max)))
        patterns = Int16(min(node.patterns.count, Int(Int16.max)))
        if let first = node.endpoints.first, let method = methods.firstIndex(of: first.method) {
            firstMethod = Int32(truncatingIfNeeded: method)
            firstRoute = Int32(truncatingIfNeeded: first.route)
        }
        literals = Int32(truncatingIfNeeded: node.literalOrder.count)
        if let first = parameterChild?.endpoints.first, let method = methods.firstIndex(of: first.method) {
            parameterMethod = Int32(truncatingIfNeeded: method)
            parameterRoute = Int32(truncatingIfNeeded: first.route)
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
        var first: UInt64 = 0, second: UInt64 = 0
        for i in 0..<min(bytes.count, 8) { first |= UInt64(bytes[i]) << (8 * i) }
        for i in 8..<max(8, min(bytes.count, 16)) { second |= UInt64(bytes[i]) << (8 * (i - 8)) }
        return (first, second)
    }
}
