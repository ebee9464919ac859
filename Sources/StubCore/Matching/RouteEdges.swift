import StubSystem

/// Every literal edge of the route tree in one open-addressed table, each slot holding the edge
/// and the summary of the node it leads to, so a lookup step reads one place (with 10,000 routes
/// the tree no longer fits in a core's cache, and each place read costs a wait for memory).
///
/// A slot's key is the child's identity: a hash of every segment on the way from the root
/// (`identity(after:segment:)`), not of the parent's index. So a lookup can work out, from the
/// path alone, where the slot of every literal step lies and ask for all of them at once
/// (`prefetch(identity:)`), instead of learning each step's address from the one before.
struct RouteEdges: Sendable {
    /// One edge: the child's identity, the node it leaves, the node it leads to (-1: empty) and
    /// what a lookup reads of that node.
    struct Slot: Sendable {
        var key: UInt64 = 0
        var parent: Int32 = -1
        var child: Int32 = -1
        var summary = RouteNodeSummary()
    }

    /// The slots; a lookup probes from the key's slot to the first empty one.
    let slots: [Slot]
    /// The table's size minus one (a power of two minus one).
    let mask: Int

    /// The identity of the root node.
    static let root: UInt64 = 0x243F_6A88_85A3_08D3
    /// What a parameter step mixes into an identity in place of a segment's hash.
    static let parameterStep: UInt64 = 0x1319_8A2E_0370_7344

    /// A table for `slots` edges, at most half full, so most probes stop at the first slot.
    init(_ slots: [Slot]) {
        var capacity = 1
        while capacity < 2 * slots.count + 1 { capacity <<= 1 }
        mask = capacity - 1
        var table = [Slot](repeating: Slot(), count: capacity)
        for slot in slots {
            var at = Int(truncatingIfNeeded: slot.key) & mask
            while table[at].child >= 0 { at = (at + 1) & mask }
            table[at] = slot
        }
        self.slots = table
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

    /// Asks for the slot where a lookup starts for the node with `identity`. Kept for its
    /// measured gain: server CPU per request on the 10,000-route table 0.97× with it (paired
    /// runs, bench/README.md); nothing on the small fixture.
    @inline(__always)
    func prefetch(identity: UInt64) {
        Prefetch.element(Int(truncatingIfNeeded: identity) & mask, of: slots)
    }
}
