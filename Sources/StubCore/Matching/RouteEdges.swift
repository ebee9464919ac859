/// Every literal edge of the route tree in one open-addressed table: a lookup reads one or two
/// neighbouring slots, where a dictionary per node read its bitmap, keys and values apart. With
/// 10,000 routes the tree no longer fits in a core's cache, so each place read costs a miss.
struct RouteEdges: Sendable {
    /// One edge: the segment's hash, the node it leaves and the node it leads to (-1: empty).
    struct Slot: Sendable {
        var key: UInt64 = 0
        var parent: Int32 = -1
        var child: Int32 = -1
    }

    /// The slots; a lookup probes from `start(parent:key:)` to the first empty one.
    private(set) var slots: [Slot]
    /// The table's size minus one (a power of two minus one).
    let mask: Int

    /// A table sized for `count` edges, at most two thirds full so probes stay short.
    init(count: Int) {
        var capacity = 1
        while capacity < count + count / 2 + 1 { capacity <<= 1 }
        slots = Array(repeating: Slot(), count: capacity)
        mask = capacity - 1
    }

    /// Adds the edge from `parent` to `child` for a segment hashing to `key`.
    mutating func insert(parent: Int, key: UInt64, child: Int) {
        var at = start(parent: parent, key: key)
        while slots[at].child >= 0 { at = (at + 1) & mask }
        slots[at] = Slot(key: key, parent: Int32(truncatingIfNeeded: parent), child: Int32(truncatingIfNeeded: child))
    }

    /// The first slot to probe: the key and the parent mixed, so the same segment under many
    /// parents (`items` below every id) spreads over the table.
    /// (`RouteMatcher.child(of:_:)` probes from here; it compares the segment itself, as two
    /// segments may share a hash.)
    @inline(__always)
    func start(parent: Int, key: UInt64) -> Int {
        var h = key ^ (UInt64(truncatingIfNeeded: parent) &* 0x9E37_79B9_7F4A_7C15)
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h) & mask
    }
}
