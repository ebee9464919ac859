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
        /// Each written space's fields by order, kept as writes come: a list of 10,000 objects is
        /// then read without sorting them per request (1.6 ms → 0.2 ms a page, bench/memory.py).
        var ordered: [Scope: [MemorySpace: [StoredField]]] = [:]
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

    package func ordered(_ space: MemorySpace, scope: Scope) -> [StoredField]? {
        state.withLock { $0.ordered[scope]?[space] }
    }

    package func field(_ key: String, of space: MemorySpace, scope: Scope) -> FieldRead {
        state.withLock { s in
            guard let written = s.spaces[scope]?[space] else { return .unwritten }
            return written[key].map(FieldRead.value) ?? .absent
        }
    }

    package func commit(_ writes: [FieldWrite], to space: MemorySpace, scope: Scope, seed: [String: StoredField]?, limit: Int?) -> CommitOutcome {
        state.withLock { s in
            if s.spaces[scope]?[space] == nil {
                guard let seed else { return .needsSeed }
                s.spaces[scope, default: [:]][space] = seed
                s.ordered[scope, default: [:]][space] = seed.values.sorted { $0.order < $1.order }
            }
            // Changed in place: a copy of a collection's dictionary per write would cost its size.
            for write in writes where write.checks && s.spaces[scope]![space]![write.key] != write.expected { return .conflict }
            if let limit, s.spaces[scope]![space]!.count + writes.count(where: { $0.new != nil && $0.expected == nil }) > limit { return .full }
            for write in writes {
                let old: StoredField?
                if let new = write.new { old = s.spaces[scope]![space]!.updateValue(new, forKey: write.key) } else {
                    old = s.spaces[scope]![space]!.removeValue(forKey: write.key)
                }
                LocalMemoryStore.reorder(&s.ordered[scope]![space]!, old: old, new: write.new)
            }
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
                s.ordered[scope]?[space] = nil
            } else {
                s.spaces[scope] = nil
                s.counters[scope] = nil
                s.ordered[scope] = nil
            }
        }
    }

    package func expireSessions(afterSeconds seconds: Int) {}

    /// Moves one field's change into the list by order: out where it was, in where it goes
    /// (at the end, for a new object, whose order is the largest so far).
    static func reorder(_ list: inout [StoredField], old: StoredField?, new: StoredField?) {
        if let old, case let at = lowerBound(old.order, in: list), at < list.count, list[at].order == old.order {
            if let new, new.order == old.order { list[at] = new; return }
            list.remove(at: at)
        }
        guard let new else { return }
        if let last = list.last, last.order >= new.order { list.insert(new, at: lowerBound(new.order, in: list)) } else { list.append(new) }
    }

    /// The first index whose order is at least `order`.
    static func lowerBound(_ order: Int, in list: [StoredField]) -> Int {
        var (low, high) = (0, list.count)
        while low < high {
            let mid = (low + high) / 2
            if list[mid].order < order { low = mid + 1 } else { high = mid }
        }
        return low
    }

    package func writtenSpaces(scope: Scope) -> [MemorySpace] {
        state.withLock { Array(($0.spaces[scope] ?? [:]).keys) }
    }
}
