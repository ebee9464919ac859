import StubSystem

/// The store of one process: every scope's written spaces in a dictionary under one lock. Calls
/// are short (a dictionary lookup, a compare and a write), so requests call it on the thread
/// that serves them.
package final class LocalMemoryStore: MemoryStore {
    private struct State {
        /// Written spaces' fields.
        var spaces: [Scope: [MemorySpace: [String: StoredField]]] = [:]
        /// Counters, apart: taking a number does not make a space written (it still reads as its seed).
        var counters: [Scope: [MemorySpace: Int]] = [:]
    }

    private let state = Locked(State())

    /// An empty store.
    package init() {}

    package var isRemote: Bool { false }
    package var callableHere: Bool { true }

    package func perform(_ job: @escaping @Sendable () -> Void) { job() }

    package func fields(_ space: MemorySpace, scope: Scope) -> [String: StoredField]? {
        state.withLock { $0.spaces[scope]?[space] }
    }

    package func count(_ space: MemorySpace, scope: Scope) -> Int? {
        state.withLock { $0.spaces[scope]?[space]?.count }
    }

    package func field(_ key: String, of space: MemorySpace, scope: Scope) -> FieldRead {
        state.withLock { s in
            guard let written = s.spaces[scope]?[space] else { return .unwritten }
            return written[key].map(FieldRead.value) ?? .absent
        }
    }

    package func commit(_ writes: [FieldWrite], to space: MemorySpace, scope: Scope, seed: [String: StoredField]?) -> CommitOutcome {
        state.withLock { s in
            if s.spaces[scope]?[space] == nil {
                guard let seed else { return .needsSeed }
                s.spaces[scope, default: [:]][space] = seed
            }
            // Changed in place: a copy of a collection's dictionary per write would cost its size.
            for write in writes where write.checks && s.spaces[scope]![space]![write.key] != write.expected { return .conflict }
            for write in writes { s.spaces[scope]![space]![write.key] = write.new }
            return .done
        }
    }

    package func nextNumber(_ space: MemorySpace, scope: Scope, floor: Int) -> Int {
        state.withLock { s in
            let next = max(s.counters[scope]?[space] ?? 0, floor) + 1
            s.counters[scope, default: [:]][space] = next
            return next
        }
    }

    package func reset(_ scope: Scope, space: MemorySpace?) {
        state.withLock { s in
            if let space {
                s.spaces[scope]?[space] = nil
                s.counters[scope]?[space] = nil
            } else {
                s.spaces[scope] = nil
                s.counters[scope] = nil
            }
        }
    }

    package func expireSessions(afterSeconds seconds: Int) {}

    package func writtenSpaces(scope: Scope) -> [MemorySpace] {
        state.withLock { Array(($0.spaces[scope] ?? [:]).keys) }
    }
}
