import StubSystem

/// The queries a server has been sent in full with their hashes (automatic persisted queries):
/// a hash arriving alone is answered `PersistedQueryNotFound` until its query has been seen once,
/// as Apollo's protocol expects. Bounded: past `capacity` the oldest hashes are forgotten, and a
/// client whose hash was forgotten simply sends its query again.
package final class PersistedQueries: Sendable {
    private struct State {
        var queries: [String: String] = [:]
        var order: [String] = []
        var start = 0
    }

    private let state = Locked(State())
    /// How many queries are remembered.
    package let capacity: Int

    /// An empty store remembering at most `capacity` queries.
    package init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The query last sent with `hash`, if it is remembered.
    package func query(for hash: String) -> String? {
        state.withLock { $0.queries[hash] }
    }

    /// Remembers `query` under `hash`.
    package func remember(_ query: String, hash: String) {
        state.withLock { s in
            guard s.queries.updateValue(query, forKey: hash) == nil else { return }
            if s.order.count < capacity {
                s.order.append(hash)
                return
            }
            s.queries[s.order[s.start]] = nil
            s.order[s.start] = hash
            s.start = (s.start + 1) % capacity
        }
    }

    /// Forgets every query (a reset of the server's state).
    package func removeAll() {
        state.withLock { $0 = State() }
    }
}
