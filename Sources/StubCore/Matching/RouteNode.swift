/// One node of the route tree: the literal text that leads to it, its children, and the routes
/// whose templates end here. A lookup reads its `RouteNodeSummary` instead.
struct RouteNode: Sendable {
    /// The literal segment that leads here, as UTF-8 (empty for the root and parameter nodes).
    var segment: [UInt8] = []
    /// The literal children in the order they were added, for a stable near-miss walk (a lookup
    /// finds them in `RouteEdges`).
    var literalOrder: [Int] = []
    /// The children for mixed segments (`{Sid}.json`), those with more literal bytes first; a
    /// lookup tries them after the literal child and before the parameter child.
    var patterns: [(pattern: SegmentPattern, child: Int)] = []
    /// The child that takes any one segment.
    var parameter: Int?
    var parent: Int?
    /// Routes whose template ends here.
    var endpoints: [RouteMatcher.Endpoint] = []

    init(segment: [UInt8] = [], parent: Int? = nil) {
        self.segment = segment
        self.parent = parent
    }

    /// True when `bytes` is this node's segment.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        segment.count == bytes.count && segment.elementsEqual(bytes)
    }

    /// FNV-1a over a segment's bytes: cheap for the short segments of paths.
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h = hashStart
        for byte in bytes { h = hash(h, byte) }
        return h
    }

    /// The hash of no bytes, to feed `hash(_:_:)` one byte at a time.
    static let hashStart: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash `h` followed by `byte`.
    @inline(__always)
    static func hash(_ h: UInt64, _ byte: UInt8) -> UInt64 {
        (h ^ UInt64(byte)) &* 0x100_0000_01b3
    }
}
