#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When session state goes away: sessions (`X-Stub-Session`) are made by tests, one per test, and
/// nothing tells stubd that a test is over. A session's overrides and sequences are dropped once it
/// has been idle for `ttlSeconds` (`--session-ttl`), and when more than `maxSessions` hold state the least recently
/// used go first. The global scope never expires.
struct SessionExpiry {
    /// The policy.
    struct Policy: Sendable {
        var ttlSeconds: Double
        var maxSessions: Int
    }

    let policy: Policy
    private var lastUsed: [String: Double] = [:]
    private var lastSweep = 0.0

    init(policy: Policy) {
        self.policy = policy
    }

    /// Sessions tracked now.
    var count: Int { lastUsed.count }

    /// Notes a use of `session` at `now` (seconds); returns the sessions to drop: those idle too
    /// long (checked at most once a second) and the least recently used beyond the cap.
    mutating func touch(_ session: String, now: Double) -> [String] {
        var dropped: [String] = []
        // A session used again after expiring starts afresh: its old state goes first.
        if let last = lastUsed[session], now - last > policy.ttlSeconds { dropped.append(session) }
        lastUsed[session] = now
        if now - lastSweep >= 1 || lastUsed.count > policy.maxSessions {
            lastSweep = now
            let idle = lastUsed.filter { now - $0.value > policy.ttlSeconds }.map(\.key)
            for key in idle { lastUsed[key] = nil }
            dropped += idle
        }
        if lastUsed.count > policy.maxSessions {
            let excess = lastUsed.sorted { $0.value < $1.value }.prefix(lastUsed.count - policy.maxSessions).map(\.key)
            for key in excess { lastUsed[key] = nil }
            dropped += excess
        }
        return dropped
    }

    /// Stops tracking a session that holds no state any more.
    mutating func forget(_ session: String) {
        lastUsed[session] = nil
    }
}
