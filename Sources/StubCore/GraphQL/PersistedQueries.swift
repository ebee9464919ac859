import StubSystem

/// The queries a server has been sent in full with their hashes (automatic persisted queries):
/// a hash arriving alone is answered `PersistedQueryNotFound` until its query has been seen once,
/// as Apollo's protocol expects. Bounded in count and in bytes: past either, the oldest hashes are
/// forgotten, and a client whose hash was forgotten simply sends its query again. (Without the
/// byte bound, many large queries with their hashes would hold memory without limit.)
package final class PersistedQueries: Sendable {
    private struct State {
        var queries: [String: String] = [:]
        /// Hashes, oldest first, from `start`.
        var order: [String] = []
        var start = 0
        var bytes = 0
    }

    private let state = Locked(State())
    /// How many queries are remembered at most.
    package let capacity: Int
    /// How many bytes of query text are remembered at most.
    package let byteCapacity: Int

    /// An empty store remembering at most `capacity` queries and `byteCapacity` bytes of them.
    package init(capacity: Int = 10_000, byteCapacity: Int = 16 << 20) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
    }

    /// The query last sent with `hash`, if it is remembered.
    package func query(for hash: String) -> String? {
        state.withLock { $0.queries[hash] }
    }

    /// How many queries and bytes are remembered now.
    package var counts: (queries: Int, bytes: Int) {
        state.withLock { ($0.queries.count, $0.bytes) }
    }

    /// Remembers `query` under `hash`; a query larger than the byte bound is not remembered.
    package func remember(_ query: String, hash: String) {
        let size = query.utf8.count
        guard size <= byteCapacity else { return }
        state.withLock { s in
            guard s.queries[hash] == nil else { return }
            while s.queries.count >= capacity || s.bytes + size > byteCapacity, s.start < s.order.count {
                let oldest = s.order[s.start]
                s.start += 1
                if let dropped = s.queries.removeValue(forKey: oldest) { s.bytes -= dropped.utf8.count }
            }
            // The order list is compacted once half of it is forgotten hashes.
            if s.start > 0 && s.start * 2 >= s.order.count {
                s.order.removeFirst(s.start)
                s.start = 0
            }
            s.queries[hash] = query
            s.order.append(hash)
            s.bytes += size
        }
    }
}
