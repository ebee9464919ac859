import StubSystem

/// Every literal edge of the route tree in one open-addressed table, each slot one cache line
/// holding the edge and the summary of the node it leads to. With 10,000 routes the tree no
/// longer fits in a core's cache, so each place a lookup reads costs a wait for memory.
///
/// A slot's key is the child's identity: a hash of every segment on the way from the root
/// (`identity(after:segment:)`), not of the parent's index. So a lookup can work out, from the
/// path alone, where the slot of every literal step lies and ask for all of them at once
/// (`prefetch(identity:)`), instead of learning each step's address from the one before.
struct RouteEdges: @unchecked Sendable {
    // Safe to share: `slots` points into `storage`, which this value keeps alive and nobody
    // writes after the table is built.
    /// One edge: the child's identity, the node it leaves, the node it leads to (-1: empty) and
    /// what a lookup reads of that node.
    struct Slot: Sendable {
        var key: UInt64 = 0
        var parent: Int32 = -1
        var child: Int32 = -1
        var summary = RouteNodeSummary()
    }

    /// Owns the slots' memory.
    private let storage: SlotStorage
    /// The slots, one per cache line; a lookup probes from the key's slot to the first empty one.
    /// (Read through the pointer, so a lookup neither copies a whole slot nor retains the owner.)
    let slots: UnsafePointer<Slot>
    /// The table's size minus one (a power of two minus one).
    let mask: Int

    /// The identity of the root node.
    static let root: UInt64 = 0x243F_6A88_85A3_08D3
    /// What a parameter step mixes into an identity in place of a segment's hash.
    static let parameterStep: UInt64 = 0x1319_8A2E_0370_7344

    /// A table for `slots` edges, at most half full: a probe past the first slot reads another
    /// cache line.
    init(_ slots: [Slot]) {
        var capacity = 1
        while capacity < 2 * slots.count + 1 { capacity <<= 1 }
        mask = capacity - 1
        storage = SlotStorage(capacity: capacity)
        for slot in slots {
            var at = Int(truncatingIfNeeded: slot.key) & mask
            while storage.slots[at].child >= 0 { at = (at + 1) & mask }
            storage.slots[at] = slot
        }
        self.slots = UnsafePointer(storage.slots)
    }

    /// The identity of the node a step from the node with identity `parent` leads to, for a
    /// segment hashing to `segment` (or `parameterStep`). Mixed well, so that the same segment
    /// under many parents (`items` below every id) spreads over the table.
    @inline(__always)
    static func identity(after parent: UInt64, segment: UInt64) -> UInt64 {
        var h = segment ^ (parent &* 0x9E37_79B9_7F4A_7C15)
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return h
    }

    /// Asks for the slot where a lookup starts for the node with `identity`.
    @inline(__always)
    func prefetch(identity: UInt64) {
        Prefetch.forReading(slots + (Int(truncatingIfNeeded: identity) & mask))
    }
}

/// The slots' memory, aligned so that each slot is exactly one cache line.
private final class SlotStorage: @unchecked Sendable {
    // Safe to share: written only while the table is built, before the matcher is published,
    // and read-only after that.
    let slots: UnsafeMutablePointer<RouteEdges.Slot>

    init(capacity: Int) {
        precondition(MemoryLayout<RouteEdges.Slot>.stride == 64, "a slot must fill one cache line")
        let raw = UnsafeMutableRawPointer.allocate(byteCount: capacity * 64, alignment: 64)
        slots = raw.bindMemory(to: RouteEdges.Slot.self, capacity: capacity)
        slots.initialize(repeating: RouteEdges.Slot(), count: capacity)
    }

    deinit { slots.deallocate() }
}
