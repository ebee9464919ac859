#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One node of the route tree: the literal text that leads to it, its children, and the routes
/// whose templates end here.
struct RouteNode: Sendable {
    /// The literal segment that leads here, as UTF-8 (empty for the root and parameter nodes).
    var segment: [UInt8] = []
    /// Literal children by the hash of their segment; -1 marks a hash two children share, whose
    /// children are then in `collided`.
    var literals: [UInt64: Int] = [:]
    /// Children whose segment hashes collide, compared one by one.
    var collided: [Int] = []
    /// The literal children in the order they were added, for a stable near-miss walk.
    var literalOrder: [Int] = []
    /// The child that takes any one segment.
    var parameter: Int?
    var parent: Int?
    /// Routes whose template ends here.
    var endpoints: [RouteMatcher.Endpoint] = []

    /// Up to this many literal children are compared one by one instead of looked up by hash.
    static let scanLimit = 4

    init(segment: [UInt8] = [], parent: Int? = nil) {
        self.segment = segment
        self.parent = parent
    }

    /// Records `child` (whose segment hashes to `hash`) as a literal child.
    mutating func add(literal child: Int, hash: UInt64) {
        literalOrder.append(child)
        switch literals[hash] {
        case nil: literals[hash] = child
        case -1: collided.append(child)
        case let other?:
            literals[hash] = -1
            collided += [other, child]
        }
    }

    /// True when `bytes` is this node's segment.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count == bytes.count else { return false }
        guard let other = bytes.baseAddress, !bytes.isEmpty else { return true }
        return segment.withUnsafeBufferPointer { memcmp($0.baseAddress!, other, bytes.count) == 0 }
    }

    /// FNV-1a over a segment's bytes: cheap for the short segments of paths.
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h
    }
}
