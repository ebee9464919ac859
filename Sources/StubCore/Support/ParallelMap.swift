import Dispatch

extension Array where Element: Sendable {
    /// `map(transform)`, spread over the cores when there are more than `threshold` elements
    /// (below it, starting the workers costs more than they save). Results keep the elements'
    /// order, so what comes of them does not depend on timing. `transform` runs concurrently.
    func parallelMap<T>(above threshold: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count > threshold else { return map(transform) }
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            // Each iteration writes only its own slot.
            nonisolated(unsafe) let out = slots
            DispatchQueue.concurrentPerform(iterations: count) { i in out[i] = transform(self[i]) }
        }
        return results.map { $0! }
    }
}
