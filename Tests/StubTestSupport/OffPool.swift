import Foundation

/// Runs blocking work (waiting for a subprocess, a blocking socket read) on a thread of its own.
/// Neither the Swift concurrency pool nor Dispatch's global queues may be used for this: both are
/// as wide as the machine has cores, and on Linux Dispatch does not add threads for blocked ones,
/// so a few blocked waits would stall URLSession and every other test in the process.
package enum OffPool {
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }
}
