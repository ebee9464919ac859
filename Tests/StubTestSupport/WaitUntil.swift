import Foundation
import Testing

/// Waits until `condition` holds (checked every 2 ms) for at most `seconds`: a wait on something
/// the test can observe, such as a parked request or an open stream, never a fixed sleep.
/// Records an issue, naming `what`, when time runs out.
package func waitUntil(_ what: String, seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () -> Bool) async throws {
    // A monotonic clock: the wall clock may step while a test waits.
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("waited \(seconds) s for \(what)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(nanoseconds: 2_000_000)
    }
}

/// Whether `condition` comes to hold within `seconds` (checked every 20 ms, and once more at the
/// end): for waits whose outcome the test asserts itself, or that must see something not happen.
package func eventually(_ seconds: Double = 5, _ condition: () async throws -> Bool) async throws -> Bool {
    // A monotonic clock: the wall clock may step while a test waits.
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
    return try await condition()
}
