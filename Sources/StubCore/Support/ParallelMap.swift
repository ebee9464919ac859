import Dispatch
import StubSystem

extension Array where Element: Sendable {
    /// `map(transform)`, spread over the cores when there are more than `threshold` elements
    /// (below it, starting the workers costs more than they save). Results keep the elements'
    /// order, so what comes of them does not depend on timing. `transform` runs concurrently.
    func parallelMap<T: Sendable>(above threshold: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count > threshold else { return map(transform) }
        // One chunk per worker, each mapped on its own and put in its place under a lock taken
        // once per chunk (StubSystem's Locked: Synchronization's Mutex needs macOS 15).
        let workers = Swift.min(count, 64)
        let size = (count + workers - 1) / workers
        let chunks = Locked([[T]](repeating: [], count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let mapped = self[Swift.min(w * size, count)..<Swift.min((w + 1) * size, count)].map(transform)
            chunks.withLock { $0[w] = mapped }
        }
        return chunks.withLock { $0.flatMap { $0 } }
    }
}
