/// Timers, earliest first (a binary heap): the WebSocket hub's (which conversation has something
/// due when), each conversation's own (what it does then), and the HTTP/2 engine's (which stream
/// waits until when). Timers due at the same time come out in the
/// order they were pushed, so a reply's messages go before its close. Push and pop cost the log
/// of the count: a client that makes thousands of replies wait costs no scan per message.
package struct TimerHeap<Payload> {
    package init() {}

    private struct Item {
        let due: UInt64
        /// The push's number: the tie-break that keeps timers due together in push order.
        let order: UInt64
        let payload: Payload

        func before(_ other: Item) -> Bool { (due, order) < (other.due, other.order) }
    }

    private var items: [Item] = []
    private var pushes: UInt64 = 0

    /// The earliest due time.
    package var next: UInt64? { items.first?.due }

    package mutating func push(_ due: UInt64, _ payload: Payload) {
        items.append(Item(due: due, order: pushes, payload: payload))
        pushes &+= 1
        siftUp(items.count - 1)
    }

    /// Takes every entry due at `now`, in due order (push order among equals).
    package mutating func popDue(_ now: UInt64) -> [(due: UInt64, payload: Payload)] {
        var due: [(due: UInt64, payload: Payload)] = []
        while let first = items.first, first.due <= now {
            due.append((first.due, first.payload))
            items.swapAt(0, items.count - 1)
            items.removeLast()
            siftDown(0)
        }
        return due
    }

    /// The earliest entry's payload, if it is due at `now`; it stays.
    package func first(dueAt now: UInt64) -> Payload? {
        guard let first = items.first, first.due <= now else { return nil }
        return first.payload
    }

    /// Takes the earliest entry if it is due at `now`.
    package mutating func popFirst(ifDueAt now: UInt64) -> (due: UInt64, payload: Payload)? {
        guard let first = items.first, first.due <= now else { return nil }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        siftDown(0)
        return (first.due, first.payload)
    }

    package mutating func removeAll() { items.removeAll() }

    /// Drops the timers whose payload matches (rare: a cancelled subscription, an init timer met).
    package mutating func removeAll(where matches: (Payload) -> Bool) {
        let before = items.count
        items.removeAll { matches($0.payload) }
        guard items.count != before else { return }
        for index in stride(from: items.count / 2, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].before(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && items[left].before(items[smallest]) { smallest = left }
            if right < items.count && items[right].before(items[smallest]) { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
