/// The hub's timers: which conversation has something due when, earliest first (a binary heap).
/// Entries are hints: a conversation whose plans changed may be woken early, and finds nothing due.
struct TimerHeap {
    private var items: [(due: UInt64, id: Int)] = []

    /// The earliest due time.
    var next: UInt64? { items.first?.due }

    mutating func push(_ due: UInt64, _ id: Int) {
        items.append((due, id))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].due < items[parent].due else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes every entry due at `now`.
    mutating func popDue(_ now: UInt64) -> [(due: UInt64, id: Int)] {
        var due: [(due: UInt64, id: Int)] = []
        while let first = items.first, first.due <= now {
            due.append(first)
            items.swapAt(0, items.count - 1)
            items.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < items.count && items[left].due < items[smallest].due { smallest = left }
                if right < items.count && items[right].due < items[smallest].due { smallest = right }
                guard smallest != parent else { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return due
    }
}
