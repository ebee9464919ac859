import Foundation

/// When a request is sent again: the statuses and network errors worth retrying, how many times,
/// and the pause between tries (what Alamofire's `RetryPolicy` decides, without its `Progress`).
public struct RetryPolicy: Sendable {
    /// Extra tries after the first.
    public var retries: Int
    /// Statuses that are retried (503 and 429 by default: the server asked for patience).
    public var statuses: Set<Int>
    /// Network errors that are retried.
    public var errors: Set<URLError.Code>
    /// Milliseconds between tries.
    public var pauseMs: Int

    /// No retries.
    public static let none = RetryPolicy(retries: 0)

    /// A policy; by default 503 and 429, a lost connection and a timeout are retried.
    public init(retries: Int, statuses: Set<Int> = [429, 503], errors: Set<URLError.Code> = [.networkConnectionLost, .timedOut],
                pauseMs: Int = 50) {
        self.retries = retries
        self.statuses = statuses
        self.errors = errors
        self.pauseMs = pauseMs
    }

    func shouldRetry(status: Int) -> Bool { statuses.contains(status) }
    func shouldRetry(_ code: URLError.Code) -> Bool { errors.contains(code) }
    func wait() async throws { try await Task.sleep(nanoseconds: UInt64(pauseMs) * 1_000_000) }
}
