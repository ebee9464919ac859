import StubSystem

/// The request body bytes all requests together may hold in memory at once (`--max-body-memory`).
/// Each request takes from it as its body arrives and gives back what it frees, so a crowd of
/// large uploads gets 503s past the budget instead of taking the machine's memory.
package final class BodyBudget: Sendable {
    /// The budget in bytes.
    package let limit: Int
    private let held = AtomicWord<Int>(0)

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Takes `count` bytes; false (and nothing taken) when that would pass the budget.
    package func take(_ count: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back `count` bytes taken before.
    package func give(_ count: Int) {
        guard count > 0 else { return }
        held.subtract(count, ordering: .relaxed)
    }

    /// Bytes held now.
    package var inUse: Int { held.load(ordering: .relaxed) }
}
